# tests/bats/cli_common.bash - what the bpfsdk CLI suites share: where the
# programs are, running `bpfsdk run` in the background while a driver
# fires the hook, and reading fields out of its hex records.
#
# Run from the repository root; BUILD says where make put its output.

load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

# existing PATH: its absolute path (busybox's realpath, in the VM, has no -e).
existing() {
	[ -e "$1" ] && realpath "$1"
}

cli_setup() {
	BUILD=${BUILD:-build}
	# absolute: the uprobe tests run bpfsdk from another directory
	BPFSDK=$(existing "$BUILD/bin/bpfsdk") ||
		fail "$BUILD/bin/bpfsdk is not built (run make)"
	TRIGGER=$(existing "$BUILD/bin/cli_trigger") ||
		fail "$BUILD/bin/cli_trigger is not built (run make)"
	OBJS=$(existing "$BUILD/bpf/tests") ||
		fail "$BUILD/bpf/tests is not built (run make)"
	OUT="$BATS_TEST_TMPDIR/records"
	ERR="$BATS_TEST_TMPDIR/stderr"
	GO="$BATS_TEST_TMPDIR/go"
}

cli_teardown() {
	# a test that failed half-way must not leave processes behind
	[ -n "${RUN_PID:-}" ] && kill "$RUN_PID" 2>/dev/null
	[ -n "${TRIGGER_PID:-}" ] && kill "$TRIGGER_PID" 2>/dev/null
	return 0
}

# start_trigger STEP...: start the driver; it waits for "$GO" before its
# first step. Sets TRIGGER_PID, the pid its records must carry.
start_trigger() {
	rm -f "$GO"
	"$TRIGGER" --go "$GO" "$@" &
	TRIGGER_PID=$!
}

# start_run ARGS...: `bpfsdk run -v ARGS` in the background (a 30 s safety
# timeout in case it never stops), records to $OUT, messages to $ERR;
# returns once it says it is streaming. Sets RUN_PID. Records are hex (the
# suites read their bytes with field) unless ARGS choose a format or an
# option that decodes them.
start_run() {
	local a fmt=(--format hex)
	for a in "$@"; do
		case $a in
		-f|--format|--format=*|-t|--type|--type=*|--sort-by|--sort-by=*|--durations) fmt=() ;;
		esac
	done
	"$BPFSDK" run -v "${fmt[@]}" "$@" >"$OUT" 2>"$ERR" &
	RUN_PID=$!
	for _ in $(seq 300); do
		grep -q '^streaming:' "$ERR" && return 0
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$ERR" >&2
	fail "bpfsdk run did not start streaming"
}

# wait_run: wait for bpfsdk (at most 30 s), then for the driver. Sets
# RUN_STATUS and shows what bpfsdk printed, for failing tests.
wait_run() {
	local i
	for i in $(seq 300); do
		kill -0 "$RUN_PID" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$RUN_PID" 2>/dev/null; then
		kill -KILL "$RUN_PID"
		fail "bpfsdk run did not stop within 30 s"
	fi
	wait "$RUN_PID"
	RUN_STATUS=$?
	RUN_PID=
	[ -n "${TRIGGER_PID:-}" ] && wait "$TRIGGER_PID"
	echo "--- records:"; cat "$OUT"
	echo "--- stderr:"; cat "$ERR"
}

# go: let the driver fire.
# wait_streaming STDERR PID: until `bpfsdk run` has said 'streaming:' in
# STDERR, PID has ended, or 2 minutes have passed (under TCG, loading many
# programs against the kernel's BTF takes a while). Status 0 when it said so.
wait_streaming() {
	for _ in $(seq 1200); do
		grep -q '^streaming:' "$1" && return 0
		kill -0 "$2" 2>/dev/null || return 1
		sleep 0.1
	done
	return 1
}

go() {
	touch "$GO"
}

# wait_lines N [PATTERN]: until $OUT has at least N lines, or N lines
# that match the grep PATTERN (at most 10 s).
wait_lines() {
	local n=0
	for _ in $(seq 100); do
		if [ -n "${2:-}" ]; then
			n=$(grep -c -- "$2" "$OUT") || true
		else
			n=$(wc -l <"$OUT")
		fi
		[ "$n" -ge "$1" ] && return 0
		sleep 0.1
	done
	fail "expected $1 ${2:+lines matching '$2'}${2:-records} in 10 s, got $n: $(head -c 2000 "$OUT")"
}

# le HEX: the little-endian unsigned integer written as HEX, in decimal.
le() {
	local h=$1 r= i
	for ((i = ${#h} - 2; i >= 0; i -= 2)); do r+=${h:i:2}; done
	echo $((16#$r))
}

# field LINE OFFSET SIZE: the integer at byte OFFSET of a hex record line
# ("MAP CPU SIZE BYTES").
field() {
	local hex
	hex=$(awk '{ print $4 }' <<<"$1")
	[ ${#hex} -ge $((2 * ($2 + $3))) ] ||
		fail "record '$1' is shorter than $(($2 + $3)) bytes"
	le "${hex:$((2 * $2)):$((2 * $3))}"
}

# hex_string HEX: the NUL-terminated string HEX encodes (a char array of
# a record).
hex_string() {
	local h=$1 s= i
	for ((i = 0; i < ${#h}; i += 2)); do
		[ "${h:i:2}" = 00 ] && break
		s+=$(printf "\\x${h:i:2}")
	done
	echo "$s"
}

# expect_eq ACTUAL EXPECTED WHAT
expect_eq() {
	[ "$1" = "$2" ] || fail "$3: got '$1', expected '$2'"
}

# expect_records N: exactly N lines in $OUT, each from map events with
# record size SIZE ($2), and the summary says so.
expect_records() {
	local n=$1 size=$2 line
	expect_eq "$(wc -l <"$OUT")" "$n" "records printed"
	while read -r line; do
		read -r map cpu sz _ <<<"$line"
		expect_eq "$map" events "map name in '$line'"
		[[ $cpu =~ ^[0-9]+$ ]] || fail "CPU '$cpu' in '$line' is not a number"
		expect_eq "$sz" "$size" "size in '$line'"
	done <"$OUT"
	grep -qx "received $n, lost 0" "$ERR" ||
		fail "no 'received $n, lost 0' in: $(cat "$ERR")"
}

# cstr LINE OFFSET SIZE: the NUL-terminated string in bytes OFFSET to
# OFFSET + SIZE of a hex record line.
cstr() {
	local hex out="" i b
	hex=$(awk '{ print $4 }' <<<"$1")
	hex=${hex:$((2 * $2)):$((2 * $3))}
	for ((i = 0; i < ${#hex}; i += 2)); do
		b=${hex:i:2}
		[ "$b" = 00 ] && break
		out+=$(printf "\\x$b")
	done
	printf '%s\n' "$out"
}
