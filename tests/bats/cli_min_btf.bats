#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bpfsdk gen min-btf: the part of a kernel's BTF that objects' CO-RE
# relocations read, as a file of a few hundred bytes. Every relocation of
# the objects resolves against it as against the full BTF (compared here
# value by value through inspect --json), and run --btf with it reads the
# kernel's own values. In the test VM's pass without BTF (tests/vm/run
# --hide-btf: /sys/kernel/btf is an empty directory there), the full BTF is
# a copy init kept aside, as a tool's shipped archive would hold it, and
# the same file is what lets the objects run at all.

load cli_common

setup() {
	cli_setup
	# the kernel's full BTF: the running kernel's, or where the VM's init
	# put it before hiding /sys/kernel/btf
	FULL=/sys/kernel/btf/vmlinux
	[ -n "${BPFSDK_VM_NO_BTF:-}" ] && FULL=${BPFSDK_VM_FULL_BTF:-}
	[ -n "$FULL" ] && [ -r "$FULL" ] || skip "no kernel BTF to take the types from"
	MIN="$BATS_TEST_TMPDIR/min.btf"
}

teardown() {
	cli_teardown
}

# relos OBJ [--btf FILE]: one line per CO-RE relocation: program, instruction,
# kind, what it reads, state and value
relos() {
	local obj=$1
	shift
	"$BPFSDK" inspect --json "$@" "$obj" |
		jq -r '.programs[] | .name as $p | .core_relocations[] |
			"\($p) \(.insn) \(.kind) \(.spec) \(.state) \(.value)"'
}

@test "gen min-btf: a few hundred bytes, and every relocation resolves as against the full BTF" {
	command -v jq >/dev/null || skip "no jq"
	run "$BPFSDK" gen min-btf --btf "$FULL" -o "$MIN" "$OBJS/co_re_flavour.bpf.o" "$OBJS/co_re_sizes.bpf.o" \
		"$BUILD/bpf/execsnoop.bpf.o"
	assert_success
	assert_output --regexp "^wrote '$MIN': [0-9]+ types, [0-9]+ bytes, of the [0-9]+ of $FULL; [0-9]+ CO-RE relocations of 3 objects resolve to the same values against both$"
	size=$(stat -c %s "$MIN")
	[ "$size" -lt 4096 ] || fail "the minimal BTF has $size bytes"
	# the file is BTF another reader takes too, and has task_struct cut down
	run bpftool btf dump file "$MIN"
	assert_success
	assert_line --regexp "^\[[0-9]+\] STRUCT 'task_struct' size=[0-9]+ vlen=[0-9]+$"
	full_size=$(bpftool btf dump file "$FULL" | sed -n "s/^\[[0-9]*\] STRUCT 'task_struct' size=\([0-9]*\) .*/\1/p")
	assert_line --regexp "^\[[0-9]+\] STRUCT 'task_struct' size=$full_size "
	for obj in "$OBJS/co_re_flavour.bpf.o" "$OBJS/co_re_sizes.bpf.o" "$BUILD/bpf/execsnoop.bpf.o"; do
		want=$(relos "$obj" --btf "$FULL")
		got=$(relos "$obj" --btf "$MIN")
		[ -n "$want" ] || fail "no CO-RE relocation in $obj"
		[ "$got" = "$want" ] || fail "$obj: against the full BTF:
$want
against the minimal one:
$got"
	done
}

@test "gen min-btf: run --btf with the file reads the kernel's pid, tgid and parent, enum values and sizes" {
	run "$BPFSDK" gen min-btf --btf "$FULL" -o "$MIN" "$OBJS/co_re_flavour.bpf.o"
	assert_success
	start_trigger getpgid 1 1
	parent=$(awk '/^PPid:/ { print $2 }' "/proc/$TRIGGER_PID/status")
	start_run --btf "$MIN" --set target_pid="$TRIGGER_PID" --count 1 "$OBJS/co_re_flavour.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 1 68
	rec=$(cat "$OUT")
	expect_eq "$(field "$rec" 0 4)" "$TRIGGER_PID" "task->pid through the file's offsets"
	expect_eq "$(field "$rec" 4 4)" "$TRIGGER_PID" "task->tgid"
	expect_eq "$(field "$rec" 16 4)" "$parent" "task->real_parent->tgid"
	expect_eq "$(field "$rec" 20 4)" 1 "bpf_core_field_exists(task->pid)"
	expect_eq "$(field "$rec" 24 4)" 0 "bpf_core_field_exists(task->nope)"
	expect_eq "$(field "$rec" 32 8)" 1 "PIDTYPE_TGID"
	expect_eq "$(field "$rec" 44 4)" 1 "struct task_struct exists"
	expect_eq "$(field "$rec" 52 4)" 4 "sizeof task->pid"
}

@test "gen min-btf: the gallery's execsnoop object runs on the file, without the kernel's BTF" {
	run "$BPFSDK" gen min-btf --btf "$FULL" -o "$MIN" "$BUILD/bpf/execsnoop.bpf.o"
	assert_success
	if [ -n "${BPFSDK_VM_NO_BTF:-}" ]; then
		# without the file, the kernel has no BTF to give: the load says so
		run "$BPFSDK" run --duration 1 "$BUILD/bpf/execsnoop.bpf.o"
		assert_failure 1
		assert_output --partial "/sys/kernel/btf/vmlinux"
	fi
	tag="minbtf-$$-$RANDOM"
	start_run --btf "$MIN" --duration 6 "$BUILD/bpf/execsnoop.bpf.o"
	/bin/sh -c "exec /bin/echo $tag" >/dev/null
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	# the records are hex: the exec's argument, in the record of its execve
	hex=$(printf '%s' "$tag" | od -An -tx1 | tr -d ' \n')
	grep -q "$hex" "$OUT" || fail "no record with the argument '$tag' ($hex): $(cat "$ERR")"
}

@test "gen min-btf: what it cannot do is said, and nothing is left behind" {
	run "$BPFSDK" gen min-btf "$OBJS/co_re_flavour.bpf.o"
	assert_failure 2
	assert_output "error: min-btf: say where to write the BTF with -o FILE (try 'bpfsdk gen --help')"
	run "$BPFSDK" gen min-btf -o "$MIN"
	assert_failure 2
	# one option table for both forms: each refuses the other's options
	run "$BPFSDK" gen min-btf --name x -o "$MIN" "$OBJS/co_re_flavour.bpf.o"
	assert_failure 2
	assert_output "error: '--name' is for gen skeleton (try 'bpfsdk gen --help')"
	run "$BPFSDK" gen skeleton --btf "$FULL" "$OBJS/co_re_flavour.bpf.o"
	assert_failure 2
	assert_output "error: '--btf' is for gen min-btf (try 'bpfsdk gen --help')"
	run "$BPFSDK" gen min-btf --btf /nonexistent/vmlinux -o "$MIN" "$OBJS/co_re_flavour.bpf.o"
	assert_failure 1
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line: $output"
	[ ! -e "$MIN" ] || fail "a file was written"
	# runqlat attaches by BTF IDs of the kernel's own: said, and its CO-RE still served
	run "$BPFSDK" gen min-btf --btf "$FULL" -o "$MIN" "$BUILD/bpf/runqlat.bpf.o"
	assert_success
	assert_line "warning: '$BUILD/bpf/runqlat.bpf.o': program 'switch_in' (tp_btf/sched_switch) attaches by a type ID of the kernel's own BTF, which a kernel without BTF cannot give: not in the minimal BTF"
}
