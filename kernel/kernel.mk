# kernel/ - the seed's patch series, the qemu test kernel built from it, and
# the kernels people run.
#
#   make kernel                   build (or reuse) the test kernel's bzImage
#   make vmtest                   run the BATS suites inside qemu on it
#   make vmtest KERNEL=bzImage    ... on another kernel image instead
#   make vmtest-debian            ... on this machine's Debian release's
#                                 linux-image (apt-get download, never installed)
#   make vmtest-bullseye          ... on Debian 11's kernel (5.10); also
#                                 vmtest-bookworm (6.1), vmtest-trixie (6.12)
#   make vmtest-no-btf            the test kernel with /sys/kernel/btf hidden
#                                 (tests/vm/suites-no-btf)
#   make test-kernels             the suites on every kernel of the matrix
#                                 (kernel/matrix), then the pass without BTF
#   make vmtest-arm64             cross-build everything for arm64 into
#                                 $(BUILD)/arm64 and run tests/vm/suites-arm64
#                                 in qemu-system-aarch64 on Debian 13's arm64
#                                 kernel (ARM64_SUITES=FILE: another list;
#                                 make test gives tests/vm/suites-arm64-short)
#
# Images are cached under $(BPFSDK_CACHE) (default /var/cache/bpfsdk); see
# kernel/README.md.

KERNEL ?=
DEBIAN_SUITES := bullseye bookworm trixie

kernel:
	$(Q)kernel/build

vmtest: test-programs
	$(Q)BUILD=$(BUILD) KERNEL=$(KERNEL) tests/vm/run

vmtest-debian: test-programs
	$(Q)img=$$(kernel/fetch-debian) && BUILD=$(BUILD) KERNEL=$$img tests/vm/run

$(addprefix vmtest-,$(DEBIAN_SUITES)): vmtest-%: test-programs
	$(Q)BUILD=$(BUILD) kernel/matrix --kernels $*

vmtest-no-btf: test-programs
	$(Q)BUILD=$(BUILD) kernel/matrix --kernels bpfsdk --hide-btf --suites tests/vm/suites-no-btf

test-kernels: test-programs
	$(Q)rc=0; BUILD=$(BUILD) kernel/matrix || rc=1; \
	BUILD=$(BUILD) kernel/matrix --kernels bpfsdk --hide-btf --suites tests/vm/suites-no-btf || rc=1; \
	exit $$rc

# arm64: the same tree built with Debian's cross toolchain (the host's
# bpfsdk generates the skeletons), a vmlinux.h from the BTF of the arm64
# kernel the VM boots (kernel/image-btf reads it out of the image) for the
# program written against one (tests/bpf-vmlinux/), then the VM, under TCG.
ARM64_BUILD := $(BUILD)/arm64
ARM64_KERNEL_SUITE ?= trixie
ARM64_BPF_CFLAGS := -O2 -g -target bpf -D__TARGET_ARCH_arm64 -Wall -Werror -Iinclude
# the sub-makes say nothing of their own ("Nothing to be done"), unless V=1
ARM64_MAKE_QUIET := $(if $(filter 1,$(V)),,-s)

vmtest-arm64: test-programs
	$(Q)$(MAKE) $(ARM64_MAKE_QUIET) --no-print-directory -j$(JOBS) BUILD=$(ARM64_BUILD) CROSS_COMPILE=aarch64-linux-gnu- \
		HOST_BPFSDK=$(BUILD)/bin/bpfsdk test-programs
	$(Q)img=$$(kernel/fetch-debian --suite $(ARM64_KERNEL_SUITE) --arch arm64 | tail -n 1) && \
	$(MAKE) $(ARM64_MAKE_QUIET) --no-print-directory ARM64_IMAGE="$$img" arm64-vmlinux && \
	$(MAKE) $(ARM64_MAKE_QUIET) --no-print-directory $(ARM64_BUILD)/bpf/tests/co_re_vmlinux.bpf.o && \
	BUILD=$(ARM64_BUILD) tests/vm/run --arch arm64 --tag arm64 --kernel "$$img" \
		$(if $(ARM64_SUITES),--suites $(ARM64_SUITES))

# $(ARM64_BUILD)/vmlinux.h of the image ARM64_IMAGE, made again when the
# image is another one (a newer Debian kernel) or kernel/image-btf changed.
arm64-vmlinux:
	$(Q)h=$(ARM64_BUILD)/vmlinux.h; \
	if [ ! -f "$$h" ] || [ kernel/image-btf -nt "$$h" ] || \
	   [ "$$(cat $(ARM64_BUILD)/vmlinux.image 2>/dev/null)" != "$(ARM64_IMAGE)" ]; then \
		printf '  %-7s %s\n' GEN "$$h"; \
		mkdir -p $(ARM64_BUILD) && \
		kernel/image-btf "$(ARM64_IMAGE)" $(ARM64_BUILD)/vmlinux.btf && \
		bpftool btf dump file $(ARM64_BUILD)/vmlinux.btf format c >"$$h.tmp" && \
		mv "$$h.tmp" "$$h" && echo "$(ARM64_IMAGE)" >$(ARM64_BUILD)/vmlinux.image; \
	fi

$(ARM64_BUILD)/bpf/tests/%.bpf.o: tests/bpf-vmlinux/%.bpf.c $(ARM64_BUILD)/vmlinux.h | $(BUILD)/.deps-ok
	$(msg) BPF $@
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(ARM64_BPF_CFLAGS) -I$(ARM64_BUILD) -MMD -MP -MF $@.d -c $< -o $@
-include $(wildcard $(ARM64_BUILD)/bpf/tests/*.bpf.o.d)

.PHONY: vmtest-arm64 arm64-vmlinux
.PHONY: kernel vmtest vmtest-debian $(addprefix vmtest-,$(DEBIAN_SUITES)) vmtest-no-btf test-kernels
