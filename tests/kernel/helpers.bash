# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# What the tests/kernel suites share: where the programs are, the skip
# rules, and small assertions that print the expected and the actual value.

BUILD=${BUILD:-build}
# bats runs from the directory it was started in; the tree's top is two
# levels above this file.
TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
PROBE=$BUILD/bin/kern_probe
BPF_TESTS=$BUILD/bpf/tests

bats_load_library bats-support
bats_load_library bats-assert

# Every test needs the driver and the right to load BPF programs.
kern_setup() {
	[ -x "$PROBE" ] || fail "'$PROBE' is not built (run 'make BUILD=${BUILD#"$TOP"/} test-programs')"
	[ "$(id -u)" -eq 0 ] || skip "needs root to load BPF programs and open perf events"
	[ -e /sys/kernel/tracing/events/syscalls/sys_enter_getppid ] ||
		[ -e /sys/kernel/debug/tracing/events/syscalls/sys_enter_getppid ] ||
		skip "this kernel has no syscalls/sys_enter_getppid tracepoint (CONFIG_FTRACE_SYSCALLS)"
}

# note TEXT...: put an observation into the TAP log.
note() {
	printf '# %s\n' "$*" >&3
}

# where: the host or the test VM, for the log.
where() {
	if [ "${BPFSDK_VM:-}" = 1 ]; then echo "vm $(uname -r)"; else echo "host $(uname -r)"; fi
}

# probe ARGS...: run the driver with `run`; status 77 (the kernel cannot
# attach that kind of hook) skips the test with the driver's reason.
probe() {
	run "$PROBE" "$@"
	if [ "$status" -eq 77 ]; then
		skip "$(grep -m1 '^unsupported:' <<<"$output" | sed 's/^unsupported: //')"
	fi
	if [ "$status" -ne 0 ]; then
		echo "kern_probe $* failed with status $status:"
		echo "$output"
		return 1
	fi
}

# fields LINE: the key=value words of LINE into the array F.
#
# Pure bash with no here-strings or read: under qemu's emulation every
# system call is slow, `read` takes its input one byte per call, and the
# size tests read hundreds of fields.
declare -gA F
fields() {
	local -a words
	local w
	F=()
	set -f
	words=($1)
	set +f
	for w in "${words[@]}"; do
		[[ $w == [a-z_]*=* ]] && F[${w%%=*}]=${w#*=}
	done
	return 0
}

# lines PREFIX: the lines of $output that start with PREFIX, into the array
# L.
lines() {
	local line IFS=$'\n'
	local -a all
	L=()
	set -f
	all=($output)
	set +f
	for line in "${all[@]}"; do
		[[ $line == "$1"* ]] && L+=("$line")
	done
	return 0
}

# expect WHAT ACTUAL EXPECTED: fail with both values when they differ.
expect() {
	if [ "$2" != "$3" ]; then
		echo "$1: expected '$3', got '$2'"
		return 1
	fi
}
