# bench/ - perf_bench: our perf and ring buffer consumers against the
# write-loop ceiling and libbpf's, on one BPF program loaded by our loader;
# co_re_bench: opening and loading a CO-RE object, with our loader and libbpf's;
# metrics_bench: the reader's rate while a 100,000-series /metrics is
# scraped (20 times a second; by 32 clients once a second each, with the
# renders they share), one render and scrape of it, a storm with the
# records lost and the memory; rings_bench: the consumers over
# 1 to 256 rings in memory, no kernel (drain and merge cost per record, per
# empty ring, the memory of the default sizing).
# syms_bench: bsdk_syms_lookup() naming 10,000 addresses of its own process.
# libbpf is linked here and nowhere else.
#
#   make bench                      the full run (perf_bench ~6 minutes, then co_re, metrics ~2.5, rings, syms)
#   make bench BENCH_ARGS='-d 1 -r 3'   shorter, or any perf_bench option
#   make bench-co-re                co_re_bench alone (CO_RE_BENCH_ARGS: its options)
#   make bench-metrics              metrics_bench alone (METRICS_BENCH_ARGS: -d SEC -r N -s STORM_SEC)
#   make bench-rings                rings_bench alone (RINGS_BENCH_ARGS: -r N --rings LIST ...)
#   make bench-syms                 syms_bench alone (SYMS_BENCH_ARGS: -r ROUNDS -n ADDRESSES)

BENCH_ARGS ?=

$(eval $(call bpf_object,perf_bench,bench/perf_bench.bpf.c,bench/perf_bench.h))
$(eval $(call user_program,perf_bench,bench/perf_bench.c,-lbpf -lpthread -lm))
# the bpfsdk-run-json row: emit_perf alone, for `bpfsdk run` to load
$(eval $(call bpf_object,run_bench,bench/run_bench.bpf.c,bench/perf_bench.h))

# co_re_bench: opening and loading a CO-RE object, ours against libbpf's.
CO_RE_BENCH_ARGS ?=

$(eval $(call bpf_object,co_re_bench,bench/co_re_bench.bpf.c))
$(eval $(call user_program,co_re_bench,bench/co_re_bench.c,-lbpf -lm))

# metrics_bench: libbpfsdk-http's server, as bpfsdk run --metrics uses it.
METRICS_BENCH_ARGS ?=

$(eval $(call bpf_object,metrics_bench,bench/metrics_bench.bpf.c))
$(eval $(call user_program,metrics_bench,bench/metrics_bench.c,$(LDLIBS_HTTP) -lpthread))
$(BUILD)/bin/metrics_bench: $(LOADER_HTTP_LIB)
$(BUILD)/obj/bench/metrics_bench.o: CPPFLAGS += -Iloader/http

# rings_bench: the perf buffer and ring buffer consumers over rings in memory, built with
# the constructors the rings layer keeps for that (loader/rings/rings.h): linked with the
# library's internal archive, every object of it (the rings layer's registration in
# ext/passes.c with them), as the unit tests are.
RINGS_BENCH_ARGS ?=

$(eval $(call user_object,bench/rings_bench.c))
$(BUILD)/bin/rings_bench: $(BUILD)/obj/bench/rings_bench.o $(LOADER_LIB_INTERNAL)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< \
		-Wl,--whole-archive $(LOADER_LIB_INTERNAL) -Wl,--no-whole-archive $(LDLIBS_ELF) -lm
USER_BINS += $(BUILD)/bin/rings_bench

# syms_bench: stack symbolization, through the library's public API.
SYMS_BENCH_ARGS ?=

$(eval $(call user_program,syms_bench,bench/syms_bench.c))

bench: all
	$(Q)$(BUILD)/bin/perf_bench --obj $(BUILD)/bpf/perf_bench.bpf.o $(BENCH_ARGS)
	$(Q)$(BUILD)/bin/co_re_bench --obj $(BUILD)/bpf/co_re_bench.bpf.o $(CO_RE_BENCH_ARGS)
	$(Q)$(BUILD)/bin/metrics_bench -o $(BUILD)/bpf/metrics_bench.bpf.o $(METRICS_BENCH_ARGS)
	$(Q)$(BUILD)/bin/rings_bench $(RINGS_BENCH_ARGS)
	$(Q)$(BUILD)/bin/syms_bench $(SYMS_BENCH_ARGS)

bench-rings: all
	$(Q)$(BUILD)/bin/rings_bench $(RINGS_BENCH_ARGS)

bench-metrics: all
	$(Q)$(BUILD)/bin/metrics_bench -o $(BUILD)/bpf/metrics_bench.bpf.o $(METRICS_BENCH_ARGS)

bench-co-re: all
	$(Q)$(BUILD)/bin/co_re_bench --obj $(BUILD)/bpf/co_re_bench.bpf.o $(CO_RE_BENCH_ARGS)

bench-syms: all
	$(Q)$(BUILD)/bin/syms_bench $(SYMS_BENCH_ARGS)

.PHONY: bench bench-co-re bench-metrics bench-rings bench-syms
