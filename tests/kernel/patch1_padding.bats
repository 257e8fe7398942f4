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

# The contract, in one place.
padded_raw_size() {
	echo $(( ($1 + 4 + 7) / 8 * 8 - 4 ))
}

# check_sizes: every "size=" line of $output against the formula; the
# padding bytes are checked by the caller through $1 (a function name).
check_sizes() {
	local line size raw hdr pad want sizes=0
	while IFS= read -r line; do
		size=$(field "$line" size)
		raw=$(field "$line" raw_size)
		hdr=$(field "$line" header_size)
		pad=$(field "$line" padding)
		want=$(padded_raw_size "$size")
		expect "size $size: helper return" "$(field "$line" ret)" 0 || return 1
		expect "size $size: record type" "$(field "$line" record_type)" 9 || return 1
		expect "size $size: raw size" "$raw" "$want" || return 1
		expect "size $size: header size (8 header + 4 size + raw)" "$hdr" $((12 + want)) || return 1
		expect "size $size: header size modulo 8" $((hdr % 8)) 0 || return 1
		expect "size $size: payload bytes" "$(field "$line" payload)" ok || return 1
		expect "size $size: records per trigger" "$(( $(field "$line" extra_records) + 1 ))" 1 || return 1
		# The padding shown is raw size - size bytes, in hex.
		if [ "$want" -gt "$size" ]; then
			expect "size $size: padding length" $(( ${#pad} / 2 )) $((want - size)) || return 1
		else
			expect "size $size: padding" "$pad" - || return 1
		fi
		"$1" "$line" || return 1
		sizes=$((sizes + 1))
	done < <(grep '^size=' <<<"$output")
	expect "sizes checked" "$sizes" 64
}

padding_is_zero() {
	local pad
	pad=$(field "$1" padding)
	[ "$pad" = - ] && return 0
	[[ $pad =~ ^(00)+$ ]] || { echo "size $(field "$1" size): padding bytes: expected all zero, got $pad"; return 1; }
}

@test "patch 1: raw size is round_up(size + 4, 8) - 4 and the padding is zero, sizes 1..64 (fresh ring)" {
	probe sizes --from 1 --to 64
	note "$(where): size -> header size, raw size, padding bytes"
	grep '^size=' <<<"$output" | awk '{ printf "#   %s %s %s %s\n", $1, $4, $5, $7 }' >&3
	check_sizes padding_is_zero
}

# The 2015 patch wrote zeros into the padding. Since v4.8 (raw records
# built from fragments) perf_output_sample() skips over it instead, so
# after the ring wraps the padding holds what the ring held before. What
# must never appear is anything else: that would be kernel memory leaking.
padding_is_zero_or_untouched() {
	local pad before
	pad=$(field "$1" padding)
	before=$(field "$1" before)
	[ "$pad" = - ] && return 0
	[[ $pad =~ ^(00)+$ ]] && return 0
	[ "$pad" = "$before" ] ||
		{ echo "size $(field "$1" size): padding bytes: expected zeros or the ring's previous bytes '$before', got '$pad'"; return 1; }
}

@test "patch 1: after the ring wraps, padding is zeros or the ring's old bytes, never other memory" {
	local line pad before zeroed=0 kept=0 ambiguous=0
	probe wrap --from 1 --to 64
	grep -q '^filled=.* wrapped=yes' <<<"$output" || { echo "the ring did not wrap:"; echo "$output"; false; }
	check_sizes padding_is_zero_or_untouched
	# Which of the two the kernel does shows only where the old bytes
	# were not zero themselves.
	while IFS= read -r line; do
		pad=$(field "$line" padding)
		before=$(field "$line" before)
		if [ "$pad" = - ]; then
			continue
		elif [[ $before =~ ^(00)+$ ]]; then
			ambiguous=$((ambiguous + 1))
		elif [[ $pad =~ ^(00)+$ ]]; then
			zeroed=$((zeroed + 1))
		else
			kept=$((kept + 1))
		fi
	done < <(grep '^size=' <<<"$output")
	note "$(where): $(grep '^filled=' <<<"$output")"
	note "$(where): padding over non-zero old bytes: $zeroed zero-filled, $kept left as they were ($ambiguous landed on zeros)"
	note "  e.g. $(grep -m1 '^size=5 ' <<<"$output" | awk '{ print $1, $7, $8 }')"
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
	local line sent
	probe perfbuf --count 640
	line=$(grep '^cpus=' <<<"$output")
	note "$(where): $line"
	sent=$(field "$line" sent)
	[ "$sent" -gt 0 ] || { echo "expected records to be sent, got sent=$sent"; false; }
	expect "records sent" "$sent" $(( 640 * $(field "$line" cpus) ))
	expect "records received" "$(field "$line" received)" "$sent"
	expect "records with a wrong size or bytes" "$(field "$line" bad)" 0
	expect "records lost" "$(field "$line" lost)" 0
}
