#!/usr/bin/env bats
# fentry, fexit, lsm, kprobe, kretprobe, ksyscall and kretsyscall programs
# on the unlink path (tests/bpf/attach_kernel_fn.bpf.c), all attached by
# one `bpfsdk run --require-all`; a process the suite knows by pid unlinks
# a file with unlinkat(2), and each kind's record must carry that pid and
# the file's name or the call's result. Runs in the VM (tests/vm/suites);
# a kernel that cannot attach these kinds (this host) skips it, and
# attach_btf.bats checks they are left out there with the kernel's reason.

load cli_common

setup_file() {
	BUILD=${BUILD:-build}
	local bpfsdk=$BUILD/bin/bpfsdk obj=$BUILD/bpf/tests/attach_kernel_fn.bpf.o
	local dir=$BATS_FILE_TMPDIR go=$BATS_FILE_TMPDIR/go victim=attach_victim_$$
	: >"$dir/$victim"
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
	"$bpfsdk" run -v --require-all --set target_pid="$unlinker" --count 7 --duration 120 \
		"$obj" >"$dir/records" 2>"$dir/stderr" &
	local run=$!
	# TCG is slow: loading seven programs against the kernel's BTF takes a while
	for _ in $(seq 1200); do
		grep -q '^streaming:' "$dir/stderr" && break
		kill -0 "$run" 2>/dev/null || break
		sleep 0.1
	done
	touch "$go"
	local status=0
	wait "$run" || status=$?
	echo "$status" >"$dir/status"
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
	if grep -qE "left out|cannot attach" "$ERR"; then
		skip "this kernel cannot attach every kind: $(grep -m1 -E 'left out|cannot attach' "$ERR")"
	fi
	pid=$(cat "$dir/pid")
	victim=$(cat "$dir/victim")
}

# record KIND: the record of that kind (exactly one).
record() {
	local lines
	lines=$(while read -r line; do
		if [ "$(field "$line" 4 4)" = "$1" ]; then echo "$line"; fi
	done <"$OUT")
	expect_eq "$(grep -c . <<<"$lines")" 1 "records of kind $1"
	# { u32 pid, u32 kind, s64 ret, char path[48] } = 64 bytes, 68 padded
	read -r _ _ size _ <<<"$lines"
	expect_eq "$size" 68 "record size"
	expect_eq "$(field "$lines" 0 4)" "$pid" "pid in '$lines'"
	echo "$lines"
}

@test "kernel functions: run attached all seven and stopped after their records" {
	expect_eq "$(cat "$dir/status")" 0 "exit status"
	grep -q '^streaming: 7 programs attached' "$ERR" || fail "not 7 programs attached"
	expect_records 7 68
}

@test "fentry/do_unlinkat: the path from the kernel's struct filename" {
	r=$(record 1)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
}

@test "fexit/do_unlinkat: the path and the return value 0" {
	r=$(record 2)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}

@test "lsm/inode_unlink: the BPF LSM hook ran for the unlinker" {
	record 7 >/dev/null
}

@test "kprobe/do_unlinkat: the path from the second argument's register" {
	r=$(record 3)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
}

@test "kretprobe/do_unlinkat: the return value 0" {
	r=$(record 4)
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}

@test "ksyscall/unlinkat: a kprobe on __x64_sys_unlinkat, the path from the user's registers" {
	r=$(record 5)
	expect_eq "$(cstr "$r" 16 48)" "$victim" "path"
	grep -q "program 'on_ksyscall': attached to ksyscall 'unlinkat'" "$ERR" || fail "not attached as ksyscall"
}

@test "kretsyscall/unlinkat: the system call's result 0" {
	r=$(record 6)
	expect_eq "$(field "$r" 8 8)" 0 "return value"
}
