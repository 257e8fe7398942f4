#!/usr/bin/env bats
# Programs whose section does not say where they attach, attached through
# the API by tests/drivers/attach_uprobe.c: target-less uprobe and
# uretprobe sections with bsdk_prog_attach_uprobe(), a perf_event program
# with bsdk_prog_attach_perf_event(), and the absolute-path form
# uprobe//PATH:FUNC by bsdk_obj_attach_all(). Each record's pid, kind and
# value are checked.

load cli_common

setup() {
	cli_setup
	DRIVER=$(existing "$BUILD/bin/attach_uprobe") ||
		fail "$BUILD/bin/attach_uprobe is not built (run make)"
	run timeout 60 "$DRIVER" "$OBJS/attach_uprobe.bpf.o"
	echo "status $status, output:"
	echo "$output"
	[ "$status" -eq 0 ] || fail "the driver failed"
	pid=$(sed -n 's/^pid //p' <<<"$output")
	[ -n "$pid" ] || fail "no pid line"
}

# records KIND: "VALUE PID" of each record of that kind, sorted by value.
records() {
	awk -v k="$1" '$1 == "record" && $2 == k { print $3, $4 }' <<<"$output" | sort -n
}

@test "attach API: bsdk_obj_attach_all attaches uprobe//proc/self/exe:FUNC and leaves out the rest" {
	assert_line "attach_all 2"
	expect_eq "$(records 3 | xargs)" "100 $pid 101 $pid 102 $pid" "absolute-path uprobe records"
	# one warning per program it left out, naming the object and why
	assert_line --regexp "^warning: '.*attach_uprobe\.bpf\.o': program 'on_entry' \(section 'uprobe'\): left out: the section names no binary"
	assert_line --regexp "^warning: '.*attach_uprobe\.bpf\.o': program 'on_return' \(section 'uretprobe'\): left out: the section names no binary"
	assert_line --regexp "^warning: '.*attach_uprobe\.bpf\.o': program 'on_sample' \(section 'perf_event'\): left out: perf_event programs have no attach point"
}

@test "attach API: a sleepable uprobe.s program, attached by section name, calls bpf_copy_from_user" {
	# "12345678" as a little-endian u64
	expect_eq "$(records 5 | xargs)" "$(( 0x3837363534333231 )) $pid" "sleepable uprobe record"
}

@test "attach API: a target-less uprobe and uretprobe attached with bsdk_prog_attach_uprobe" {
	expect_eq "$(records 1 | xargs)" "10 $pid 11 $pid 12 $pid 13 $pid 14 $pid" "uprobe: the arguments"
	expect_eq "$(records 2 | xargs)" "21 $pid 23 $pid 25 $pid 27 $pid 29 $pid" "uretprobe: 2x+1"
}

@test "attach API: a perf_event program on a CPU-clock event the caller opened" {
	n=$(records 4 | wc -l)
	[ "$n" -ge 1 ] || fail "no perf event sample"
	others=$(records 4 | awk -v p="$pid" '$2 != p' | wc -l)
	expect_eq "$others" 0 "samples of another process"
}

@test "attach API: bad arguments are errors with a message" {
	for c in null_path no_such_function not_a_uprobe bad_perf_fd sampling_not_perf_event \
		 sampling_zero_hz sampling_every_cpu; do
		assert_line "check $c ok"
	done
	assert_line "error: program 'on_entry': a uprobe needs the path of a binary"
	assert_line "error: program 'on_sample': perf event fd -1 is not valid"
	assert_line "error: program 'on_entry': sampling takes a perf_event program and a rate above 0 Hz"
	assert_line "error: program 'on_sample': sampling takes a perf_event program and a rate above 0 Hz"
}
