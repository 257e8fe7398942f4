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
#                                 kernel
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
# bpfsdk generates the skeletons), then booted under TCG.
ARM64_BUILD := $(BUILD)/arm64

vmtest-arm64: test-programs
	$(Q)$(MAKE) --no-print-directory BUILD=$(ARM64_BUILD) CROSS_COMPILE=aarch64-linux-gnu- \
		HOST_BPFSDK=$(BUILD)/bin/bpfsdk test-programs
	$(Q)BUILD=$(ARM64_BUILD) tests/vm/run --arch arm64 --tag arm64

.PHONY: vmtest-arm64
.PHONY: kernel vmtest vmtest-debian $(addprefix vmtest-,$(DEBIAN_SUITES)) vmtest-no-btf test-kernels
