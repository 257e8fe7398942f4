# loader/ - the library and the bpfsdk CLI. The library's sources are in one
# folder per layer (LOADER_LAYERS, lowest first); loader/cli/ is the tool.
#
#   build/lib/libbpfsdk.a        the static library: one relocatable object in
#                                which every global symbol but the bsdk_* API
#                                is made local, so the library's internal
#                                names (btf_parse, read_file...) never clash
#                                with a user's; beside it the objects a tool
#                                may not want (LOADER_APART)
#   build/lib/libbpfsdk.so.MAJOR the shared library (soname libbpfsdk.so.MAJOR),
#                                exporting only bsdk_* (loader/libbpfsdk.map)
#   build/lib/libbpfsdk-internal.a
#                                the objects as compiled, internal names
#                                global: for the unit tests that call them
#   build/lib/libbpfsdk-core.a   the minimal core alone, no extension
#
# The public API is what bpfsdk.h declares: the header gives it default
# visibility, and the library is compiled -fvisibility=hidden so everything
# else stays inside (and -fPIC so the same objects make both libraries).

# The version, from one place: the first line of debian/changelog, which
# the packages (make deb) take theirs from too.
BSDK_LP := (
BSDK_RP := )
LIB_VERSION := $(firstword $(subst $(BSDK_RP), ,$(word 2,$(subst $(BSDK_LP), ,$(shell head -n1 debian/changelog)))))
LIB_MAJOR   := $(firstword $(subst ., ,$(LIB_VERSION)))

# The minimal core: the layers a learner reads first (libbpfsdk-core.a).
LOADER_CORE_LAYERS := base format object attach channel
# Every layer, lowest first: the core's, with the CO-RE engine between the
# file formats and the object model, then what extends the core: options,
# suggestions and the end of a tool's main for tools (tool/), the other
# attach points (hooks/), the ring buffer and the perf buffer's wakeup
# policy and ordered merge (rings/); the extensions that hook into the
# object, one room each (ext/ROOM/), then ext/ itself, which registers
# their passes; and the readers of a loaded object that hook into nothing
# (readers/ROOM/: printing, record types, metrics). A room is a layer:
# it uses the rooms listed before it, never one after (make check-layers).
LOADER_LAYERS := base format co-re object attach channel tool hooks rings \
		 ext/btf ext/co-re ext/externs ext/usdt ext/maps ext/info ext/hints \
		 ext/policy ext readers/print readers/records readers/metrics
LOADER_SRCS := $(sort $(foreach l,$(LOADER_LAYERS),$(wildcard loader/$(l)/*.c)))
LOADER_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LOADER_SRCS))
LOADER_LIB  := $(BUILD)/lib/libbpfsdk.a
LOADER_LIB_INTERNAL := $(BUILD)/lib/libbpfsdk-internal.a
LOADER_SO_REAL := $(BUILD)/lib/libbpfsdk.so.$(LIB_VERSION)
LOADER_SO   := $(BUILD)/lib/libbpfsdk.so.$(LIB_MAJOR)

OBJCOPY ?= objcopy

$(foreach s,$(LOADER_SRCS),$(eval $(call user_object,$(s))))
$(LOADER_OBJS): CFLAGS += -fPIC -fvisibility=hidden

$(LOADER_LIB_INTERNAL): $(LOADER_OBJS) loader/loader.mk
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

# ld -r resolves the references between the library's objects; then the
# hidden symbols (everything bpfsdk.h does not declare) become local.
# LOADER_APART stay members of their own, so that a static link takes them
# only when the program calls them: the metrics listener, whose
# getaddrinfo() makes glibc warn in every -static link that has it. The
# few internal names they call (bsdk_log) stay global in the prelinked
# object, under the library's prefix.
LOADER_APART := $(BUILD)/obj/loader/readers/metrics/metrics_listen.o
LOADER_APART_LIB := $(patsubst $(BUILD)/obj/loader/%,$(BUILD)/obj/loader/apart/%,$(LOADER_APART))

$(BUILD)/obj/loader/libbpfsdk.o: $(LOADER_OBJS) loader/loader.mk
	$(msg) LD $@
	$(Q)$(LD) -r -o $@ $(filter-out $(LOADER_APART),$(filter %.o,$^))
	$(Q)$(OBJCOPY) --localize-hidden $@
	$(Q)$(OBJCOPY) $$(nm -u --format=just-symbols $(LOADER_APART) | sort -u | \
		sed 's/^/--globalize-symbol=/') $@

$(LOADER_APART_LIB): $(BUILD)/obj/loader/apart/%: $(BUILD)/obj/loader/%
	@mkdir -p $(@D)
	$(Q)$(OBJCOPY) --localize-hidden $< $@

$(LOADER_LIB): $(BUILD)/obj/loader/libbpfsdk.o $(LOADER_APART_LIB)
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

$(LOADER_SO_REAL): $(LOADER_OBJS) loader/libbpfsdk.map
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(notdir $(LOADER_SO)) \
		-Wl,--version-script=loader/libbpfsdk.map -Wl,--no-undefined \
		-o $@ $(LOADER_OBJS) $(LDLIBS_ELF)

$(LOADER_SO): $(LOADER_SO_REAL)
	$(Q)ln -sf $(notdir $<) $@
	$(Q)ln -sf $(notdir $<) $(BUILD)/lib/libbpfsdk.so

all: $(LOADER_LIB_INTERNAL) $(LOADER_SO)

# libbpfsdk-core.a: the minimal core a learner reads first, built alone:
# the core's layers (LOADER_CORE_LAYERS), so with no pass registered
# (object/pass.c) and none of co-re/: maps (BTF and legacy), relocation of
# maps, data and subprograms, load with the verifier's story, tracepoint,
# raw tracepoint and kprobe attach, the perf buffer and the poll loop. Its
# undefined symbols are libc's, libelf's and zlib's (tests/bats/core.bats);
# the 2015 lesson's core version links against it alone
# (trace_output-core, samples/trace_output/sample.mk). The same objects as
# libbpfsdk-internal.a, internal names global.
LOADER_CORE_SRCS := $(sort $(foreach l,$(LOADER_CORE_LAYERS),$(wildcard loader/$(l)/*.c)))
LOADER_CORE_LIB  := $(BUILD)/lib/libbpfsdk-core.a

# (loader.mk too: a file that leaves a layer leaves the archive.)
$(LOADER_CORE_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(LOADER_CORE_SRCS)) loader/loader.mk
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $(filter %.o,$^)

all: $(LOADER_CORE_LIB)

# libbpfsdk-http.a: the metrics server (loader/http/), on the library's
# public API and libmicrohttpd, for the programs that serve metrics only;
# the library itself never needs libmicrohttpd.
LOADER_HTTP_SRCS := $(sort $(wildcard loader/http/*.c))
LOADER_HTTP_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LOADER_HTTP_SRCS))
LOADER_HTTP_LIB  := $(BUILD)/lib/libbpfsdk-http.a
LDLIBS_HTTP      := $(LOADER_HTTP_LIB) -lmicrohttpd -lgnutls -lyaml -lcrypt -lz

$(foreach s,$(LOADER_HTTP_SRCS),$(eval $(call user_object,$(s))))
$(LOADER_HTTP_OBJS): CFLAGS += -fPIC -fvisibility=hidden
$(LOADER_HTTP_OBJS): loader/loader.mk

# As the library: one object, in which what bpfsdk_http.h does not declare
# (the names its files share) becomes local.
$(BUILD)/obj/loader/libbpfsdk-http.o: $(LOADER_HTTP_OBJS)
	$(msg) LD $@
	$(Q)$(LD) -r -o $@ $^
	$(Q)$(OBJCOPY) --localize-hidden $@

$(LOADER_HTTP_LIB): $(BUILD)/obj/loader/libbpfsdk-http.o
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

all: $(LOADER_HTTP_LIB)

# One folder per command (run/, inspect/, gen/), what they share in common/,
# and main.c, the dispatcher, above them.
CLI_SRCS := $(sort $(wildcard loader/cli/*.c loader/cli/*/*.c loader/cli/*/*/*.c))
# bpfsdk --version says LIB_VERSION; a new version rebuilds main.o.
$(BUILD)/obj/loader/cli/main.o: CPPFLAGS += -DBPFSDK_VERSION='"$(LIB_VERSION)"'
$(BUILD)/obj/loader/cli/main.o: debian/changelog
ifneq ($(CLI_SRCS),)
$(eval $(call user_program,bpfsdk,$(CLI_SRCS),$(LDLIBS_HTTP)))
$(BUILD)/bin/bpfsdk: $(LOADER_HTTP_LIB)
endif

# make check-layers: no layer uses a symbol or a header of a layer above it
# (LOADER_LAYERS, lowest first, then TOP_LAYERS); tools/check-layers reads
# the objects' nm and the compiler's dependency files. tests/bats/layers.bats
# runs it in make test.
CLI_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(CLI_SRCS))

# Above the library's layers: the metrics server, on the public API, then
# the tool: the pieces its commands share, each command, the dispatcher.
TOP_LAYERS := http cli/common cli/gen cli/inspect cli/run/show cli/run cli

check-layers: $(LOADER_OBJS) $(LOADER_HTTP_OBJS) $(CLI_OBJS)
	$(Q)tools/check-layers $(BUILD)/obj/loader $(LOADER_LAYERS) $(TOP_LAYERS)

# make check-sizes: no file over 700 lines, no function over 80, in the
# library, the tool and the samples' user side (tools/check-sizes);
# tests/bats/layers.bats runs it in make test.
check-sizes:
	$(Q)tools/check-sizes

.PHONY: check-layers check-sizes
