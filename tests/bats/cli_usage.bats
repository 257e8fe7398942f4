#!/usr/bin/env bats
# bpfsdk's command line: help and version, and every usage error exits 2
# with a single "error:" line that says what is wrong and where to look.

load cli_common

setup() {
	cli_setup
}

# expect_usage_error REGEXP: status 2 and one line, the error.
expect_usage_error() {
	echo "status $status, output:"
	echo "$output"
	expect_eq "$status" 2 "exit status"
	expect_eq "${#lines[@]}" 1 "lines of output"
	[[ ${lines[0]} =~ ^error:\  ]] || fail "'${lines[0]}' does not start with 'error: '"
	[[ ${lines[0]} =~ $1 ]] || fail "'${lines[0]}' does not match '$1'"
}

@test "usage: --version" {
	run "$BPFSDK" --version
	assert_success
	assert_output --regexp '^bpfsdk [0-9]+\.[0-9]+'
}

@test "usage: --help lists the commands and the exit codes" {
	run "$BPFSDK" --help
	assert_success
	assert_line --regexp '^    inspect +'
	assert_line --regexp '^    run +'
	assert_line --regexp '^    gen +'
	assert_output --partial 'EXIT STATUS'
	run "$BPFSDK" help
	assert_success
	assert_line --regexp '^    run +'
}

@test "usage: 'help CMD' and 'CMD --help' and 'CMD -h' show the same manual" {
	for cmd in run inspect gen; do
		run "$BPFSDK" help "$cmd"
		assert_success
		manual=$output
		assert_line --regexp "^    bpfsdk $cmd( skeleton)? - "
		assert_output --partial 'SYNOPSIS'
		assert_output --partial 'EXIT STATUS'
		run "$BPFSDK" "$cmd" --help
		assert_success
		expect_eq "$output" "$manual" "'$cmd --help' vs 'help $cmd'"
		run "$BPFSDK" "$cmd" -h
		expect_eq "$output" "$manual" "'$cmd -h' vs 'help $cmd'"
	done
}

@test "usage: the run manual documents every option" {
	run "$BPFSDK" help run
	for opt in --set --count --duration --pages --format --verbose --help; do
		assert_output --partial "$opt"
	done
}

@test "usage: an unknown option names it and the help to try" {
	run "$BPFSDK" run --cuont 3 "$OBJS/cli_globals.bpf.o"
	expect_usage_error "^error: unknown option '--cuont' \(try 'bpfsdk run --help'\)$"
	run "$BPFSDK" run -x "$OBJS/cli_globals.bpf.o"
	expect_usage_error "unknown option '-x'"
	run "$BPFSDK" inspect --jsn "$OBJS/cli_globals.bpf.o"
	expect_usage_error "unknown option '--jsn' \(try 'bpfsdk inspect --help'\)"
	run "$BPFSDK" --frob
	expect_usage_error "unknown option '--frob' \(try 'bpfsdk --help'\)"
}

@test "usage: unknown, missing or misused commands" {
	run "$BPFSDK"
	expect_usage_error "no command given"
	run "$BPFSDK" frob
	expect_usage_error "unknown command 'frob'"
	run "$BPFSDK" help frob
	expect_usage_error "unknown command 'frob'"
}

@test "usage: the object argument is required, and only one" {
	run "$BPFSDK" run
	expect_usage_error "no object file given"
	run "$BPFSDK" inspect
	expect_usage_error "no object file given"
	run "$BPFSDK" run a.o b.o
	expect_usage_error "one object at a time: 'a.o' and 'b.o'"
}

@test "usage: options that need a value, or take none" {
	run "$BPFSDK" run "$OBJS/cli_globals.bpf.o" --count
	expect_usage_error "option '--count' needs a value"
	run "$BPFSDK" run "$OBJS/cli_globals.bpf.o" -c
	expect_usage_error "option '-c' \(--count\) needs a value"
	run "$BPFSDK" inspect --json=yes "$OBJS/cli_globals.bpf.o"
	expect_usage_error "option '--json' takes no value"
}

@test "usage: numbers are checked" {
	for bad in 0 -1 abc 1x 0x 99999999999999999999999; do
		run "$BPFSDK" run --count "$bad" "$OBJS/cli_globals.bpf.o"
		expect_usage_error "--count '$bad' is not a positive integer"
	done
	for bad in 0 -1 abc inf nan 1e3 0x10; do
		run "$BPFSDK" run --duration "$bad" "$OBJS/cli_globals.bpf.o"
		expect_usage_error "--duration '$bad' is not a positive number of seconds"
	done
	for bad in 0 3 abc 2097152; do
		run "$BPFSDK" run --pages "$bad" "$OBJS/cli_globals.bpf.o"
		expect_usage_error "--pages '$bad' is not a power of two"
	done
}

@test "usage: --format takes hex, text and json; the decoding options need text or json" {
	run "$BPFSDK" run -f yaml "$OBJS/cli_globals.bpf.o"
	expect_usage_error "--format 'yaml' is not one of hex, text, json"
	run "$BPFSDK" run --format hex --type event "$OBJS/cli_globals.bpf.o"
	expect_usage_error "--type decodes records: it needs --format text or json"
	run "$BPFSDK" run --format json --type events= "$OBJS/cli_globals.bpf.o"
	expect_usage_error "--type 'events=' is not NAME or MAP=NAME"
}

@test "usage: option forms: --opt=VALUE, -cVALUE, grouped -vv, and --" {
	# all of these are valid: each runs for 0.2 s and ends with the summary
	for args in "--count=1 --duration=0.2" "-c1 -d0.2" "-vv -d 0.2" "-d 0.2 --"; do
		run "$BPFSDK" run $args "$OBJS/cli_globals.bpf.o"
		echo "$args: $output"
		expect_eq "$status" 0 "exit status with '$args'"
		assert_line "received 0, lost 0"
	done
	# -v before the command counts too
	run "$BPFSDK" -v run -d 0.2 "$OBJS/cli_globals.bpf.o"
	expect_eq "$status" 0 "exit status with 'bpfsdk -v run'"
	assert_line --regexp '^streaming: 1 program attached, 1 map read'
	run "$BPFSDK" run -d 0.2 "$OBJS/cli_globals.bpf.o"
	refute_line --regexp '^streaming:'
}
