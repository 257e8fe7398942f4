#!/usr/bin/env bats
# fentry, fexit, fmod_ret, lsm, lsm.s (sleepable), kprobe, kretprobe,
# ksyscall and kretsyscall programs
# on the unlink path (tests/bpf/attach_kernel_fn.bpf.c), attached by one
# `bpfsdk run`; a process the suite knows by pid unlinks a file with
# unlinkat(2), and each kind's record must carry that pid and the file's
# name or the call's result. Runs in the VM (tests/vm/suites). A kind this
# kernel cannot attach is left out by the run, with the kernel's reason,
# and its test skips with that reason; the others still run (this host
# attaches none of them; attach_btf.bats checks how they are left out).

load cli_common

setup_file() {
	BUILD=${BUILD:-build}
	local bpfsdk=$BUILD/bin/bpfsdk obj=$BUILD/bpf/tests/attach_kernel_fn.bpf.o
	local dir=$BATS_FILE_TMPDIR go=$BATS_FILE_TMPDIR/go victim=attach_victim_$$
	: >"$dir/$victim"
	# where the kernel lists its active LSMs: the run says when the BPF LSM is not among them
	mountpoint -q /sys/kernel/security || mount -t securityfs securityfs /sys/kernel/security 2>/dev/null || true
	# the unlinker, waiting for go: its pid is what the records must carry
	python3 -c '
import os, sys, time
d, go, name = sys.argv[1:]
while not os.path.exists(go):
    time.sleep(0.05)
fd = os.open(d, os.O_RDONLY)
os.unlink(name, dir_fd=fd)    # unlinkat(fd, name, 0)
' "$dir" "$go" "$victim" &
	local unlinker=$!
	"$bpfsdk" run -v --format hex --all-twins --set target_pid="$unlinker" --duration 300 \
		"$obj" >"$dir/records" 2>"$dir/stderr" &
	local run=$!
	# TCG is slow: loading nine programs against the kernel's BTF takes a while
	wait_streaming "$dir/stderr" "$run" || true
	touch "$go"
	# one record per program attached (but an LSM hook that does not run), then Ctrl-C
	local attached idle
	attached=$(sed -n 's/^streaming: \([0-9]*\) programs\{0,1\} attached.*/\1/p' "$dir/stderr")
	idle=$(grep -c "the hook will not run" "$dir/stderr") || true
	for _ in $(seq 1200); do
		[ -n "$attached" ] && [ "$(wc -l <"$dir/records")" -ge "$((attached - idle))" ] && break
		kill -0 "$run" 2>/dev/null || break
		sleep 0.1
	done
	kill -INT "$run" 2>/dev/null || true
	local status=0
	wait "$run" || status=$?
	echo "$status" >"$dir/status"
	echo "${attached:-0}" >"$dir/attached"
	kill "$unlinker" 2>/dev/null || true
	wait "$unlinker" || true
	echo "$unlinker" >"$dir/pid"
	echo "$victim" >"$dir/victim"
}

setup() {
	cli_setup
	dir=$BATS_FILE_TMPDIR
	OUT=$dir/records ERR=$dir/stderr
	echo "--- records:"; cat "$OUT"
	echo "--- stderr:"; cat "$ERR"
	attached=$(cat "$dir/attached")
	pid=$(cat "$dir/pid")
	victim=$(cat "$dir/victim")
}

# need PROGRAM: skip, with the kernel's reason, when the run left it out, or
# attached it to an LSM hook that does not run (the BPF LSM not active).
need() {
	local why
	why=$(grep -m1 -E "program '$1'[: ].*(left out|cannot attach|the hook will not run)" "$ERR") || true
	[ -z "$why" ] || skip "this kernel cannot run it: $why"
	[ "$attached" -gt 0 ] || skip "this kernel attaches none of these kinds: $(grep -m1 '^error:' "$ERR")"
}

# record KIND: the record of that kind (exactly one).
record() {
	local lines
	lines=$(while read -r line; do
		if [ "$(field "$line" 4 4)" = "$1" ]; then echo "$line"; fi
	done <"$OUT")
	expect_eq "$(grep -c . <<<"$lines")" 1 "records of kind $1"
	# { u32 pid, u32 kind, s64 ret, char path[48] } = 64 bytes, 68 padded
	# in the perf buffer, 64 in the ring buffer (CPU -1)
	read -r map cpu size _ <<<"$lines"
	if [ "$cpu" = -1 ]; then
		expect_eq "$map $size" "slow 64" "ring buffer record"
	else
		expect_eq "$map $size" "events 68" "perf buffer record"
	fi
	expect_eq "$(field "$lines" 0 4)" "$pid" "pid in '$lines'"
	echo "$lines"
}

@test "kernel functions: run attached the nine, less each one this kernel refused, and got one record from each" {
	[ "$attached" -gt 0 ] || skip "this kernel attaches none of these kinds: $(grep -m1 '^error:' "$ERR")"
	left=$(grep -cE "program 'on_[a-z_]*' .*(left out|cannot attach)" "$ERR") || true
	expect_eq "$((attached + left))" 9 "programs attached ($attached) and left out ($left)"
	expect_eq "$(cat "$dir/status")" 0 "exit status after Ctrl-C"
	# an LSM program attached where the BPF LSM is not active sends nothing, and the run says so
	idle=$(grep -c "the hook will not run" "$ERR") || true
	expect_eq "$(wc -l <"$OUT")" "$((attached - idle))" "records"
	grep -qx "received $((attached - idle)), lost 0" "$ERR" || fail "no 'received $((attached - idle)), lost 0'"
}

@test "fentry/do_unlinkat: the path from the kernel's struct filename" {
	need on_fentry
	r=$(record 1)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
}

@test "fexit/do_unlinkat: the path and the return value 0" {
	need on_fexit
	r=$(record 2)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}

@test "lsm/inode_unlink: the BPF LSM hook ran for the unlinker" {
	need on_lsm
	record 7 >/dev/null
}

@test "fmod_ret/security_inode_unlink: ran, and returning 0 let the unlink happen" {
	need on_fmod_ret
	record 8 >/dev/null
	[ ! -e "$dir/$victim" ] || fail "the file is still there"
}

@test "lsm.s/inode_unlink: the sleepable LSM program ran (its record in the ring buffer)" {
	need on_lsm_sleepable
	r=$(record 9)
	[[ $r == "slow -1 64 "* ]] || fail "not a ring buffer record: $r"
}

@test "kprobe/do_unlinkat: the path from the second argument's register" {
	need on_kprobe
	r=$(record 3)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
}

@test "kretprobe/do_unlinkat: the return value 0" {
	need on_kretprobe
	r=$(record 4)
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}

@test "ksyscall/unlinkat: a kprobe on the syscall's entry point (__x64_sys_unlinkat; __arm64_sys_unlinkat on arm64), the path from the user's registers" {
	need on_ksyscall
	r=$(record 5)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
	grep -q "program 'on_ksyscall': attached to ksyscall 'unlinkat'" "$ERR" || fail "not attached as ksyscall"
}

@test "kretsyscall/unlinkat: the system call's result 0" {
	need on_kretsyscall
	r=$(record 6)
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}

@test "a kprobe or ksyscall whose function the kernel lacks is left out before loading" {
	need on_kprobe	# where kprobes cannot attach at all, that is what inspect says
	run "$BPFSDK" inspect "$OBJS/attach_missing.bpf.o"
	assert_success
	assert_line "  program 'on_missing_fn' (section 'kprobe/bpfsdk_no_such_function'): 'bpfsdk run' will leave it out: kernel function 'bpfsdk_no_such_function' does not exist on this kernel (not in /proc/kallsyms)"
	# the syscall's entry symbol has the architecture's prefix
	local prefix=__x64_sys_
	[ "$(uname -m)" != aarch64 ] || prefix=__arm64_sys_
	assert_line "  program 'on_missing_syscall' (section 'ksyscall/bpfsdk_no_such_syscall'): 'bpfsdk run' will leave it out: kernel function '${prefix}bpfsdk_no_such_syscall' does not exist on this kernel (not in /proc/kallsyms)"
	refute_line --regexp "program 'on_unlinkat'.*will leave it out"
}

@test "a kprobe's function is found without /proc/kallsyms: in the kernel's BTF, or missing by the kernel's own answer" {
	need on_kprobe
	command -v unshare >/dev/null || skip "no unshare here to hide /proc/kallsyms from one command"
	local empty=$BATS_TEST_TMPDIR/kallsyms
	: >"$empty"
	# an empty /proc/kallsyms, in a mount namespace of this command alone: a check that needed
	# it would decide nothing, and leave the missing functions to fail at attach, after load
	run unshare -m sh -c 'mount --bind "$1" /proc/kallsyms && exec "$2" inspect "$3"' sh \
		"$empty" "$BPFSDK" "$OBJS/attach_missing.bpf.o"
	assert_success
	assert_line "  program 'on_missing_fn' (section 'kprobe/bpfsdk_no_such_function'): 'bpfsdk run' will leave it out: kernel function 'bpfsdk_no_such_function' does not exist on this kernel (not in /proc/kallsyms)"
	refute_line --regexp "program 'on_unlinkat'.*will leave it out"
}
