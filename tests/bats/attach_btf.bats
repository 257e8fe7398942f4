#!/usr/bin/env bats
# Attach points found through kernel BTF, on the running kernel: a
# tp_btf/ program records an exec with the tracepoint's typed argument,
# an iter/task program's output is read by `bpfsdk run` to the end, and
# where the kernel refuses fentry, fexit and lsm programs (this host) they
# are left out with the kernel's reason, one line each.

load cli_common

setup() {
	cli_setup
}

teardown() {
	cli_teardown
	[ -n "${EXEC_PID:-}" ] && kill "$EXEC_PID" 2>/dev/null
	return 0
}

@test "tp_btf: sched_process_exec records the exec of a known pid, with its new name" {
	rm -f "$GO"
	# the pid stays across exec: the test knows it before the exec
	bash -c 'while [ ! -e "$1" ]; do sleep 0.05; done; exec "$2" 0' _ "$GO" "$(command -v sleep)" &
	EXEC_PID=$!
	start_run --set target_pid="$EXEC_PID" --count 1 "$OBJS/attach_tp_btf.bpf.o"
	grep -q "program 'on_exec': attached to tp_btf 'sched_process_exec'" "$ERR" ||
		fail "not attached: $(cat "$ERR")"
	go
	wait_run
	pid=$EXEC_PID
	wait "$EXEC_PID"
	EXEC_PID=
	expect_eq "$RUN_STATUS" 0 "exit status"
	# { u32 tgid, u32 old_pid, char comm[16] } = 24 bytes, 28 with the padding
	expect_records 1 28
	line=$(cat "$OUT")
	expect_eq "$(field "$line" 0 4)" "$pid" "tgid in '$line'"
	expect_eq "$(field "$line" 4 4)" "$pid" "old_pid, the tracepoint's argument, in '$line'"
	expect_eq "$(cstr "$line" 8 16)" sleep "comm after the exec in '$line'"
}

# task_struct_offset FIELD: the byte offset of FIELD in struct task_struct,
# from the kernel's BTF.
task_struct_offset() {
	bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
		awk -v f="'$1'" '/^\[[0-9]+\] STRUCT .task_struct. / { s = 1; next }
			s && /^\[/ { exit }
			s && $1 == f { sub("bits_offset=", "", $3); print $3 / 8; exit }'
}

@test "iter/task: run reads the iterator to the end, and this shell is in it" {
	command -v bpftool >/dev/null || skip "no bpftool to read task_struct's layout"
	pid_off=$(task_struct_offset pid)
	comm_off=$(task_struct_offset comm)
	[ -n "$pid_off" ] && [ -n "$comm_off" ] || fail "no task_struct.pid/comm in the kernel's BTF"
	run timeout 60 "$BPFSDK" run -v --set pid_off="$pid_off" --set comm_off="$comm_off" \
		"$OBJS/attach_iter.bpf.o"
	echo "$output" | head -20
	expect_eq "$status" 0 "exit status"
	assert_line "program 'dump_task': attached to iter 'task'"
	# one line per task, "PID COMM": this test's shell, and kthreadd
	assert_line "$$ $(cat /proc/$$/comm)"
	assert_line "2 kthreadd"
	# it ended by itself: no streaming, no summary
	refute_line --regexp '^streaming:'
	n=$(grep -cE '^[0-9]+ ' <<<"$output")
	[ "$n" -ge 10 ] || fail "only $n tasks"
}

@test "fentry, fexit, lsm refused by this kernel: left out with its reason, one line each" {
	run timeout 60 "$BPFSDK" run --duration 1 "$OBJS/attach_kernel_fn.bpf.o"
	echo "$output"
	grep -q "refuses fentry" <<<"$output" || skip "this kernel loads fentry programs (see the VM suite)"
	o="'$OBJS/attach_kernel_fn.bpf.o'"
	assert_line --regexp "^warning: $o: program 'on_fentry' \(section 'fentry/do_unlinkat'\): left out: this kernel refuses fentry programs at 'do_unlinkat': "
	assert_line --regexp "^warning: $o: program 'on_fexit' \(section 'fexit/do_unlinkat'\): left out: this kernel refuses fexit programs at 'do_unlinkat': "
	assert_line --regexp "^warning: $o: program 'on_lsm' \(section 'lsm/inode_unlink'\): left out: this kernel refuses lsm programs at 'inode_unlink': "
	# one line per program left out; nothing attached is the one error
	expect_eq "$(grep -c "^warning: $o: program '" <<<"$output")" 9 "warning lines"
	expect_eq "$status" 1 "exit status"
	assert_line "error: $o: no program this kernel can attach"
}

@test "a BTF target the kernel does not have is left out before loading" {
	run timeout 60 "$BPFSDK" inspect "$OBJS/attach_missing.bpf.o"
	assert_success
	assert_line "  program 'on_nothing' (section 'tp_btf/bpfsdk_no_such_tracepoint'): 'bpfsdk run' will leave it out: tp_btf target 'bpfsdk_no_such_tracepoint' is not in the kernel's BTF (no typedef 'btf_trace_bpfsdk_no_such_tracepoint')"
	assert_line "  program 'on_no_func' (section 'fentry/bpfsdk_no_such_function'): 'bpfsdk run' will leave it out: fentry target 'bpfsdk_no_such_function' is not in the kernel's BTF (no function 'bpfsdk_no_such_function')"
	run timeout 60 "$BPFSDK" run -v --require-all --duration 1 "$OBJS/attach_missing.bpf.o"
	expect_eq "$status" 1 "exit status"
	assert_line --regexp "^error: '.*attach_missing\.bpf\.o': program 'on_nothing' \(section 'tp_btf/bpfsdk_no_such_tracepoint'\): cannot attach: tp_btf target"
	refute_output --partial "loaded ("
}
