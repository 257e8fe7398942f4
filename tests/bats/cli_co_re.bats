#!/usr/bin/env bats
# CO-RE and the kernel's BTF: --btf names the kernel BTF to use; relocations are resolved
# against it, and the programs read the kernel's true field offsets.

load cli_common

setup() {
	cli_setup
}

@test "--btf: a file that is not there is one error naming it, on inspect and run" {
	for cmd in inspect run; do
		run "$BPFSDK" "$cmd" --btf /nonexistent/vmlinux "$OBJS/cli_tracepoint.bpf.o"
		echo "$output"
		assert_failure 1
		assert_output "error: cannot read kernel BTF '/nonexistent/vmlinux': No such file or directory"
	done
}

@test "--btf: a file that is not BTF is one error" {
	run "$BPFSDK" inspect --btf "$OBJS/cli_tracepoint.bpf.o" "$OBJS/cli_tracepoint.bpf.o"
	echo "$output"
	assert_failure 1
	[ "${#lines[@]}" -eq 1 ]
	assert_output --regexp "^error: '.*cli_tracepoint.bpf.o': .BTF: bad magic"
}

@test "--btf: the running kernel's BTF file is accepted" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	run "$BPFSDK" inspect --btf /sys/kernel/btf/vmlinux "$OBJS/cli_tracepoint.bpf.o"
	assert_success
	assert_line "programs: 1"
}

# own_btf OBJ OUT: OBJ's .BTF section into the file OUT, read with python3
# (llvm-objcopy --dump-section does the same, but the test VM has no LLVM
# tools).
own_btf() {
	command -v python3 >/dev/null || skip "no python3 to copy the .BTF section out"
	python3 - "$1" "$2" <<'EOF'
import struct, sys
elf = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<Q", elf, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", elf, 0x3a)
def section(i):
    name, _, _, _, off, size = struct.unpack_from("<IIQQQQ", elf, shoff + i * shentsize)
    return name, off, size
_, stroff, _ = section(shstrndx)
for i in range(shnum):
    name, off, size = section(i)
    if elf[stroff + name:elf.index(b"\0", stroff + name)] == b".BTF":
        open(sys.argv[2], "wb").write(elf[off:off + size])
        sys.exit(0)
sys.exit("no .BTF section in " + sys.argv[1])
EOF
}

# The record of co_re_flavour.bpf.c, for the process that called getpgid().
run_flavour() {
	start_trigger getpgid 1 1
	PARENT=$(awk '/^PPid:/ { print $2 }' "/proc/$TRIGGER_PID/status")
	start_run --set target_pid="$TRIGGER_PID" --count 1 "$@" "$OBJS/co_re_flavour.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records 1 68
	REC=$(cat "$OUT")
}

@test "CO-RE: a flavoured task_struct with its own layout reads the kernel's pid, tgid and parent" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	run_flavour
	expect_eq "$(field "$REC" 8 4)" "$TRIGGER_PID" "pid from bpf_get_current_pid_tgid()"
	expect_eq "$(field "$REC" 0 4)" "$TRIGGER_PID" "task->pid through the relocated offset"
	expect_eq "$(field "$REC" 4 4)" "$TRIGGER_PID" "task->tgid through the relocated offset"
	expect_eq "$(field "$REC" 16 4)" "$PARENT" "task->real_parent->tgid: the driver's parent"
	expect_eq "$(field "$REC" 60 4)" "$TRIGGER_PID" "task->pid read in a .text subprogram"
}

@test "CO-RE: field existence, enum values, type existence and sizes from the kernel's BTF" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	run_flavour
	expect_eq "$(field "$REC" 20 4)" 1 "bpf_core_field_exists(task->pid)"
	expect_eq "$(field "$REC" 24 4)" 0 "bpf_core_field_exists(task->nope)"
	expect_eq "$(field "$REC" 28 4)" 0 "the guarded read of the missing field did not run"
	expect_eq "$(field "$REC" 32 8)" 1 "PIDTYPE_TGID is 1 in the kernel (7 in the object)"
	expect_eq "$(field "$REC" 40 4)" 0 "PIDTYPE_NOPE does not exist"
	expect_eq "$(field "$REC" 44 4)" 1 "struct task_struct exists"
	expect_eq "$(field "$REC" 48 4)" 0 "struct no_such_struct does not"
	expect_eq "$(field "$REC" 52 4)" 4 "sizeof task->pid"
	comm=$(field "$REC" 56 4)
	[ "$comm" -gt 32 ] || fail "offsetof(task_struct, comm) is $comm, the object's own 32 or less"
}

@test "CO-RE: inspect lists each relocation and what it resolved to" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	run "$BPFSDK" inspect "$OBJS/co_re_flavour.bpf.o"
	echo "$output"
	assert_success
	assert_line "  CO-RE relocations: 13"
	assert_line --regexp '^  INSN +KIND +ACCESS +LOCAL +KERNEL +KERNEL TYPE +NOTE$'
	assert_line --regexp '^ +[0-9]+ +field_byte_offset +task_struct___mine\.pid \(0:2\) +16 +[0-9]+ +\[[0-9]+\] task_struct +-$'
	assert_line --regexp '^ +[0-9]+ +field_byte_offset +task_struct___mine\.real_parent \(0:1\) +8 +[0-9]+ +\[[0-9]+\] task_struct +-$'
	assert_line --regexp '^ +[0-9]+ +field_exists +task_struct___mine\.nope \(0:3\) +1 +0 +- +-$'
	assert_line --regexp "^ +[0-9]+ +field_byte_offset +task_struct___mine\.nope \(0:3\) +24 +poisoned +- +1 kernel type named 'task_struct', none matches: it has no such member$"
	assert_line --regexp '^ +[0-9]+ +enumval_value +enum pid_type___mine::PIDTYPE_TGID___mine \(0\) +7 +1 +\[[0-9]+\] pid_type +-$'
	assert_line --regexp '^ +[0-9]+ +type_exists +struct no_such_struct___mine \(0\) +1 +0 +- +-$'
	# the offset shown is the kernel's, as bpftool reads it from the same BTF
	if command -v bpftool >/dev/null; then
		want=$(bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
			awk '/^\[[0-9]+\] STRUCT .task_struct. /{ s = 1; next } s && /^\[/ { exit }
			     s && /\047pid\047 type_id=/ { sub("bits_offset=", "", $NF); print $NF / 8; exit }')
		[ -n "$want" ] || fail "bpftool shows no pid member of task_struct"
		assert_line --regexp "^ +[0-9]+ +field_byte_offset +task_struct___mine\.pid \(0:2\) +16 +$want "
	fi
}

@test "CO-RE: inspect --json has each relocation's kind, access, state and value" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	command -v jq >/dev/null || skip "no jq"
	run "$BPFSDK" inspect --json "$OBJS/co_re_flavour.bpf.o"
	assert_success
	relos=$(jq -c '.programs[0].core_relocations' <<<"$output")
	expect_eq "$(jq length <<<"$relos")" 13 "relocations"
	expect_eq "$(jq -r '[.[] | select(.spec == "task_struct___mine.pid" and .kind == "field_byte_offset")][0] | "\(.state) \(.local_value) \(.target_type)"' <<<"$relos")" \
		"resolved 16 task_struct" "the pid relocation"
	expect_eq "$(jq -r '[.[] | select(.kind == "field_byte_offset" and .spec == "task_struct___mine.nope")][0].state' <<<"$relos")" \
		poisoned "the missing field's offset"
	expect_eq "$(jq -r '[.[] | select(.kind == "enumval_value")][0].value' <<<"$relos")" 1 "PIDTYPE_TGID"
}

@test "CO-RE: --btf resolves against the BTF named, here the object's own" {
	own="$BATS_TEST_TMPDIR/own.btf"
	own_btf "$OBJS/co_re_flavour.bpf.o" "$own"
	run "$BPFSDK" inspect --btf "$own" "$OBJS/co_re_flavour.bpf.o"
	echo "$output"
	assert_success
	# task_struct___mine is its own candidate: its own offsets come back, nope included
	assert_line --regexp '^ +[0-9]+ +field_byte_offset +task_struct___mine\.pid \(0:2\) +16 +16 +\[[0-9]+\] task_struct___mine +-$'
	assert_line --regexp '^ +[0-9]+ +field_exists +task_struct___mine\.nope \(0:3\) +1 +1 '
}

@test "CO-RE: a read of a missing field on a path that runs fails to load, naming the relocation" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux"
	run "$BPFSDK" run --duration 1 "$OBJS/co_re_poison.bpf.o"
	echo "$output"
	assert_failure 1
	assert_line --partial "invalid func unknown#195896080"
	assert_line --regexp "^  instruction [0-9]+ is CO-RE relocation 0 \(field_byte_offset task_struct___poison\.no_such_field, access '0:1'\) at .*co_re_poison\.bpf\.c:[0-9]+, which the kernel's BTF cannot satisfy: 1 kernel type named 'task_struct', none matches: it has no such member$"
	# the detail of the one error, the verifier's rejection
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line"
}

@test "CO-RE: run --btf with a copy of the kernel's BTF, as a kernel without /sys/kernel/btf would have it" {
	[ -r /sys/kernel/btf/vmlinux ] || skip "no /sys/kernel/btf/vmlinux to copy"
	cp /sys/kernel/btf/vmlinux "$BATS_TEST_TMPDIR/vmlinux.btf"
	run_flavour --btf "$BATS_TEST_TMPDIR/vmlinux.btf"
	expect_eq "$(field "$REC" 0 4)" "$TRIGGER_PID" "task->pid through the file's offsets"
	expect_eq "$(field "$REC" 16 4)" "$PARENT" "task->real_parent->tgid"
	expect_eq "$(field "$REC" 32 8)" 1 "PIDTYPE_TGID"
}

@test "CO-RE: against a BTF without the types, existence is 0 and a reachable read is refused" {
	other="$BATS_TEST_TMPDIR/other.btf"
	own_btf "$OBJS/cli_tracepoint.bpf.o" "$other"
	run "$BPFSDK" inspect --btf "$other" "$OBJS/co_re_flavour.bpf.o"
	echo "$output"
	assert_success
	assert_line --regexp "^ +[0-9]+ +field_byte_offset +task_struct___mine\.pid \(0:2\) +16 +poisoned +- +the kernel has no struct or union named 'task_struct'$"
	assert_line --regexp '^ +[0-9]+ +field_exists +task_struct___mine\.pid \(0:2\) +1 +0 +- +-$'
	assert_line --regexp '^ +[0-9]+ +type_exists +struct task_struct___mine \(0\) +1 +0 +- +-$'
	run "$BPFSDK" run --btf "$other" --duration 1 "$OBJS/co_re_poison.bpf.o"
	assert_failure 1
	assert_line --regexp "^  instruction [0-9]+ is CO-RE relocation 0 .*: the kernel has no struct or union named 'task_struct'$"
}

@test "CO-RE: candidates that disagree are an error, warned by inspect and refused by run" {
	own="$BATS_TEST_TMPDIR/own.btf"
	own_btf "$OBJS/co_re_ambiguous.bpf.o" "$own"
	run "$BPFSDK" inspect --btf "$own" "$OBJS/co_re_ambiguous.bpf.o"
	echo "$output"
	assert_success
	assert_line --regexp "^ +[0-9]+ +field_byte_offset +thing___a\.y \(0:1\) +4 +error +- +kernel types \[[0-9]+\] and \[[0-9]+\] named 'thing' both match and disagree \(4, 0\)$"
	assert_line --regexp "^  program 'co_re_ambiguous': CO-RE relocation field_byte_offset thing___a\.y at instruction [0-9]+: kernel types .* disagree \(4, 0\): load will fail$"
	run "$BPFSDK" run --btf "$own" --duration 1 "$OBJS/co_re_ambiguous.bpf.o"
	echo "$output"
	assert_failure 1
	[ "${#lines[@]}" -eq 1 ] || fail "expected one error line"
	assert_output --regexp "^error: '.*co_re_ambiguous\.bpf\.o': program 'co_re_ambiguous': CO-RE relocation 0 \(field_byte_offset thing___a\.y, access '0:1'\): kernel types \[[0-9]+\] and \[[0-9]+\] named 'thing' both match and disagree \(4, 0\)$"
}

@test "CO-RE: a load of a field of another size is narrowed when unsigned, poisoned when signed" {
	kernel="$BATS_TEST_TMPDIR/sizes.btf"
	own_btf "$OBJS/co_re_sizes_kernel.bpf.o" "$kernel"
	run "$BPFSDK" -vv inspect --btf "$kernel" "$OBJS/co_re_sizes.bpf.o"
	echo "$output"
	assert_success
	assert_line --regexp "^ +0 +field_byte_offset +sz___local\.a \(0:0\) +0 +poisoned +\[[0-9]+\] sz +the kernel's field is 4 bytes, the program reads 8, and it is not a pointer or unsigned integer$"
	assert_line --regexp '^ +1 +field_byte_offset +sz___local\.b \(0:1\) +8 +8 +\[[0-9]+\] sz +-$'
	assert_line --regexp '^ +3 +field_byte_offset +sz___local\.c \(0:2\) +16 +0 +\[[0-9]+\] sz +-$'
	assert_line --partial "CO-RE relocation 1 (field_byte_offset sz___local.b): 8 -> 8, access 8 -> 4 bytes"
}
