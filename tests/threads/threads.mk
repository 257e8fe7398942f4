# tests/threads/ - the library from 8 threads at once (threads.c).
#
#   make test-tsan   threads.c and the library built with ThreadSanitizer,
#                    8 threads x 50 rounds; fails on any report
#   make test runs the plain build, 8 threads x 5 rounds (faults.bats)

THREADS_BIN  := $(BUILD)/tests/threads/threads
TSAN_DIR     := $(BUILD)/tsan
TSAN_FLAGS   := -g -O1 -fno-omit-frame-pointer -fsanitize=thread
TSAN_OBJS    := $(patsubst %.c,$(TSAN_DIR)/obj/%.o,$(LOADER_SRCS) tests/threads/threads.c)

$(THREADS_BIN): $(BUILD)/obj/tests/threads/threads.o $(LOADER_LIB)
	$(msg) LINK $@
	@mkdir -p $(@D)
	$(Q)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LOADER_LIB) $(LDLIBS_ELF) -lpthread
$(eval $(call user_object,tests/threads/threads.c))

$(TSAN_DIR)/obj/%.o: %.c | $(BUILD)/.deps-ok
	$(msg) CC $@
	@mkdir -p $(@D)
	$(Q)$(CLANG) $(CPPFLAGS) -std=gnu11 -D_GNU_SOURCE -Wall $(TSAN_FLAGS) -c $< -o $@

.SECONDARY: $(TSAN_OBJS)
-include $(wildcard $(TSAN_DIR)/obj/*/*.d $(TSAN_DIR)/obj/*/*/*.d $(TSAN_DIR)/obj/*/*/*/*.d)

$(TSAN_DIR)/threads: $(TSAN_OBJS)
	$(msg) LINK $@
	$(Q)$(CLANG) $(TSAN_FLAGS) -o $@ $^ $(LDLIBS_ELF) -lpthread

test-programs: $(THREADS_BIN)

test-tsan: $(TSAN_DIR)/threads $(BUILD)/bpf/tests/threads.bpf.o
	$(Q)TSAN_OPTIONS=halt_on_error=1:exitcode=66 $(TSAN_DIR)/threads \
		$(BUILD)/bpf/tests/threads.bpf.o 8 50 >$(TSAN_DIR)/threads.log 2>&1; \
	rc=$$?; cat $(TSAN_DIR)/threads.log; \
	if [ $$rc -ne 0 ] || grep -q ThreadSanitizer $(TSAN_DIR)/threads.log; then \
		echo "error: threads under ThreadSanitizer: exit $$rc (log: $(TSAN_DIR)/threads.log)" >&2; \
		exit 1; \
	fi; echo "  ok      8 threads x 50 rounds under ThreadSanitizer: no report"

.PHONY: test-tsan
