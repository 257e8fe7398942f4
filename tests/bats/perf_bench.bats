#!/usr/bin/env bats
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
#
# bench/perf_bench as a smoke test: it runs every contender for a moment and
# reports a row for each. No figure is asserted - timings on a shared
# machine are not test results; `make bench` is where they are measured.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

CONTENDERS="ceiling-none ceiling-noop ceiling-perf-unread bsdk-perf-default bsdk-perf-tuned libbpf-perf-default libbpf-perf-wm limit-ringbuf-nowake libbpf-ringbuf bsdk-ringbuf bpfsdk-run-json"

setup() {
	BUILD=${BUILD:-build}
	BIN="$BUILD/bin/perf_bench"
	OBJ="$BUILD/bpf/perf_bench.bpf.o"
	[ -x "$BIN" ] || fail "$BIN is not built (run make)"
	[ -f "$OBJ" ] || fail "$OBJ is not built (run make)"
}

@test "perf_bench runs every contender and prints a row for each" {
	run "$BIN" --obj "$OBJ" --duration 0.05 --rounds 1 --latency 0.1 --idle 0.1
	echo "$output"
	assert_success
	assert_line --partial '| contender | produced/s | received/s'
	for c in $CONTENDERS; do
		assert_line --regexp "^\| $c \|"
		assert_line --regexp "^bench: name=$c rounds=1 "
	done
	# Consumers report what they received, latency at both rates and the
	# idle cost.
	for c in bsdk-perf-default bsdk-ringbuf limit-ringbuf-nowake; do
		assert_line --regexp "^bench: name=$c .* received_per_s=[0-9]+ .* ratio_limit=[0-9.]+ .* latency_p99_us=[0-9.]+ .* latency_full_p99_us=[0-9.]+ .* idle_cpu_us=[0-9.]+"
	done
	# The latency rounds: every consumer and both floors at each rate, with
	# the ratios to the pipe floor, and for consumers to the BPF floor and
	# to libbpf's consumer of the same channel.
	assert_line --partial '| rate/s | contender | p50 (range) | p99 (range) | p50 / pipe floor'
	for r in 100 1000 10000; do
		for c in floor-pipe floor-ringbuf-wake; do
			assert_line --regexp "^bench: latency name=$c rate=$r rounds=1 .* p99_us=[0-9.]+ .* p99_vs_pipe=[0-9.]+$"
		done
		for c in bsdk-perf-default bsdk-perf-tuned libbpf-perf-default libbpf-perf-wm limit-ringbuf-nowake libbpf-ringbuf bsdk-ringbuf; do
			assert_line --regexp "^bench: latency name=$c rate=$r rounds=1 secs=[0-9.]+ samples=[1-9][0-9]* .* cpu_pct=[0-9.]+ p50_vs_pipe=[0-9.]+ p99_vs_pipe=[0-9.]+ p99_vs_bpf_floor=[0-9.]+ p99_vs_libbpf_same=[0-9.]+$"
		done
	done
	refute_line --regexp '^bench: latency name=(ceiling|bpfsdk-run-json)'
	# bpfsdk run as a consumer, in a process of its own
	assert_line --regexp '^bench: name=bpfsdk-run-json .* received_per_s=[0-9]+ '
	assert_line --regexp '^bpfsdk-run-json / bsdk-perf-default received/s: [0-9.]+'
}

@test "perf_bench --only runs just the named contenders" {
	run "$BIN" --obj "$OBJ" --duration 0.05 --rounds 2 --latency 0 --idle 0 \
		--only ceiling-noop,bsdk-perf-default
	assert_success
	assert_line --regexp '^bench: name=bsdk-perf-default rounds=2 '
	refute_line --regexp '^bench: name=libbpf'
	refute_line --regexp '^bench: latency '
}

@test "perf_bench --rates chooses the latency rounds' rates, --rate joins them" {
	run "$BIN" --obj "$OBJ" --duration 0.05 --rounds 2 --latency 0.05 --idle 0 \
		--only floor-pipe,bsdk-ringbuf --rates 200 --rate 300
	assert_success
	for c in floor-pipe bsdk-ringbuf; do
		assert_line --regexp "^bench: latency name=$c rate=200 rounds=2 "
		assert_line --regexp "^bench: latency name=$c rate=300 rounds=2 "
	done
	refute_line --regexp '^bench: latency .* rate=1000 '
	assert_line --regexp '^bench: name=bsdk-ringbuf rounds=2 .* latency_rate=300 '
	run "$BIN" --rates 100,x
	assert_failure 2
	assert_output --partial 'error: --rates'
}

@test "perf_bench usage errors exit 2 with a message" {
	run "$BIN" --only nosuch
	assert_failure 2
	assert_output --partial "error: --only: unknown contender 'nosuch'"
	run "$BIN" --pages 3
	assert_failure 2
	assert_output --partial 'error: --pages 3 is not a power of two'
	run "$BIN" --help
	assert_success
	assert_output --partial 'usage: perf_bench'
}
