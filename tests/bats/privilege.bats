#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Least privilege and the limits users hit: bpfsdk run and the samples as
# the user nobody holding only CAP_BPF and CAP_PERFMON (and
# CAP_DAC_READ_SEARCH where tracefs is read), through setpriv; without a
# capability, and at each limit (open files, locked memory, a map the
# kernel cannot give, bpffs and tracefs not mounted), one error that names
# what is missing and how to get it.

load cli_common

setup() {
	cli_setup
	[ "$(id -u)" = 0 ] || skip "needs root to drop to nobody with chosen capabilities"
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is not installed"
	setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$BPFSDK" ||
		skip "user nobody cannot reach $BPFSDK (a checkout under a private home?)"
}

teardown() {
	cli_teardown
}

# as_nobody CAPS COMMAND...: COMMAND as nobody holding only CAPS (e.g.
# +bpf,+perfmon; empty for none), exec'd so that it keeps the shell's pid.
as_nobody() {
	local caps=$1
	shift
	if [ -n "$caps" ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups \
			--inh-caps="$caps" --ambient-caps="$caps" "$@"
	else
		setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$@"
	fi
}

# one_error: $output has exactly one line starting "error:".
one_error() {
	local n
	n=$(grep -c '^error:' <<<"$output")
	[ "$n" -eq 1 ] || { echo "expected 1 error: line, got $n"; return 1; }
}

# fault_run.bpf.o feeds itself records from run's own epoll waits; its
# map flt_run_pin is the fault walk's too, hence the lock it takes.
RUN_OBJ_ARGS='--count 100 --duration 20 --maps flt_run_hits'

@test "least privilege: bpfsdk run as nobody with CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH streams 100 records" {
	run flock /sys/fs/bpf bash -c "exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+bpf,+perfmon,+dac_read_search --ambient-caps=+bpf,+perfmon,+dac_read_search \
		'$BPFSDK' run $RUN_OBJ_ARGS --set target_pid=\$\$ '$OBJS/fault_run.bpf.o'"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"received 100, lost 0"* ]]
	! grep -q '^error:' <<<"$output"
}

@test "least privilege: trace_output as nobody with CAP_BPF, CAP_PERFMON and CAP_DAC_READ_SEARCH checks every record" {
	run as_nobody +bpf,+perfmon,+dac_read_search "$BUILD/bin/trace_output" -d 1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" =~ received\ [1-9][0-9]*,\ lost\ [0-9]+,\ bad\ 0 ]]
}

@test "least privilege: runqlat (CO-RE, tp_btf) as nobody with only CAP_BPF and CAP_PERFMON" {
	run as_nobody +bpf,+perfmon "$BUILD/bin/runqlat" -d 1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"total "* ]]
}

@test "least privilege: without CAP_BPF the error names CAP_BPF" {
	run as_nobody "" "$BPFSDK" run --duration 1 "$OBJS/cli_tracepoint.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"takes CAP_BPF"* ]]
}

@test "least privilege: CAP_BPF without CAP_PERFMON: the error names CAP_PERFMON" {
	run as_nobody +bpf "$BPFSDK" run --duration 1 "$OBJS/cli_tracepoint.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"CAP_PERFMON"* ]]
}

@test "least privilege: tracefs mounted but not readable is told as such, naming CAP_DAC_READ_SEARCH, not as 'not mounted'" {
	[ "$(stat -c %a /sys/kernel/tracing)" = 700 ] || skip "tracefs is readable by all here"
	run as_nobody +bpf,+perfmon "$BPFSDK" run --duration 1 "$OBJS/cli_tracepoint.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"not readable by this user"*"CAP_DAC_READ_SEARCH"* ]]
	[[ "$output" != *"not mounted"* ]]
}

@test "least privilege: execsnoop without CAP_DAC_READ_SEARCH names it" {
	[ "$(stat -c %a /sys/kernel/tracing)" = 700 ] || skip "tracefs is readable by all here"
	run as_nobody +bpf,+perfmon "$BUILD/bin/execsnoop" -d 1
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"CAP_DAC_READ_SEARCH"* ]]
}

@test "limits: every open files limit from 8 to 40 ends in success or one error naming ulimit -n" {
	for n in $(seq 8 2 40); do
		run flock /sys/fs/bpf prlimit --nofile=$n bash -c \
			"exec '$BPFSDK' run $RUN_OBJ_ARGS --set target_pid=\$\$ '$OBJS/fault_run.bpf.o'"
		echo "nofile $n: status $status"
		echo "$output" | grep -E '^(error|warning):' || true
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
		if [ "$status" -eq 1 ]; then
			one_error
			[[ "$output" == *"ulimit -n"* ]]
		fi
	done
}

@test "limits: perf rings over the locked-memory limit: one error naming perf_event_mlock_kb and ulimit -l" {
	run flock /sys/fs/bpf bash -c "exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+bpf,+perfmon,+dac_read_search --ambient-caps=+bpf,+perfmon,+dac_read_search \
		prlimit --memlock=0 '$BPFSDK' run --pages 256 $RUN_OBJ_ARGS --set target_pid=\$\$ \
		'$OBJS/fault_run.bpf.o'"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"perf_event_mlock_kb or ulimit -l"* ]]
}

@test "limits: the default perf rings over the locked-memory limit: smaller ones tried, the refusals on the way no error" {
	run flock /sys/fs/bpf bash -c "exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+bpf,+perfmon,+dac_read_search --ambient-caps=+bpf,+perfmon,+dac_read_search \
		prlimit --memlock=0 '$BPFSDK' run -v --count 1 --duration 5 --maps flt_run_hits \
		--set target_pid=\$\$ '$OBJS/fault_run.bpf.o'"
	echo "$output"
	grep -Eq '^(error: )?perf buffer: cpu [0-9]+: mmap .* failed' <<<"$output" ||
		skip "the default rings fit in the locked-memory limit here"
	grep -Eq 'retrying with [0-9]+ pages per CPU' <<<"$output" || fail "the refused default size was not retried smaller"
	if [ "$status" -eq 0 ]; then
		! grep -q '^error:' <<<"$output" || fail "a refusal on the way told as an error"
	else
		[ "$status" -eq 1 ] && one_error	# the smallest size refused as well
	fi
}

@test "limits: a map the kernel cannot give: one error naming max_entries and how to lower it" {
	run "$BPFSDK" run --duration 1 "$OBJS/limit_bigmap.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"map 'limit_big'"*"lower max_entries"* ]]
}

@test "limits: --freq above kernel.perf_event_max_sample_rate: one error naming the sysctl" {
	max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
	[ "$max" -lt 100000 ] ||
		skip "kernel.perf_event_max_sample_rate is $max, not below the most --freq takes (100000)"
	run "$BPFSDK" run --freq $((max + 1)) --duration 1 "$OBJS/cli_perf_event.bpf.o"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"kernel.perf_event_max_sample_rate"* ]]
}

@test "limits: /sys/fs/bpf not mounted for a map pinned by name: one error saying how to mount it" {
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	run flock /sys/fs/bpf unshare -m bash -c "umount /sys/fs/bpf && exec setpriv --reuid=65534 \
		--regid=65534 --clear-groups --inh-caps=+bpf,+perfmon,+dac_read_search \
		--ambient-caps=+bpf,+perfmon,+dac_read_search '$BPFSDK' run --duration 1 \
		--set target_pid=1 '$OBJS/fault_run.bpf.o'"
	echo "$output"
	[ "$status" -eq 1 ]
	one_error
	[[ "$output" == *"not a BPF file system (mount -t bpf bpf /sys/fs/bpf)"* ]]
}

@test "limits: tracefs not mounted: one error saying how to mount it" {
	command -v unshare >/dev/null || skip "unshare (util-linux) is not installed"
	run unshare -m bash -c "umount /sys/kernel/tracing; umount /sys/kernel/debug 2>/dev/null; \
		exec setpriv --reuid=65534 --regid=65534 --clear-groups \
		--inh-caps=+bpf,+perfmon,+dac_read_search --ambient-caps=+bpf,+perfmon,+dac_read_search \
		'$BPFSDK' run --duration 1 '$OBJS/cli_tracepoint.bpf.o'"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)"* ]]
}
