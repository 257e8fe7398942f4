# bench/ - perf_bench: our perf and ring buffer consumers against the
# write-loop ceiling and libbpf's, on one BPF program loaded by our loader.
# libbpf is linked here and nowhere else.
#
#   make bench                      the full run (a few minutes)
#   make bench BENCH_ARGS='-d 1 -r 3'   shorter, or any perf_bench option

BENCH_ARGS ?=

$(eval $(call bpf_object,perf_bench,bench/perf_bench.bpf.c,bench/perf_bench.h))
$(eval $(call user_program,perf_bench,bench/perf_bench.c,-lbpf -lpthread -lm))

bench: all
	$(Q)$(BUILD)/bin/perf_bench --obj $(BUILD)/bpf/perf_bench.bpf.o $(BENCH_ARGS)

.PHONY: bench
