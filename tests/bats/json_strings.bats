#!/usr/bin/env bats
# json_strings.bats - one string policy for every JSON the project writes
# (docs/bpfsdk-run.md, "Strings in JSON"): the same 15 bytes that are not
# UTF-8 - 0xff, a sequence cut short, an overlong form, a surrogate in
# UTF-8, tab, carriage return, DEL, a quote, a backslash and a valid "é" -
# come out escaped the same way from `bpfsdk inspect --json` (the object's
# license, tests/bpf/json_bytes.bpf.c), `bpfsdk run --format json` (a
# record's command name and a .bss variable) and opensnoop --json (the
# command name and a path), and each decodes back to the exact bytes.

load cli_common

# The bytes, as the test's process names itself (PR_SET_NAME keeps 15),
# and their one JSON form.
BYTES='b"\xff\xe2\x82\xc0\xaf\xed\xa0\x80\t\r\x7f\"\\\xc3\xa9"'
ESCAPED='\udcff\udce2\udc82\udcc0\udcaf\udced\udca0\udc80\t\u000d\u007f\"\\é'

setup() {
	cli_setup
	OBJ="$OBJS/json_bytes.bpf.o"
	SNOOP_BIN="$BUILD/bin/opensnoop"
	[ -x "$SNOOP_BIN" ] || fail "$SNOOP_BIN is not built (run make)"
	SNOOP_OUT="$BATS_TEST_TMPDIR/snoop.out"
	SNOOP_ERR="$BATS_TEST_TMPDIR/snoop.err"
	SNOOP=
	NAMER=
}

teardown() {
	[ -z "$SNOOP" ] || kill "$SNOOP" 2>/dev/null
	[ -z "$NAMER" ] || kill "$NAMER" 2>/dev/null
	cli_teardown
}

# A python3 process that, on SIGUSR1, names itself with the bytes, calls
# getppid() (json_bytes.bpf.o's hook) and opens a file whose name holds the
# bytes too (opensnoop's), then exits. Its pid, in NAMER, is known before
# it does any of it; it blocks the signal before saying "ready".
start_namer() {
	local ready="$BATS_TEST_TMPDIR/namer.ready"
	python3 -c '
import ctypes, os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGUSR1])
print("ready", flush=True)
signal.sigwait([signal.SIGUSR1])
name = '"$BYTES"'
if ctypes.CDLL(None).prctl(15, name, 0, 0, 0) != 0:
    sys.exit("prctl(PR_SET_NAME) failed")
os.getppid()
path = os.fsencode(sys.argv[1]) + b"/" + name + b"-file"
with open(path, "wb"):
    pass
' "$BATS_TEST_TMPDIR" >"$ready" 3>&- &
	NAMER=$!
	for _ in $(seq 100); do
		grep -q ready "$ready" && return 0
		sleep 0.1
	done
	fail "the namer process did not start"
}

@test "inspect --json, run --format json and opensnoop --json escape the same bytes the same way" {
	start_namer
	start_run --format json --set target_pid="$NAMER" --count 1 --maps .bss "$OBJ"
	"$SNOOP_BIN" --json --pid "$NAMER" --duration 30 >"$SNOOP_OUT" 2>"$SNOOP_ERR" 3>&- &
	SNOOP=$!
	for _ in $(seq 100); do
		grep -q '^opensnoop: tracing openat' "$SNOOP_ERR" && break
		kill -0 "$SNOOP" 2>/dev/null || break
		sleep 0.1
	done
	grep -q '^opensnoop: tracing openat' "$SNOOP_ERR" ||
		fail "opensnoop did not start: $(cat "$SNOOP_ERR")"

	kill -USR1 "$NAMER"
	wait "$NAMER" || fail "the namer process failed"
	NAMER=
	wait_run
	[ "$RUN_STATUS" -eq 0 ] || fail "bpfsdk run exited with $RUN_STATUS"
	kill -INT "$SNOOP"
	wait "$SNOOP" || fail "opensnoop exited with $?: $(cat "$SNOOP_ERR")"
	SNOOP=
	"$BPFSDK" inspect --json "$OBJ" >"$BATS_TEST_TMPDIR/inspect.json" ||
		fail "bpfsdk inspect --json failed"
	echo "--- opensnoop:"; cat "$SNOOP_OUT"

	run python3 - "$BATS_TEST_TMPDIR" "$ESCAPED" <<PY
import json, os, re, sys
d, escaped = sys.argv[1], sys.argv[2]
want = $BYTES

def lines(name):
    with open(os.path.join(d, name), encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            try:
                yield line, json.loads(line)
            except ValueError as e:
                sys.exit(f"{name} line {n} is not JSON ({e}): {line!r}")

def same(where, line, key, value, bytes_want, tail=""):
    # the same escapes, to the letter, in the text of this key's value, and
    # the same bytes once decoded
    form = '"' + key + '": ?"[^"]*' + re.escape(escaped + tail) + '"'
    if not re.search(form, line):
        sys.exit(f"{where}: {escaped} is not the text of {key} in {line!r}")
    if os.fsencode(value) != bytes_want:
        sys.exit(f"{where}: decodes to {os.fsencode(value)!r}, not {bytes_want!r}")
    print(f"{where}: ok")

with open(os.path.join(d, "inspect.json"), encoding="utf-8") as f:
    text = f.read()
doc = json.loads(text)
line = next(l for l in text.splitlines() if '"license"' in l)
same("inspect --json license", line, "license", doc["license"], want)

run = list(lines("records"))
rec = [(l, v) for l, v in run if v.get("@map") == "events"]
bss = [(l, v) for l, v in run if v.get("@map") == ".bss"]
if len(rec) != 1 or len(bss) != 1:
    sys.exit(f"run: {len(rec)} records and {len(bss)} .bss lines, expected 1 and 1")
same("run record comm", rec[0][0], "comm", rec[0][1]["comm"], want)
if rec[0][1]["cut"] != "a":
    sys.exit(f"run: a char array does not end at its first NUL: {rec[0][1]['cut']!r}")
same("run .bss last_comm", bss[0][0], "last_comm", bss[0][1]["value"]["last_comm"], want)

snoop = [(l, v) for l, v in lines("snoop.out")
         if v["path"] and os.fsencode(v["path"]).endswith(want + b"-file")]
if len(snoop) != 1:
    sys.exit(f"opensnoop: {len(snoop)} lines open the file, expected 1")
same("opensnoop comm", snoop[0][0], "comm", snoop[0][1]["comm"], want)
same("opensnoop path", snoop[0][0], "path", snoop[0][1]["path"],
     os.fsencode(d) + b"/" + want + b"-file", "-file")
PY
	echo "$output"
	assert_success
}
