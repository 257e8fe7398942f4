#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# Patch 1/3, "perf: pad raw data samples automatically": the kernel pads a
# raw sample so that the u32 size field plus the data end on 8 bytes, and
# reports the padded size: raw size = round_up(size + 4, 8) - 4. Records
# stay 8-byte aligned in the ring whatever a program sends.

load helpers

setup() {
	kern_setup
}

# check_sizes PADDING: check every "size=" line of the driver's $output
# against the contract and print one line per violation, expected and
# actual; nothing when all hold. PADDING says what the padding bytes must
# be: "zero", or "zero-or-old" (zeros or the bytes the ring held before).
#
# One awk program rather than a shell loop: bats traces every shell command
# of a test, which costs about 10 ms a command under qemu's emulation.
check_sizes() {
	awk -v padding="$1" '
	function round_up(x, a) { return int((x + a - 1) / a) * a }
	function bad(what, want, got) {
		printf "size %d: %s: expected %s, got %s\n", f["size"], what, want, got
	}
	/^size=/ {
		delete f
		for (i = 1; i <= NF; i++)
			if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
		size = f["size"] + 0
		# The contract: raw size = round_up(size + 4, 8) - 4.
		want = round_up(size + 4, 8) - 4
		if (f["ret"] != "0") bad("helper return", 0, f["ret"])
		if (f["record_type"] != "9") bad("record type (PERF_RECORD_SAMPLE)", 9, f["record_type"])
		if (f["raw_size"] != want) bad("raw size", want, f["raw_size"])
		if (f["header_size"] != 12 + want) bad("header size (8 header + 4 size + raw)", 12 + want, f["header_size"])
		if (f["header_size"] % 8) bad("header size modulo 8", 0, f["header_size"] % 8)
		if (f["payload"] != "ok") bad("payload bytes", "ok", f["payload"])
		if (f["extra_records"] != "0") bad("records per trigger", 1, f["extra_records"] + 1)
		# The padding is shown as raw size - size bytes in hex, "-" for
		# none.
		pad = f["padding"]
		npad = pad == "-" ? 0 : length(pad) / 2
		if (npad != want - size) bad("padding bytes", want - size, npad)
		zero = pad == "-" || pad ~ /^(00)+$/
		if (padding == "zero" && !zero)
			bad("padding", "all zero", pad)
		if (padding == "zero-or-old" && !zero && pad != f["before"])
			bad("padding", "zeros or the old bytes " f["before"], pad)
		sizes++
	}
	END { if (sizes != 64) printf "sizes checked: expected 64, got %d\n", sizes }
	' <<<"$output"
}

@test "patch 1: raw size is round_up(size + 4, 8) - 4 and the padding is zero, sizes 1..64 (fresh ring)" {
	local violations
	probe sizes --from 1 --to 64
	note "$(where): size -> header size, raw size, padding bytes"
	awk '/^size=/ { printf "#   %s %s %s %s\n", $1, $4, $5, $7 }' <<<"$output" >&3
	violations=$(check_sizes zero)
	[ -z "$violations" ] || { echo "$violations"; false; }
}

# The 2015 patch wrote zeros into the padding. Since v4.8 (raw records
# built from fragments) perf_output_sample() skips over it instead, so
# after the ring wraps the padding holds what the ring held before. What
# must never appear is anything else: that would be kernel memory leaking.
@test "patch 1: after the ring wraps, padding is zeros or the ring's old bytes, never other memory" {
	local violations counts zeroed kept ambiguous
	probe wrap --from 1 --to 64
	[[ $output == *$'\nfilled='*' wrapped=yes '* ]] || { echo "the ring did not wrap:"; echo "$output"; false; }
	violations=$(check_sizes zero-or-old)
	[ -z "$violations" ] || { echo "$violations"; false; }
	# Which of the two the kernel does shows only where the old bytes
	# were not zero themselves.
	counts=$(awk '/^size=/ {
		for (i = 1; i <= NF; i++) if (split($i, kv, "=") == 2) f[kv[1]] = kv[2]
		if (f["padding"] == "-") next
		if (f["before"] ~ /^(00)+$/) ambiguous++
		else if (f["padding"] ~ /^(00)+$/) zeroed++
		else kept++
	} END { printf "%d %d %d\n", zeroed, kept, ambiguous }' <<<"$output")
	read -r zeroed kept ambiguous <<<"$counts"
	note "$(where): $(grep '^filled=' <<<"$output")"
	note "$(where): padding over non-zero old bytes: $zeroed zero-filled, $kept left as they were ($ambiguous landed on zeros)"
	note "  e.g. $(awk '/^size=5 / { print $1, $7, $8 }' <<<"$output")"
	if [ "$kept" -gt 0 ] && [ "$zeroed" -eq 0 ]; then
		note "  -> this kernel skips over the padding (as since v4.8), where the 2015 patch wrote zeros"
	elif [ "$zeroed" -gt 0 ] && [ "$kept" -eq 0 ]; then
		note "  -> this kernel zero-fills the padding, as the 2015 patch did"
	else
		echo "expected the kernel to either always zero or always skip the padding, got $zeroed zeroed and $kept skipped"
		false
	fi
}

@test "patch 1: the library's reader reports the padded size for every record on every CPU" {
	local sent
	probe perfbuf --count 640
	lines cpus=
	note "$(where): ${L[0]:-}"
	fields "${L[0]:-}"
	sent=${F[sent]:-0}
	[ "$sent" -gt 0 ] || { echo "expected records to be sent, got sent=$sent"; false; }
	expect "records sent" "$sent" $(( 640 * F[cpus] ))
	expect "records received" "${F[received]}" "$sent"
	expect "records with a wrong size or bytes" "${F[bad]}" 0
	expect "records lost" "${F[lost]}" 0
}
