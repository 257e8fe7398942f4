# include/ - the header-only SDK. Nothing to build; checks only. The
# headers are tested by tests/bats/headers.bats; docs/headers.md says how to
# use them.

HELPER_DEFS     := include/bpf/bpf_helper_defs.h
UAPI_BPF_H      ?= /usr/include/linux/bpf.h

# Regenerate the helper declarations from the installed UAPI header and fail
# on any difference from the checked-in copy.
check-headers:
	$(msg) GEN $(BUILD)/bpf_helper_defs.h
	@mkdir -p $(BUILD)
	$(Q)tools/gen-helper-defs $(UAPI_BPF_H) > $(BUILD)/bpf_helper_defs.h
	$(Q)if diff -u $(HELPER_DEFS) $(BUILD)/bpf_helper_defs.h; then \
		echo "  OK      $(HELPER_DEFS) matches $(UAPI_BPF_H)"; \
	else \
		echo "error: $(HELPER_DEFS) differs from what tools/gen-helper-defs makes of $(UAPI_BPF_H); run 'make update-headers'" >&2; \
		exit 1; \
	fi

# Rewrite the checked-in copy, after a kernel header update or a change to
# tools/helper-summaries; a failing generator leaves it untouched.
update-headers:
	$(msg) GEN $(HELPER_DEFS)
	$(Q)tools/gen-helper-defs $(UAPI_BPF_H) > $(HELPER_DEFS).tmp || \
		{ rm -f $(HELPER_DEFS).tmp; exit 1; }
	$(Q)mv $(HELPER_DEFS).tmp $(HELPER_DEFS)

.PHONY: update-headers
