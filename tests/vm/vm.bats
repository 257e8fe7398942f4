#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# The test VM itself: what tests/vm/init promises the other suites. Runs only
# inside the VM (tests/vm/run adds this folder to the suites it runs there).

setup() {
	[ "${BPFSDK_VM:-}" = 1 ] || skip "runs only inside the test VM (tests/vm/run)"
}

@test "vm: the machine has the CPUs qemu was given" {
	local n
	n=$(grep -c '^processor' /proc/cpuinfo)
	echo "# online CPUs: $n, possible: $(cat /sys/devices/system/cpu/possible)" >&3
	[ "$n" -eq "${VM_CPUS:-2}" ] || { echo "expected ${VM_CPUS:-2} CPUs online, got $n"; false; }
}

@test "vm: tracefs, debugfs and bpffs are mounted" {
	local fs
	for fs in "tracefs /sys/kernel/tracing" "debugfs /sys/kernel/debug" "bpf /sys/fs/bpf"; do
		grep -q " ${fs#* } ${fs%% *} " /proc/mounts ||
			{ echo "expected ${fs%% *} on ${fs#* }; /proc/mounts:"; cat /proc/mounts; false; }
	done
}

@test "vm: /dev/fd and /usr/bin/env work for bash and bats" {
	run bash -c 'cat <(echo through-dev-fd)'
	[ "$status" -eq 0 ] && [ "$output" = through-dev-fd ] ||
		{ echo "expected 'through-dev-fd', got status $status output '$output'"; false; }
	[ -x /usr/bin/env ] || { echo "expected /usr/bin/env"; false; }
}

@test "vm: the kernel offers kprobes, uprobes, syscall tracepoints and BTF" {
	local f
	echo "# kernel $(uname -r)" >&3
	for f in /sys/kernel/tracing/kprobe_events /sys/kernel/tracing/uprobe_events \
		 /sys/kernel/tracing/events/syscalls/sys_enter_getppid/id \
		 /sys/bus/event_source/devices/kprobe/type /sys/kernel/btf/vmlinux; do
		[ -e "$f" ] || { echo "expected $f to exist"; false; }
	done
}
