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
