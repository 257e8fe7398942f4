# loader/install.mk - make install / make uninstall: the bpfsdk tool, the
# library (static and shared), its header, the SDK headers for BPF
# programs, bpfsdk.pc, the man pages, the gallery's BPF objects
# (PREFIX/lib/bpfsdk/NAME.bpf.o, which bpfsdk inspect and run take: under
# lib/, not share/, as they are built for this machine's architecture --
# its registers in pt_regs, its byte order -- like any other binary) and
# the systemd unit bpfsdk-run@.service (one instance per object:
# docs/metrics.md).
#
#   make install [PREFIX=/usr/local] [DESTDIR=/staging]
#   make uninstall  (the same PREFIX and DESTDIR)
#
# The SDK headers go to PREFIX/include/bpfsdk/bpf/, so a BPF program built
# with -I PREFIX/include/bpfsdk includes them as <bpf/bpf_helpers.h>, and
# libbpf-dev's /usr/include/bpf/ stays untouched: the -I directory is
# searched first. `pkg-config --variable=bpf_includedir bpfsdk` names it,
# and `pkg-config --variable=bpfsdk bpfsdk` the tool (for gen skeleton).

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
LIBDIR     ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR     ?= $(PREFIX)/share/man
BPFOBJDIR  ?= $(PREFIX)/lib/bpfsdk
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
# where systemd looks for units under PREFIX (/usr/local/lib/systemd/system, /usr/lib/...)
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
BPF_INCLUDEDIR := $(INCLUDEDIR)/bpfsdk

SDK_HEADERS := $(sort $(wildcard include/bpf/*.h))
MAN_PAGES   := docs/man/bpfsdk.8 docs/man/bpfsdk.3
# One BPF object per sample folder: samples/NAME/NAME.bpf.c.
GALLERY_OBJS := $(foreach d,$(sort $(wildcard samples/*/*.bpf.c)),$(BUILD)/bpf/$(notdir $(d:.bpf.c=)).bpf.o)

# What make install copies, built and nothing more (debian/rules builds this).
installable: $(BUILD)/bin/bpfsdk $(LOADER_LIB) $(LOADER_HTTP_LIB) $(LOADER_SO) $(GALLERY_OBJS)

# The pkg-config file, written at install time with that PREFIX and the
# library's version. libdw's and libelf's own .pc bring their dependencies
# (zlib, maybe zstd) to --static links; where they have none, the -l flags
# say them.
PC_PRIVATE_PC := $(shell pkg-config --exists libdw libelf zlib 2>/dev/null && echo y)
PC_SED := -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|; s|@INCLUDEDIR@|$(INCLUDEDIR)|' \
	  -e 's|@BPF_INCLUDEDIR@|$(BPF_INCLUDEDIR)|; s|@VERSION@|$(LIB_VERSION)|' \
	  -e 's|@BINDIR@|$(BINDIR)|' \
	  -e 's|@REQUIRES_PRIVATE@|$(if $(PC_PRIVATE_PC),libdw libelf zlib,)|' \
	  -e 's|@LIBS_PRIVATE@|$(if $(PC_PRIVATE_PC),,$(LDLIBS_ELF))|'

install: installable
	$(msg) INSTALL $(DESTDIR)$(PREFIX)
	$(Q)install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR) $(DESTDIR)$(BPF_INCLUDEDIR)/bpf \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(MANDIR)/man3 $(DESTDIR)$(BPFOBJDIR) \
		$(DESTDIR)$(SYSTEMDUNITDIR)
	$(Q)install -m 755 $(BUILD)/bin/bpfsdk $(DESTDIR)$(BINDIR)/bpfsdk
	$(Q)install -m 644 $(LOADER_LIB) $(DESTDIR)$(LIBDIR)/libbpfsdk.a
	$(Q)install -m 644 $(LOADER_HTTP_LIB) $(DESTDIR)$(LIBDIR)/libbpfsdk-http.a
	$(Q)install -m 755 $(LOADER_SO_REAL) $(DESTDIR)$(LIBDIR)/$(notdir $(LOADER_SO_REAL))
	$(Q)ln -sf $(notdir $(LOADER_SO_REAL)) $(DESTDIR)$(LIBDIR)/$(notdir $(LOADER_SO))
	$(Q)ln -sf $(notdir $(LOADER_SO)) $(DESTDIR)$(LIBDIR)/libbpfsdk.so
	$(Q)sed $(PC_SED) loader/bpfsdk.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/bpfsdk.pc
	$(Q)chmod 644 $(DESTDIR)$(PKGCONFIGDIR)/bpfsdk.pc
	$(Q)install -m 644 loader/bpfsdk.h $(DESTDIR)$(INCLUDEDIR)/bpfsdk.h
	$(Q)install -m 644 loader/http/bpfsdk_http.h $(DESTDIR)$(INCLUDEDIR)/bpfsdk_http.h
	$(Q)install -m 644 $(SDK_HEADERS) $(DESTDIR)$(BPF_INCLUDEDIR)/bpf/
	$(Q)install -m 644 docs/man/bpfsdk.8 $(DESTDIR)$(MANDIR)/man8/bpfsdk.8
	$(Q)install -m 644 docs/man/bpfsdk.3 $(DESTDIR)$(MANDIR)/man3/bpfsdk.3
	$(Q)install -m 644 $(GALLERY_OBJS) $(DESTDIR)$(BPFOBJDIR)/
	$(Q)sed 's|@BINDIR@|$(BINDIR)|' loader/systemd/bpfsdk-run@.service.in \
		> '$(DESTDIR)$(SYSTEMDUNITDIR)/bpfsdk-run@.service'
	$(Q)chmod 644 '$(DESTDIR)$(SYSTEMDUNITDIR)/bpfsdk-run@.service'

uninstall:
	$(msg) UNINSTALL $(DESTDIR)$(PREFIX)
	$(Q)rm -f $(DESTDIR)$(BINDIR)/bpfsdk \
		$(DESTDIR)$(LIBDIR)/libbpfsdk.a $(DESTDIR)$(LIBDIR)/libbpfsdk.so \
		$(DESTDIR)$(LIBDIR)/libbpfsdk-http.a \
		$(DESTDIR)$(LIBDIR)/$(notdir $(LOADER_SO)) \
		$(DESTDIR)$(LIBDIR)/$(notdir $(LOADER_SO_REAL)) \
		$(DESTDIR)$(PKGCONFIGDIR)/bpfsdk.pc $(DESTDIR)$(INCLUDEDIR)/bpfsdk.h \
		$(DESTDIR)$(INCLUDEDIR)/bpfsdk_http.h \
		$(addprefix $(DESTDIR)$(BPF_INCLUDEDIR)/bpf/,$(notdir $(SDK_HEADERS))) \
		$(DESTDIR)$(MANDIR)/man8/bpfsdk.8 $(DESTDIR)$(MANDIR)/man3/bpfsdk.3 \
		$(addprefix $(DESTDIR)$(BPFOBJDIR)/,$(notdir $(GALLERY_OBJS))) \
		'$(DESTDIR)$(SYSTEMDUNITDIR)/bpfsdk-run@.service'
	$(Q)rmdir $(DESTDIR)$(BPF_INCLUDEDIR)/bpf $(DESTDIR)$(BPF_INCLUDEDIR) \
		$(DESTDIR)$(BPFOBJDIR) 2>/dev/null || true

.PHONY: install installable uninstall
