# loader/ - the library (build/lib/libbpfsdk.a) and the bpfsdk CLI.

LOADER_SRCS := $(sort $(wildcard loader/*.c))
LOADER_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LOADER_SRCS))
LOADER_LIB  := $(BUILD)/lib/libbpfsdk.a

$(foreach s,$(LOADER_SRCS),$(eval $(call user_object,$(s))))

$(LOADER_LIB): $(LOADER_OBJS)
	$(msg) AR $@
	@mkdir -p $(@D)
	$(Q)rm -f $@ && $(AR) rcs $@ $^

CLI_SRCS := $(sort $(wildcard loader/cli/*.c))
ifneq ($(CLI_SRCS),)
$(eval $(call user_program,bpfsdk,$(CLI_SRCS)))
endif
