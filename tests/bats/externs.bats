#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# __kconfig and __ksym externs, filled by the loader from the running
# kernel: the values the programs send are compared with uname -r, the
# kernel's configuration and /proc/kallsyms; externs the kernel lacks fail
# the load naming each, or read as zero when __weak; inspect shows them.

load cli_common

setup() {
	cli_setup
}

teardown() {
	cli_teardown
}

# The kernel's configuration text, as the loader reads it.
kernel_config() {
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then
		cat "/boot/config-$(uname -r)"
	else
		return 1
	fi
}

# config_value NAME: its value in the configuration, "" when absent.
config_value() {
	kernel_config | sed -n "s/^$1=//p"
}

# need_btf_var NAME: skip, saying why, unless the kernel's BTF has variable
# NAME. Typed __ksym externs are resolved against the VARs of vmlinux's BTF,
# which pahole writes only for per-CPU variables and only where the kernel's
# build asked it to: Debian 11's 5.10 has none at all.
need_btf_var() {
	local btf
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null) || skip "no kernel BTF (/sys/kernel/btf/vmlinux)"
	grep -q "^\[[0-9]*\] VAR '$1' " <<<"$btf" && return 0
	grep -q "^\[[0-9]*\] VAR " <<<"$btf" ||
		skip "this kernel's BTF has no variables at all, so it cannot resolve typed __ksym externs ('$1')"
	skip "this kernel's BTF has no variable '$1'"
}

# run_once OBJ: one getpgid by the driver, one record from OBJ into $OUT.
run_once() {
	start_trigger getpgid 1 "${2:-5}"
	start_run --set target_pid="$TRIGGER_PID" --count 1 "$1"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_eq "$(wc -l <"$OUT")" 1 "records printed"
	LINE=$(cat "$OUT")
	HEX=$(awk '{ print $4 }' <<<"$LINE")
	# the extern VARs, FUNCs and DATASECs were rewritten into BTF the
	# kernel takes: it loaded the object's BTF, not a fallback without
	if grep -q "refused the object's BTF" "$ERR"; then
		fail "the kernel refused the object's BTF: $(cat "$ERR")"
	fi
}

@test "kconfig: LINUX_KERNEL_VERSION, LINUX_HAS_*, CONFIG_ bool, tristate, char, int and string reach the program" {
	kernel_config >/dev/null || skip "no /proc/config.gz or /boot/config-$(uname -r)"
	run_once "$OBJS/ext_kconfig.bpf.o"
	IFS=.- read -r a b c _ <<<"$(uname -r)"
	c=${c%%[!0-9]*}
	[ "${c:-0}" -gt 255 ] && c=255
	expect_eq "$(field "$LINE" 0 4)" $(((a << 16) + (b << 8) + ${c:-0})) "LINUX_KERNEL_VERSION for $(uname -r)"
	hz=$(config_value CONFIG_HZ)
	expect_eq "$(field "$LINE" 4 4)" "${hz:-0}" "CONFIG_HZ"
	expect_eq "$(field "$LINE" 8 8)" 0 "weak CONFIG_ integer the kernel lacks"
	expect_eq "$(field "$LINE" 16 1)" "$([ "$(config_value CONFIG_BPF_SYSCALL)" = y ] && echo 1 || echo 0)" "CONFIG_BPF_SYSCALL (bool)"
	case $(config_value CONFIG_BPF_EVENTS) in y) tri=1 ;; m) tri=2 ;; *) tri=0 ;; esac
	expect_eq "$(field "$LINE" 17 1)" "$tri" "CONFIG_BPF_EVENTS (tristate)"
	jit=$(config_value CONFIG_BPF_JIT)
	expect_eq "$(field "$LINE" 18 1)" "$(printf '%d' "'${jit:-\\0}")" "CONFIG_BPF_JIT (char '$jit')"
	expect_eq "$(field "$LINE" 19 1)" 0 "weak CONFIG_ bool the kernel lacks"
	# BPF cookies came with 5.15: the kernel's BTF names their helper when it has them
	cookie=0
	bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
		grep -q "'BPF_FUNC_get_attach_cookie' val=" && cookie=1
	expect_eq "$(field "$LINE" 20 1)" "$cookie" "LINUX_HAS_BPF_COOKIE on $(uname -r)"
	wrapper=0
	grep -qE ' (__x64|__arm64)_sys_getpgid$' /proc/kallsyms && wrapper=1
	expect_eq "$(field "$LINE" 21 1)" "$wrapper" "LINUX_HAS_SYSCALL_WRAPPER"
	host=$(config_value CONFIG_DEFAULT_HOSTNAME)
	expect_eq "\"$(hex_string "${HEX:48:32}")\"" "${host:-\"\"}" "CONFIG_DEFAULT_HOSTNAME (string)"
}

@test "kconfig: a missing option and a mistyped one fail the load, each named" {
	kernel_config >/dev/null || skip "no /proc/config.gz or /boot/config-$(uname -r)"
	run "$BPFSDK" run --duration 1 "$OBJS/ext_kconfig_bad.bpf.o"
	assert_failure 1
	hz=$(config_value CONFIG_HZ)
	if [ -n "$hz" ]; then
		# two externs: one error saying so, each on a line under it
		assert_line --index 0 "error: '$OBJS/ext_kconfig_bad.bpf.o': 2 externs cannot be resolved on this kernel:"
		assert_line --regexp "^  kconfig extern 'CONFIG_BPFSDK_NOT_THERE' is not in the kernel's configuration \(.*\)$"
		assert_line "  kconfig extern 'CONFIG_HZ' is declared bool but the kernel's value is '$hz'"
	else
		assert_line --regexp "^error: '.*ext_kconfig_bad.bpf.o': kconfig extern 'CONFIG_BPFSDK_NOT_THERE' is not in the kernel's configuration \(.*\)$"
	fi
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line"
	refute_output --partial "not defined in this object"
	refute_output --partial "streaming"
}

@test "kconfig: inspect lists the externs, the .kconfig map and what each resolves to" {
	run "$BPFSDK" inspect "$OBJS/ext_kconfig.bpf.o"
	assert_success
	assert_line --regexp '^  \.kconfig +array +4 +48 +1 +\.kconfig$'
	assert_line "externs: 10"
	assert_line --regexp "^ +[0-9]+ +LINUX_KERNEL_VERSION +kconfig +- +0x[0-9a-f]+ \([0-9]+\.[0-9]+\.[0-9]+\)$"
	assert_line --regexp "^ +[0-9]+ +CONFIG_BPFSDK_NO_SUCH_OPTION +kconfig +weak +absent \(weak: 0\)$"
	assert_line --regexp "^ +[0-9]+ +data +CONFIG_HZ +\.kconfig\+[0-9]+$"
	kernel_config >/dev/null || return 0
	run "$BPFSDK" inspect "$OBJS/ext_kconfig_bad.bpf.o"
	assert_success
	assert_line --regexp "^  kconfig extern 'CONFIG_BPFSDK_NOT_THERE' cannot be resolved on this kernel \(is not in the kernel's configuration .*\): load will fail$"
	run "$BPFSDK" inspect --json "$OBJS/ext_kconfig.bpf.o"
	assert_success
	run jq -r '.externs[] | select(.name == "CONFIG_BPF_SYSCALL") | "\(.kind) \(.weak) \(.resolved)"' <<<"$output"
	assert_output "kconfig false true"
}

@test "ksym: a kallsyms address, kfunc calls of bpf_for, weak externs the kernel lacks" {
	bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -q "FUNC 'bpf_iter_num_new'" ||
		skip "this kernel has no numbers-iterator kfuncs (Linux 6.4)"
	run_once "$OBJS/ext_ksym.bpf.o" 6
	sym=$(awk '$3 == "__x64_sys_getpgid" || $3 == "__arm64_sys_getpgid" { print $1; exit }' /proc/kallsyms)
	[ -n "$sym" ] || skip "no syscall wrapper symbol in /proc/kallsyms"
	expect_eq "$(printf '%x' "$(field "$LINE" 0 8)")" "${sym#"${sym%%[!0]*}"}" "address of the syscall from /proc/kallsyms"
	expect_eq "$(field "$LINE" 8 4)" 15 "bpf_for sum of 0..5"
	expect_eq "$(field "$LINE" 16 1)" 1 "bpf_ksym_exists(bpf_iter_num_new)"
	expect_eq "$(field "$LINE" 17 1)" 0 "bpf_ksym_exists() of a missing weak variable"
	expect_eq "$(field "$LINE" 18 1)" 0 "bpf_ksym_exists() of a missing weak kfunc"
}

@test "ksym: inspect shows each kfunc's and typed variable's ID in the kernel's BTF" {
	need_btf_var bpf_prog_active
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux)
	run "$BPFSDK" inspect "$OBJS/ext_ksym_typed.bpf.o"
	assert_success
	id=$(sed -n "s/^\[\([0-9]*\)\] VAR 'bpf_prog_active' .*/\1/p" <<<"$btf")
	assert_line --regexp "^ +0 +bpf_prog_active +ksym +- +btf id $id$"
	assert_line --regexp "^ +[0-9]+ +ksym +bpf_prog_active +extern 0$"
	grep -q "FUNC 'bpf_iter_num_new'" <<<"$btf" || return 0
	run "$BPFSDK" inspect "$OBJS/ext_ksym.bpf.o"
	assert_success
	id=$(sed -n "s/^\[\([0-9]*\)\] FUNC 'bpf_iter_num_new' .*/\1/p" <<<"$btf")
	assert_line --regexp "^ +[0-9]+ +bpf_iter_num_new +kfunc +weak +btf id $id$"
	assert_line --regexp "^ +[0-9]+ +bpfsdk_no_such_kfunc +kfunc +weak +absent \(weak: calls poisoned\)$"
	assert_line --regexp "^ +[0-9]+ +kfunc +bpf_iter_num_next +extern [0-9]+$"
}

@test "ksym: a typed variable through BTF reads the kernel's per-CPU bpf_prog_active" {
	grep -qw bpf_prog_active /proc/kallsyms ||
		skip "bpf_prog_active is not in /proc/kallsyms (no CONFIG_KALLSYMS_ALL): the kernel cannot load typed ksyms"
	need_btf_var bpf_prog_active
	run_once "$OBJS/ext_ksym_typed.bpf.o"
	expect_eq "$(field "$LINE" 0 4)" 1 "bpf_prog_active while a tracepoint program runs"
}

@test "ksym: a kfunc and a variable no kernel has fail the load, each named" {
	run "$BPFSDK" run --duration 1 "$OBJS/ext_ksym_missing.bpf.o"
	assert_failure 1
	assert_line --index 0 "error: '$OBJS/ext_ksym_missing.bpf.o': 2 externs cannot be resolved on this kernel:"
	assert_line "  kfunc 'bpfsdk_no_such_kfunc' not found in kernel BTF"
	if bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -q "^\[[0-9]*\] VAR "; then
		assert_line "  ksym extern 'bpfsdk_no_such_variable' not found in kernel BTF"
	else
		# Debian 11's 5.10: the reason is the kernel's, not the name's
		assert_line "  ksym extern 'bpfsdk_no_such_variable' not found in kernel BTF, which has no variables at all: typed __ksym externs cannot resolve here ('const void' ones read /proc/kallsyms)"
	fi
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line"
	refute_output --partial "not defined in this object"
}

@test "ksym: a variable and a kfunc the kernel has in another shape fail the load, saying what differs" {
	need_btf_var bpf_prog_active
	btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux)
	run "$BPFSDK" run --duration 1 "$OBJS/ext_ksym_mismatch.bpf.o"
	assert_failure 1
	assert_line --index 0 "error: '$OBJS/ext_ksym_mismatch.bpf.o': 2 externs cannot be resolved on this kernel:"
	assert_line "  ksym extern 'bpf_prog_active' is declared as a struct, but the kernel's is an integer"
	# the kfunc came with Linux 6.2: older kernels (the test VM's 6.1) lack it
	if grep -q "FUNC 'bpf_task_from_pid'" <<<"$btf"; then
		assert_line "  kfunc 'bpf_task_from_pid' takes 1 argument in the kernel but 2 in the object's declaration"
	else
		assert_line "  kfunc 'bpf_task_from_pid' not found in kernel BTF"
	fi
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line"
}

@test "ksym: an unguarded call of a missing weak kfunc is refused by the verifier, and the error names it" {
	run "$BPFSDK" run --duration 1 "$OBJS/ext_kfunc_unguarded.bpf.o"
	assert_failure 1
	assert_line --partial "rejected by the verifier"
	assert_line --regexp "^  instruction [0-9]+ calls kfunc 'bpfsdk_no_such_kfunc', which this kernel does not have \(not found in kernel BTF\); it is __weak, so the call must be behind bpf_ksym_exists\(bpfsdk_no_such_kfunc\)$"
	# the detail of the one error, the verifier's rejection
	[ "$(grep -c '^error:' <<<"$output")" -eq 1 ] || fail "not one error: line"
}
