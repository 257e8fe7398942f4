#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# usdt/ programs on the USDT probes of tests/drivers/usdt_probe.c: every
# site of a probe is attached, the arguments read through usdt.bpf.h have
# the values the driver passed (register, constant and string arguments,
# signed and not), the probe's semaphore is raised while attached, and
# what cannot be attached is said in one line.

load cli_common

setup() {
	cli_setup
	PROBE=$(existing "$BUILD/bin/usdt_probe") ||
		fail "$BUILD/bin/usdt_probe is not built (run make)"
}

teardown() {
	cli_teardown
}

# Whether the kernel has BPF cookies (Linux 5.15): its BTF's enum bpf_func_id
# names the helper that reads them.
have_bpf_cookies() {
	bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null |
		grep -q "'BPF_FUNC_get_attach_cookie' val="
}

# s64 LINE OFFSET: the signed 64-bit integer at OFFSET of a record.
s64() {
	local v
	v=$(field "$1" "$2" 8)
	echo $((v))
}

@test "usdt: both sites of bpfsdk:hit and the gated probe, every argument as the driver passed it" {
	n=3
	if ! have_bpf_cookies; then
		# every process of a PIE has its sites elsewhere: without a cookie
		# a program attached to them all cannot tell which spec is whose
		cd "$(dirname "$PROBE")"
		run "$BPFSDK" run --duration 1 "$OBJS/usdt_args.bpf.o"
		assert_failure 1
		assert_line --partial "this kernel has no BPF cookies (Linux 5.15), and '$(basename "$PROBE")' is not loaded at a fixed address: attach to one process (a pid) to find its sites there"
		skip "this kernel has no BPF cookies (Linux 5.15): a PIE's USDT sites in every process at once need them (the refusal says so)"
	fi
	rm -f "$GO"
	"$PROBE" "$GO" $n >"$BATS_TEST_TMPDIR/probe.out" &
	TRIGGER_PID=$!
	# the sections say usdt/usdt_probe:..., relative to the current directory
	cd "$(dirname "$PROBE")"
	start_run --count $((3 * n)) "$OBJS/usdt_args.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records $((3 * n)) 84
	grep -qx "program 'on_hit': attached to USDT probe bpfsdk:hit in 'usdt_probe' at 2 sites" "$ERR" ||
		fail "no two-site attach message in: $(cat "$ERR")"
	hits=() gated=0
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		case $(field "$line" 4 4) in
		1)
			expect_eq "$(s64 "$line" 8)" 4 "bpf_usdt_arg_cnt() of bpfsdk:hit"
			a0=$(s64 "$line" 16)
			i=${a0#-}
			expect_eq "$(s64 "$line" 24)" $((i * 1000000007)) "second argument (long) of hit $a0"
			expect_eq "$(s64 "$line" 32)" 5 "fourth argument (the constant 5)"
			expect_eq "$(s64 "$line" 40)" 0 "bpf_usdt_cookie() (none given)"
			expect_eq "$(s64 "$line" 48)" -2 "bpf_usdt_arg() past the last argument: -ENOENT"
			# int, long, pointer, int: what the notes say (-4@ -8@ 8@ -4@)
			expect_eq "$(s64 "$line" 56)" 4884 "bpf_usdt_arg_size() of the four arguments"
			hex=$(awk '{ print $4 }' <<<"$line")
			expect_eq "$(hex_string "${hex:128:32}")" "usdt-$i" "third argument (string) of hit $a0"
			hits+=("$a0")
			;;
		2)
			expect_eq "$(s64 "$line" 8)" 1 "bpf_usdt_arg_cnt() of bpfsdk:gated"
			# the driver fires it only while the semaphore is raised,
			# and passes the semaphore: one probe attached, so 1
			expect_eq "$(s64 "$line" 16)" 1 "semaphore value"
			gated=$((gated + 1))
			;;
		*) fail "unknown record kind in '$line'" ;;
		esac
	done <"$OUT"
	# the first site passes i, the second -i: signed arguments widen
	expect_eq "$(printf '%s\n' "${hits[@]}" | sort -n | xargs)" "-3 -2 -1 1 2 3" "first arguments of both sites"
	expect_eq "$gated" $n "gated probes fired"
	expect_eq "$(cat "$BATS_TEST_TMPDIR/probe.out")" "gated $n" "what the driver saw of its semaphore"
}

@test "usdt: register, memory at sp + offset, memory and constant arguments, value by value" {
	local drv=$BUILD/bin/usdt_where spec n=4
	[ -x "$drv" ] || fail "$drv is not built (run make)"
	# The note's argument string, from the binary itself (the VM has no
	# readelf): the four kinds of location this test is about, in the
	# syntax of the architecture the driver was built for.
	spec=$(tr '\0' '\n' <"$drv" | grep -E '^-8@.* -4@\$?-9$') ||
		fail "no bpfsdk:where argument string in $drv"
	echo "# $(uname -m): $spec" >&3
	case $(uname -m) in
	aarch64) [[ $spec =~ ^-8@x[0-9]+\ -4@\[sp,\ [0-9]+\]\ -8@\[sp(,\ [0-9]+)?\]\ -4@-9$ ]] ;;
	*) [[ $spec =~ ^-8@%r[a-z0-9]+\ -4@-?[0-9]+\(%r[sb]p\)\ -8@-?[0-9]*\(%r[sb]p\)\ -4@\$-9$ ]] ;;
	esac || fail "expected register, memory + offset, memory, constant; the note says '$spec'"
	if ! have_bpf_cookies; then
		skip "this kernel has no BPF cookies (Linux 5.15): a PIE's USDT sites in every process at once need them"
	fi
	rm -f "$GO"
	"$drv" "$GO" $n &
	TRIGGER_PID=$!
	cd "$(dirname "$drv")"
	start_run --count $n "$OBJS/usdt_where.bpf.o"
	go
	wait_run
	expect_eq "$RUN_STATUS" 0 "exit status"
	expect_records $n 60
	seen=()
	while read -r line; do
		expect_eq "$(field "$line" 0 4)" "$TRIGGER_PID" "pid in '$line'"
		expect_eq "$(field "$line" 4 4)" 4 "bpf_usdt_arg_cnt()"
		i=$(s64 "$line" 8)
		expect_eq "$(s64 "$line" 16)" $((i * 1000 + 7)) "second argument (int at sp + offset) of hit $i"
		expect_eq "$(s64 "$line" 24)" $((i * -1000000007)) "third argument (long in memory) of hit $i"
		expect_eq "$(s64 "$line" 32)" -9 "fourth argument (the constant -9) of hit $i"
		expect_eq "$(s64 "$line" 40)" 8484 "bpf_usdt_arg_size() of the four arguments"
		expect_eq "$(s64 "$line" 48)" $((i * 1000 + 7)) "bpf_usdt_arg(ctx, 1) of hit $i"
		seen+=("$i")
	done <"$OUT"
	expect_eq "$(printf '%s\n' "${seen[@]}" | sort -n | xargs)" "1 2 3 4" "first arguments (long in a register)"
}

@test "usdt: without a tracer the semaphore stays down and the gated probe is not reached" {
	# the test VM has no binutils: there only the driver's side is checked
	if command -v readelf >/dev/null; then
		run readelf -n "$PROBE"
		assert_output --partial "Name: gated"
		assert_output --regexp "Semaphore: 0x0*[1-9a-f]"
	fi
	touch "$GO"
	run "$PROBE" "$GO" 3
	assert_success
	assert_output "gated 0"
}

@test "usdt: a probe the binary does not have is left out with one warning, others still attach" {
	command -v clang >/dev/null || skip "no clang here (the test VM has no compiler)"
	cat >"$BATS_TEST_TMPDIR/two.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/usdt.bpf.h>
char LICENSE[] SEC("license") = "GPL";
SEC("usdt/usdt_probe:bpfsdk:no_such_probe") int BPF_USDT(missing) { return 0; }
SEC("usdt/usdt_probe:bpfsdk:hit") int BPF_USDT(present, int i) { return i; }
SEC("usdt") int BPF_USDT(untargeted) { return 0; }
EOF
	clang -O2 -g -target bpf -D__TARGET_ARCH_x86 -Iinclude -idirafter /usr/include/"$(gcc -print-multiarch)" \
		-c "$BATS_TEST_TMPDIR/two.bpf.c" -o "$BATS_TEST_TMPDIR/two.bpf.o"
	cd "$(dirname "$PROBE")"
	run "$BPFSDK" run --duration 1 "$BATS_TEST_TMPDIR/two.bpf.o"
	assert_success
	assert_line --regexp "^warning: '.*two.bpf.o': program 'missing' \(section 'usdt/usdt_probe:bpfsdk:no_such_probe'\): left out: .*'usdt_probe' has no probe bpfsdk:no_such_probe"
	assert_line --regexp "^warning: '.*two.bpf.o': program 'untargeted' \(section 'usdt'\): left out: the section names no binary \(usdt/PATH:PROVIDER:NAME\): attach it with bsdk_prog_attach_usdt\(\)$"
	run "$BPFSDK" run --require-all --duration 1 "$BATS_TEST_TMPDIR/two.bpf.o"
	assert_failure
}

@test "usdt: a program without usdt.bpf.h's spec map is refused, saying what to include" {
	command -v clang >/dev/null || skip "no clang here (the test VM has no compiler)"
	cat >"$BATS_TEST_TMPDIR/bare.bpf.c" <<'EOF'
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
char LICENSE[] SEC("license") = "GPL";
SEC("usdt/usdt_probe:bpfsdk:hit") int bare(void *ctx) { return 0; }
EOF
	clang -O2 -g -target bpf -Iinclude -idirafter /usr/include/"$(gcc -print-multiarch)" \
		-c "$BATS_TEST_TMPDIR/bare.bpf.c" -o "$BATS_TEST_TMPDIR/bare.bpf.o"
	cd "$(dirname "$PROBE")"
	run "$BPFSDK" run --duration 1 "$BATS_TEST_TMPDIR/bare.bpf.o"
	assert_failure 1
	assert_output --partial "a USDT program needs the map '__bpf_usdt_specs': #include <bpf/usdt.bpf.h> and read the arguments with bpf_usdt_arg()"
}

@test "usdt: bsdk_prog_attach_usdt() attaches a target-less program in one process, with a cookie, until destroyed" {
	run "$BUILD/bin/usdt_api" "$OBJS/usdt_api.bpf.o"
	assert_success
	assert_line "bad-args ok"
	assert_line "error: program 'on_api_probe': a USDT probe needs a binary, a provider and a name"
	# three probes fired while attached, the last argument 1003, the cookie given
	assert_line "count 3 cookie 0x5eed arg 1003"
	# destroying the link detaches every site
	assert_line "after-destroy 3"
}
