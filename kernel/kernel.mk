# kernel/ - the seed's patch series and the qemu test kernel built from it.
#
#   make kernel                   build (or reuse) the test kernel's bzImage
#   make vmtest                   run the BATS suites inside qemu on it
#   make vmtest KERNEL=bzImage    ... on another kernel image instead
#   make vmtest-debian            ... on Debian's prebuilt linux-image (fetched
#                                 with apt-get download, never installed)
#
# The image is cached under $(BPFSDK_CACHE) (default /var/cache/bpfsdk); see
# kernel/README.md.

KERNEL ?=

kernel:
	$(Q)kernel/build

vmtest: test-programs
	$(Q)BUILD=$(BUILD) KERNEL=$(KERNEL) tests/vm/run

vmtest-debian: test-programs
	$(Q)img=$$(kernel/fetch-debian) && BUILD=$(BUILD) KERNEL=$$img tests/vm/run

.PHONY: kernel vmtest vmtest-debian
