#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# A program built against the vmlinux.h of the kernel it runs on
# (tests/bpf-vmlinux/co_re_vmlinux.bpf.c): ksyscall, kprobe, fentry and
# kretprobe on what a process the suite knows by pid does (getpgid(4242),
# then opening a file with O_WRONLY|O_CREAT and mode 0640), each record
# checked value by value: the syscall's argument, the open's dfd, path,
# flags and mode, the descriptor it returned, the task's tgid and its
# parent's through CO-RE. make vmtest-arm64 builds the object against the
# arm64 kernel's vmlinux.h and runs this in the arm64 VM; elsewhere the
# object is not built and the suite skips.

load cli_common

setup_file() {
	BUILD=${BUILD:-build}
	local obj=$BUILD/bpf/tests/co_re_vmlinux.bpf.o dir=$BATS_FILE_TMPDIR
	[ -f "$obj" ] || return 0
	# the process the records must be of: waits for go, then the calls
	python3 -c '
import os, sys, time
d, go = sys.argv[1:]
os.chdir(d)
while not os.path.exists(go):
    time.sleep(0.05)
try:
    os.getpgid(4242)
except OSError:
    pass
fd = os.open("cv_victim", os.O_WRONLY | os.O_CREAT, 0o640)
with open("opened", "w") as f:
    f.write("%d %d\n" % (fd, os.getppid()))
time.sleep(600)
' "$dir" "$dir/go" &
	local proc=$!
	"$BUILD/bin/bpfsdk" run -v --format hex --all-twins --set target_pid="$proc" --duration 300 \
		"$obj" >"$dir/records" 2>"$dir/stderr" &
	local run=$!
	wait_streaming "$dir/stderr" "$run" || true
	touch "$dir/go"
	local attached
	attached=$(sed -n 's/^streaming: \([0-9]*\) programs\{0,1\} attached.*/\1/p' "$dir/stderr")
	for _ in $(seq 1200); do
		[ -n "$attached" ] && [ "$(wc -l <"$dir/records")" -ge "$attached" ] &&
			[ -s "$dir/opened" ] && break
		kill -0 "$run" 2>/dev/null || break
		sleep 0.1
	done
	kill -INT "$run" 2>/dev/null || true
	wait "$run" || true
	kill "$proc" 2>/dev/null || true
	wait "$proc" 2>/dev/null || true
	echo "$proc" >"$dir/pid"
	echo "${attached:-0}" >"$dir/attached"
}

setup() {
	BUILD=${BUILD:-build}
	if [ ! -f "$BUILD/bpf/tests/co_re_vmlinux.bpf.o" ]; then
		# in the arm64 VM the object is what this suite is for
		[ "$(uname -m)" != aarch64 ] || [ "${BPFSDK_VM:-}" != 1 ] ||
			fail "$BUILD/bpf/tests/co_re_vmlinux.bpf.o is not built (make vmtest-arm64 builds it)"
		skip "co_re_vmlinux.bpf.o is built only against the arm64 kernel's vmlinux.h (make vmtest-arm64)"
	fi
	cli_setup
	dir=$BATS_FILE_TMPDIR
	OUT=$dir/records ERR=$dir/stderr
	echo "--- records:"; cat "$OUT"
	echo "--- stderr:"; cat "$ERR"
	pid=$(cat "$dir/pid")
	read -r fd ppid <"$dir/opened" || fail "the process did not open its file"
	# the kernel adds O_LARGEFILE on 64-bit; its value is the architecture's
	case $(uname -m) in
	aarch64) largefile=$((0400000)) ;;
	*) largefile=$((0100000)) ;;
	esac
	flags=$(python3 -c 'import os; print(os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC)')
	flags=$((flags | largefile))
}

# record KIND: the one record of that kind, after checking the task fields.
record() {
	local r
	r=$(awk -v k="$(printf '%02x000000' "$1")" '$4 ~ "^" k' "$OUT")
	[ -n "$r" ] || fail "no record of kind $1"
	[ "$(wc -l <<<"$r")" -eq 1 ] || fail "more than one record of kind $1: $r"
	expect_eq "$(field "$r" 4 4)" "$pid" "task->tgid (CO-RE) of kind $1"
	expect_eq "$(field "$r" 8 4)" "$ppid" "task->real_parent->tgid (CO-RE) of kind $1"
	echo "$r"
}

# need PROGRAM: skip, with the kernel's reason, when the run left it out.
need() {
	local why
	why=$(grep -m1 -E "program '$1'[: ].*(left out|cannot attach)" "$ERR") || true
	[ -z "$why" ] || skip "this kernel cannot run it: $why"
	grep -q "program '$1': attached" "$ERR" || fail "program '$1' was not attached"
}

# open_record KIND: dfd AT_FDCWD, the path, flags and mode as the process passed them.
open_record() {
	local r hex
	r=$(record "$1")
	expect_eq "$(( $(field "$r" 12 4) - (1 << 32) ))" -100 "dfd (AT_FDCWD)"
	expect_eq "$(field "$r" 16 8)" "$flags" "open_how.flags"
	expect_eq "$(printf '%o' "$(field "$r" 24 8)")" 640 "open_how.mode"
	hex=$(awk '{ print $4 }' <<<"$r")
	expect_eq "$(hex_string "${hex:64:64}")" cv_victim "path"
}

@test "co_re_vmlinux: ksyscall/getpgid (BPF_KSYSCALL): the argument 4242" {
	need on_getpgid
	r=$(record 1)
	expect_eq "$(field "$r" 16 8)" 4242 "getpgid's argument"
}

@test "co_re_vmlinux: kprobe/do_sys_openat2 (BPF_KPROBE, BPF_CORE_READ): dfd, path, flags, mode" {
	need on_open_kprobe
	open_record 2
}

@test "co_re_vmlinux: fentry/do_sys_openat2 (BPF_PROG, typed pointers): dfd, path, flags, mode" {
	need on_open_fentry
	open_record 3
}

@test "co_re_vmlinux: kretprobe/do_sys_openat2 (BPF_KRETPROBE): the descriptor returned" {
	need on_open_ret
	r=$(record 4)
	expect_eq "$(field "$r" 16 8)" "$fd" "the descriptor"
}
