# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bpfsdk - top-level build.
#
#   make               build everything into build/
#   make run           set up the machine, build, run the headline sample
#   make test          set up, build, run every suite (host, then qemu)
#   make test-all      the same as make test (host and qemu)
#   make test-host     the same without the qemu kernel suite
#   make test-programs build what the suites run; then one suite alone:
#                      (bats tests/bats/NAME.bats, e.g. bats tests/bats/cli_gen.bats)
#   make vmtest        only the suites inside the qemu test kernel
#                      (KERNEL=path/to/bzImage boots another kernel)
#   make vmtest-debian the qemu suites on Debian's prebuilt kernel
#   make vmtest-bullseye the qemu suites on Debian 11's kernel (5.10)
#                      (also vmtest-bookworm: 6.1, vmtest-trixie: 6.12)
#   make test-kernels  the qemu suites on every kernel of kernel/matrix
#   make vmtest-arm64  cross-build for arm64, run its suites in qemu-system-aarch64
#                      (Debian 13's arm64 kernel; tests/vm/suites-arm64)
#   make kernel        build (or reuse the cached) qemu test kernel
#   make bench         the consumer benchmarks (docs/performance.md; perf_bench alone ~6 minutes)
#   make fuzz          fuzz every parser, FUZZ_SECONDS each (default 60)
#                      (the targets: tests/fuzz/fuzz.mk; make fuzz-obj ...)
#   make test-asan     the unit tests and CLI suites under ASan/UBSan/LSan
#   make test-faults   fail every allocation and system call of each workflow
#                      in turn (tests/faults/; make test runs a sample)
#   make test-tsan     8 threads using the library at once, under TSan
#   make soak          10 minutes of bpfsdk run at full rate (SOAK_SECONDS)
#   make check-headers regenerate include/bpf/bpf_helper_defs.h and diff it
#   make check-layers  no library layer or room uses one above it (make test runs it)
#   make check-sizes   no file over 700 lines, no function over 80 (make test runs it)
#   make update-headers rewrite include/bpf/bpf_helper_defs.h from the UAPI header
#   make picture       redraw docs/picture.svg from docs/picture.dot
#   make install       the tool, libraries, headers, bpfsdk.pc, man pages,
#                      the gallery's BPF objects (lib/bpfsdk/)
#                      (PREFIX=/usr/local, DESTDIR=staging directory)
#   make uninstall     remove what make install put there
#   make deb           the Debian packages, with debhelper, into build/deb/
#   make test-compilers every gcc and clang of the matrix on the tree
#   make setup         install the Debian packages make run needs, mount tracefs/bpffs
#   make setup-test    the same, and the packages make test needs
#   make clean         remove build/
#   make help          this list
#   make V=1           show full commands; BUILD=dir to build elsewhere
#
# Every folder brings its own fragment (loader/loader.mk, samples/*.mk, ...);
# this file only holds the toolchain and the rules they share.

BUILD      ?= build
V          ?= 0
CC         ?= cc
CLANG      ?= clang
# Jobs for the builds that make test and make vmtest-arm64 start themselves
# (make test's own command line usually has no -j): one per CPU.
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)

# Cross-building for arm64 (make vmtest-arm64 does it in build/arm64):
#     make BUILD=build/arm64 CROSS_COMPILE=aarch64-linux-gnu-
# takes gcc, ar, ld and objcopy of Debian's gcc-aarch64-linux-gnu and links
# against the arm64 multiarch -dev packages; the BPF objects are built for
# the architecture $(CC) targets. Generated skeletons need a bpfsdk that
# runs here: HOST_BPFSDK (the host build's, build/bin/bpfsdk).
ifneq ($(CROSS_COMPILE),)
ifeq ($(origin CC),default)
CC         := $(CROSS_COMPILE)gcc
endif
ifeq ($(origin AR),default)
AR         := $(CROSS_COMPILE)ar
endif
ifeq ($(origin LD),default)
LD         := $(CROSS_COMPILE)ld
endif
OBJCOPY    ?= $(CROSS_COMPILE)objcopy
HOST_BPFSDK ?= build/bin/bpfsdk
else
HOST_BPFSDK ?= $(BUILD)/bin/bpfsdk
endif

ifeq ($(V),1)
Q   :=
msg := @true
else
Q   := @
msg  = @printf '  %-7s %s\n'
endif

# clang -target bpf compiles without a libc: the UAPI headers it needs
# (linux/bpf.h) include <asm/types.h>, which Debian keeps under the
# multiarch directory. Adding it with -idirafter is what keeps the classic
# "asm/types.h not found" away from users.
MULTIARCH  := $(shell $(CC) -print-multiarch 2>/dev/null)
# The architecture the programs are built for, which is the one of the
# kernel they run on: what $(CC) targets (aarch64-linux-gnu-gcc: arm64).
MACHINE    := $(firstword $(subst -, ,$(shell $(CC) -dumpmachine 2>/dev/null)) $(shell uname -m))
ifeq ($(MACHINE),x86_64)
TARGET_ARCH := x86
else ifeq ($(MACHINE),aarch64)
TARGET_ARCH := arm64
else
TARGET_ARCH := $(MACHINE)
endif

# -Wno-error=#pragma-messages: a feature the clang lacks (BPFSDK_RECORD()'s
# tag before clang 14) is a warning that names it, not a failed build.
BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_$(TARGET_ARCH) \
	      -Wall -Werror -Wno-error=\#pragma-messages -Iinclude \
	      $(if $(MULTIARCH),-idirafter /usr/include/$(MULTIARCH)) \
	      $(BPF_EXTRA_CFLAGS)

CFLAGS     ?= -O2 -g
CFLAGS     += -std=gnu11 -Wall -Wextra -Wno-unused-parameter \
	      -Wmissing-prototypes -Wshadow -Wformat=2 -D_GNU_SOURCE
CPPFLAGS   += -Iloader -I$(BUILD)/skel -MMD -MP
# libdw: the record types of loader/readers/records/record_type.c, from DWARF
LDLIBS_ELF := -ldw -lelf -lz

.DELETE_ON_ERROR:
.SUFFIXES:
.PHONY: all clean run test test-host setup setup-test test-compilers check-deps check-headers help

all:

# --- shared rules, used by the fragments through $(call ...) ---------------

# $(call bpf_object,NAME,SOURCE,EXTRA-DEPS): build/bpf/NAME.bpf.o
define bpf_object
$(BUILD)/bpf/$(1).bpf.o: $(2) $(3) | $(BUILD)/.deps-ok
	$$(msg) BPF $$@
	@mkdir -p $$(@D)
	$(Q)$$(CLANG) $$(BPF_CFLAGS) -MMD -MP -MF $$@.d -c $$< -o $$@
-include $(BUILD)/bpf/$(1).bpf.o.d
BPF_OBJS += $(BUILD)/bpf/$(1).bpf.o
endef

# $(call user_object,SOURCE): build/obj/SOURCE.o
define user_object
$(BUILD)/obj/$(1:.c=.o): $(1) | $(BUILD)/.deps-ok
	$$(msg) CC $$@
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(CPPFLAGS) $$(CFLAGS) -c $$< -o $$@
-include $(BUILD)/obj/$(1:.c=.d)
endef

# $(call user_program,NAME,SOURCES,EXTRA-LDLIBS): build/bin/NAME linked
# against the loader library; EXTRA-LDLIBS come before it, so that an
# archive built on it (libbpfsdk-http.a) may be one.
define user_program
$(foreach s,$(2),$(eval $(call user_object,$(s))))
$(BUILD)/bin/$(1): $(patsubst %.c,$(BUILD)/obj/%.o,$(2)) $(LOADER_LIB)
	$$(msg) LINK $$@
	@mkdir -p $$(@D)
	$(Q)$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $$(filter %.o,$$^) \
		$(3) $(LOADER_LIB) $$(LDLIBS_ELF)
USER_BINS += $(BUILD)/bin/$(1)
endef

# $(call skeleton,NAME): build/skel/NAME.skel.h, made by `bpfsdk gen skeleton`
# from build/bpf/NAME.bpf.o (a bpf_object), for a user program that includes
# "NAME.skel.h"; the program's object must depend on it:
#   $(BUILD)/obj/samples/NAME/NAME.o: $(BUILD)/skel/NAME.skel.h
define skeleton
$(BUILD)/skel/$(1).skel.h: $(BUILD)/bpf/$(1).bpf.o $(HOST_BPFSDK)
	$$(msg) GEN $$@
	@mkdir -p $$(@D)
	$(Q)$(HOST_BPFSDK) gen skeleton $$< > $$@.tmp && mv $$@.tmp $$@
SKELETONS += $(BUILD)/skel/$(1).skel.h
endef

# --- the fragments ---------------------------------------------------------

include loader/loader.mk
include loader/install.mk
include include/include.mk
include samples/samples.mk
-include bench/bench.mk
include tests/tests.mk
include tests/faults/faults.mk
include tests/threads/threads.mk
include tests/soak/soak.mk
-include tests/fuzz/fuzz.mk
-include kernel/kernel.mk
-include docs/docs.mk
-include debian/deb.mk

all: $(LOADER_LIB) $(USER_BINS) $(BPF_OBJS) $(SKELETONS)

# Every BPF object and nothing else (tools/test-compilers, one clang each).
bpf-objects: $(BPF_OBJS)
.PHONY: bpf-objects

# An early, friendly check that the toolchain is here, naming the Debian
# package to install; `make setup` installs them.
$(BUILD)/.deps-ok: tools/setup
	$(Q)tools/setup --check
	@mkdir -p $(@D) && touch $@

check-deps:
	$(Q)tools/setup --check

setup:
	$(Q)tools/setup

setup-test:
	$(Q)tools/setup --test

# gcc 12 and 14, clang as the C compiler, clang 13, 14, 16 and 19 on the
# BPF side (tools/test-compilers; tests/bats/compilers.bats in make test).
test-compilers: setup-test
	$(Q)BUILD=$(BUILD) tools/test-compilers

# The headline sample, as the README's first command promises.
run: setup
	$(Q)$(MAKE) --no-print-directory -s all
	$(Q)$(BUILD)/bin/trace_output --duration 5

clean:
	$(msg) CLEAN $(BUILD)
	$(Q)rm -rf $(BUILD)

help:
	@sed -n 's/^#   make/make/p; s/^#      \( *(.*\)/   \1/p' Makefile
