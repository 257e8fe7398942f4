# samples/syscall_latency: the time a system call takes, from a
# raw_tracepoint sys_enter/sys_exit pair, as a log2 histogram.
SYSCALL_LATENCY_GEN := $(BUILD)/gen/syscall_latency

$(eval $(call bpf_object,syscall_latency,samples/syscall_latency/syscall_latency.bpf.c,samples/syscall_latency/syscall_latency.h))
$(eval $(call user_program,syscall_latency,samples/syscall_latency/syscall_latency.c))
$(eval $(call skeleton,syscall_latency))
$(BUILD)/obj/samples/syscall_latency/syscall_latency.o: $(BUILD)/skel/syscall_latency.skel.h

# --syscall NAME needs the number the kernel uses for NAME on this
# architecture. The C library's headers have it as __NR_NAME; this turns
# every such macro into a table row { "NAME", __NR_NAME }, so the compiler
# fills in the numbers (some are defined through other macros). Generated,
# never committed: it always matches the headers the program is built with.
$(SYSCALL_LATENCY_GEN)/syscall_names.h: samples/syscall_latency/sample.mk | $(BUILD)/.deps-ok
	$(msg) GEN $@
	@mkdir -p $(@D)
	$(Q)echo '#include <sys/syscall.h>' | $(CC) -dM -E -x c - | \
		sed -n 's/^#define __NR_\([a-z0-9_]*\) .*/\t{ "\1", __NR_\1 },/p' | \
		grep -v '"syscalls"' | LC_ALL=C sort >$@.tmp
	$(Q)test -s $@.tmp || { echo "error: no __NR_ macros in <sys/syscall.h>" >&2; rm -f $@.tmp; exit 1; }
	$(Q)mv $@.tmp $@

$(BUILD)/obj/samples/syscall_latency/syscall_latency.o: $(SYSCALL_LATENCY_GEN)/syscall_names.h
$(BUILD)/obj/samples/syscall_latency/syscall_latency.o: CPPFLAGS += -I$(SYSCALL_LATENCY_GEN)
