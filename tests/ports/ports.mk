# tests/ports/ - libbpf-bootstrap's bootstrap, minimal and fentry, written on
# bpfsdk from docs/from-libbpf.md and built the way a project outside this
# tree builds them: against a staged `make install` (build/ports/stage), the
# BPF side with the installed SDK headers (not libbpf-dev's), the skeleton
# with the installed bpfsdk, the user side with -Wall -Werror and `pkg-config --cflags --libs
# bpfsdk`. The programs find the staged library through a run path relative
# to themselves, so they run in the test VM too. tests/bats/ports.bats runs
# them.

PORTS       := bootstrap minimal fentry
PORTS_DIR   := $(BUILD)/ports
PORTS_STAGE := $(PORTS_DIR)/stage
PORTS_BINS  := $(addprefix $(PORTS_DIR)/,$(PORTS))
# The staged bpfsdk makes the skeletons; a cross build's cannot run here, so
# there the host build's does (HOST_BPFSDK, as for the gallery's skeletons).
PORTS_GEN   := $(if $(CROSS_COMPILE),$(HOST_BPFSDK),$(PORTS_STAGE)/usr/local/bin/bpfsdk)
PORTS_PC    := PKG_CONFIG_PATH=$(abspath $(PORTS_STAGE))/usr/local/lib/pkgconfig \
	       PKG_CONFIG_SYSROOT_DIR=$(abspath $(PORTS_STAGE)) pkg-config

# Order-only on `all`: install's own `all` then has nothing left to build.
$(PORTS_DIR)/.staged: $(LOADER_LIB) $(LOADER_SO_REAL) $(BUILD)/bin/bpfsdk loader/bpfsdk.h \
		      $(SDK_HEADERS) loader/install.mk loader/bpfsdk.pc.in | all
	$(msg) INSTALL $(PORTS_STAGE)
	$(Q)rm -rf $(PORTS_STAGE)
	$(Q)$(MAKE) --no-print-directory -s BUILD=$(BUILD) install \
		DESTDIR=$(abspath $(PORTS_STAGE)) PREFIX=/usr/local >/dev/null
	$(Q)touch $@

$(PORTS_DIR)/%.bpf.o: tests/ports/%.bpf.c $(wildcard tests/ports/*.h) $(PORTS_DIR)/.staged
	$(msg) BPF $@
	$(Q)$(CLANG) -O2 -g -target bpf -D__TARGET_ARCH_$(TARGET_ARCH) -Wall -Werror \
		-I$(PORTS_STAGE)/usr/local/include/bpfsdk \
		$(if $(MULTIARCH),-idirafter /usr/include/$(MULTIARCH)) -c $< -o $@

$(PORTS_DIR)/%.skel.h: $(PORTS_DIR)/%.bpf.o
	$(msg) SKEL $@
	$(Q)$(PORTS_GEN) gen skeleton $< >$@.tmp && mv $@.tmp $@

$(PORTS_BINS): $(PORTS_DIR)/%: tests/ports/%.c $(PORTS_DIR)/%.skel.h $(wildcard tests/ports/*.h)
	$(msg) LINK $@
	$(Q)$(CC) -Wall -Werror -O2 -g -I$(PORTS_DIR) -Itests/ports -o $@ $< \
		$$($(PORTS_PC) --cflags --libs bpfsdk) -Wl,-rpath,'$$ORIGIN/stage/usr/local/lib'

test-programs: $(PORTS_BINS)
.SECONDARY: $(patsubst %,$(PORTS_DIR)/%.bpf.o,$(PORTS))
