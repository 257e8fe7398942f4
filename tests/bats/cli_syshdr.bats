#!/usr/bin/env bats
# An object written against the system's libbpf headers (libbpf-dev's
# <bpf/bpf_helpers.h>), compiled here without bpfsdk's -Iinclude, loads and
# runs with bpfsdk run: the loader takes what libbpf users write.

load cli_common

setup() {
	cli_setup
	command -v clang >/dev/null || fail "clang is not installed (tools/setup)"
	[ -f /usr/include/bpf/bpf_helpers.h ] ||
		fail "/usr/include/bpf/bpf_helpers.h is missing (install libbpf-dev)"
}

teardown() {
	cli_teardown
}

# The flags of the Makefile's BPF_CFLAGS minus -Iinclude.
build_with_system_headers() {
	local multiarch arch
	multiarch=$(cc -print-multiarch 2>/dev/null)
	case $(uname -m) in
	x86_64) arch=x86 ;;
	aarch64) arch=arm64 ;;
	*) arch=$(uname -m) ;;
	esac
	OBJ="$BATS_TEST_TMPDIR/cli_syshdr.bpf.o"
	clang -O2 -g -target bpf -D__TARGET_ARCH_$arch -Wall -Werror \
		${multiarch:+-idirafter /usr/include/$multiarch} \
		-MD -MF "$BATS_TEST_TMPDIR/deps" \
		-c tests/bpf/cli_syshdr.bpf.c -o "$OBJ"
}

@test "syshdr: the object is built from libbpf's headers, not ours" {
	build_with_system_headers
	run cat "$BATS_TEST_TMPDIR/deps"
	assert_output --partial /usr/include/bpf/bpf_helpers.h
	assert_output --partial /usr/include/bpf/bpf_helper_defs.h
	refute_output --regexp '(^| )include/bpf/bpf_helper'
}

@test "syshdr: bpfsdk run loads it and streams its records" {
	build_with_system_headers
	start_trigger getppid 4
	start_run --set target_pid="$TRIGGER_PID" --count 4 "$OBJ"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# { int pid, unsigned magic } = 8 bytes, 12 with the padding
	expect_records 4 12
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" $((0xfeedbeef)) "magic in '$line'"
	done <"$OUT"
}

@test "syshdr: bpfsdk inspect sees libbpf's map definition" {
	build_with_system_headers
	run "$BPFSDK" inspect "$OBJ"
	assert_success
	assert_line --regexp '^license  Dual BSD/GPL \(GPL-compatible\)$'
	assert_line --regexp '^  events +perf_event_array +4 +4 +0 +\.maps$'
	assert_line --regexp '^  handle_getppid +tp/syscalls/sys_enter_getppid +tracepoint +syscalls/sys_enter_getppid +[0-9]+'
}
