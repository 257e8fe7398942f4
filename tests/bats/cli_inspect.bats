#!/usr/bin/env bats
# bpfsdk inspect: the tables and the JSON document describe the object as
# llvm's own tools see it (section sizes, function sizes), every map with
# its origin, the relocations and helpers of each program, and the
# warnings a learner needs.

load cli_common

setup() {
	cli_setup
	command -v llvm-readelf >/dev/null || fail "llvm-readelf is missing (install llvm)"
}

# insns SECTION OBJECT: instructions in an ELF section, by llvm-readelf.
section_insns() {
	local size
	size=$(llvm-readelf -S --wide "$2" |
		awk -v s="$1" '{ for (i = 1; i < NF; i++) if ($i == s) { print $(i + 4); exit } }')
	[ -n "$size" ] || fail "no section '$1' in $2"
	echo $((16#$size / 8))
}

# func_insns NAME OBJECT: instructions of function symbol NAME.
func_insns() {
	local size
	size=$(llvm-readelf -s --wide "$2" | awk -v f="$1" '$4 == "FUNC" && $8 == f { print $3 }')
	[ -n "$size" ] || fail "no function '$1' in $2"
	echo $((size / 8))
}

@test "inspect: object header, program and map tables with their headers" {
	obj="$OBJS/cli_btfmaps.bpf.o"
	run "$BPFSDK" inspect "$obj"
	echo "$output"
	assert_success
	assert_line "object   $obj"
	assert_line "license  GPL (GPL-compatible)"
	assert_line "BTF      yes"
	assert_line "programs: 1"
	assert_line --regexp '^  NAME +SECTION +TYPE +ATTACH TARGET +INSNS +LINKED +FUNC INFO +LINE INFO$'
	n=$(section_insns tracepoint/syscalls/sys_enter_getppid "$obj")
	assert_line --regexp "^  count_in_hash +tracepoint/syscalls/sys_enter_getppid +tracepoint +syscalls/sys_enter_getppid +$n +$n +1 +[1-9][0-9]*$"
	assert_line "maps: 3"
	assert_line --regexp '^  NAME +TYPE +KEY +VALUE +MAX ENTRIES +ORIGIN$'
	assert_line --regexp '^  events +perf_event_array +4 +4 +0 +\.maps$'
	assert_line --regexp '^  calls +hash +4 +8 +1024 +\.maps$'
	assert_line --regexp '^  \.rodata +array +4 +4 +1 +\.rodata$'
	assert_line "warnings: 0"
}

@test "inspect: global data maps, one per section, sized by their variables" {
	run "$BPFSDK" inspect "$OBJS/cli_globals.bpf.o"
	assert_success
	assert_line --regexp '^  \.rodata +array +4 +4 +1 +\.rodata$'
	assert_line --regexp '^  \.data +array +4 +4 +1 +\.data$'
	assert_line --regexp '^  \.bss +array +4 +8 +1 +\.bss$'
	# each variable's ld_imm64 is a data relocation into its map
	assert_line --regexp '^ +[0-9]+ +data +target_pid +\.rodata\+0$'
	assert_line --regexp '^ +[0-9]+ +data +cookie +\.data\+0$'
	assert_line --regexp '^ +[0-9]+ +data +hits +\.bss\+0$'
	assert_line --regexp '^ +[0-9]+ +map +events +map events$'
}

@test "inspect: legacy maps come from the maps section" {
	run "$BPFSDK" inspect "$OBJS/cli_legacy.bpf.o"
	assert_success
	assert_line --regexp '^  events +perf_event_array +4 +4 +0 +maps$'
	assert_line --regexp '^  counter +array +4 +8 +1 +maps$'
}

@test "inspect: subprograms are appended when linked, calls point at them" {
	obj="$OBJS/cli_subprog.bpf.o"
	run "$BPFSDK" inspect "$obj"
	echo "$output"
	assert_success
	own=$(func_insns call_subprogs "$obj")
	linked=$((own + $(func_insns mix "$obj") + $(func_insns emit "$obj")))
	assert_line --regexp "^  call_subprogs +tracepoint/\S+ +tracepoint +\S+ +$own +$linked +3 +[0-9]+$"
	assert_line "program 'call_subprogs': $linked instructions linked, 4 relocations, 2 helpers"
	assert_line --regexp '^  INSN +KIND +SYMBOL +TARGET$'
	# the first subprogram lands right after the program's own code
	calls=$(grep -E '^ +[0-9]+ +call ' <<<"$output")
	expect_eq "$(wc -l <<<"$calls")" 2 "call relocations"
	grep -Eq "^ +[0-9]+ +call +(mix|emit) +insn $own$" <<<"$calls" ||
		fail "no call to insn $own (the first appended subprogram) in: $calls"
	# the map relocation inside emit() is in the linked program, past own
	emit_map=$(awk '$2 == "map" && $3 == "events" { print $1 }' <<<"$output")
	[ -n "$emit_map" ] && [ "$emit_map" -ge "$own" ] ||
		fail "map relocation at insn '$emit_map', expected >= $own (inside emit)"
	assert_line '  helpers: bpf_get_current_pid_tgid#14, bpf_perf_event_output#25 (GPL-only)'
}

@test "inspect: uprobe and uretprobe targets" {
	run "$BPFSDK" inspect "$OBJS/cli_uprobe.bpf.o"
	assert_success
	assert_line --regexp '^  on_entry +uprobe/cli_trigger:cli_uprobe_hit +uprobe +cli_trigger:cli_uprobe_hit +[0-9]+'
	assert_line --regexp '^  on_return +uretprobe/cli_trigger:cli_uprobe_hit +uprobe +cli_trigger:cli_uprobe_hit +[0-9]+'
}

@test "inspect: warns about a missing license and a missing perf map" {
	run "$BPFSDK" inspect "$OBJS/cli_nolicense.bpf.o"
	assert_success
	assert_line "license  none"
	assert_line "warnings: 2"
	assert_line --regexp '^  no license: '
	assert_line --regexp "^  no perf_event_array or ringbuf map: "
}

@test "inspect: warns about a GPL-only helper under a non-GPL license" {
	run "$BPFSDK" inspect "$OBJS/cli_proprietary.bpf.o"
	assert_success
	assert_line "license  Proprietary (not GPL-compatible)"
	assert_line "warnings: 1"
	assert_line --regexp "^  program 'gpl_helper_without_gpl' calls bpf_perf_event_output\(\), .* license is 'Proprietary': it will not load$"
}

@test "inspect: no warning for a perf_event program, which run samples itself" {
	run "$BPFSDK" inspect "$OBJS/cli_perf_event.bpf.o"
	assert_success
	assert_line --regexp '^  on_sample +perf_event +perf_event +- +'
	refute_line --regexp "program 'on_sample'.*will leave it out"
}

@test "inspect --json: one valid document with the same facts" {
	obj="$OBJS/cli_subprog.bpf.o"
	run "$BPFSDK" inspect --json "$obj"
	assert_success
	own=$(func_insns call_subprogs "$obj")
	python3 - "$output" "$obj" "$own" <<'PY'
import json, sys
doc, obj, own = json.loads(sys.argv[1]), sys.argv[2], int(sys.argv[3])
def eq(actual, expected, what):
    if actual != expected:
        sys.exit(f"{what}: got {actual!r}, expected {expected!r}")
eq(doc["object"], obj, "object")
eq(doc["license"], "GPL", "license")
eq(doc["gpl_compatible"], True, "gpl_compatible")
eq(doc["btf"], True, "btf")
eq([p["name"] for p in doc["programs"]], ["call_subprogs"], "programs")
p = doc["programs"][0]
eq(p["section"], "tracepoint/syscalls/sys_enter_getppid", "section")
eq(p["type"], "tracepoint", "type")
eq(p["attach_target"], "syscalls/sys_enter_getppid", "attach_target")
eq(p["instructions"], own, "instructions")
eq(p["func_info"], 3, "func_info: the program and two subprograms")
eq(sorted(r["kind"] for r in p["relocations"]), ["call", "call", "data", "map"], "relocation kinds")
eq(sorted(r["symbol"] for r in p["relocations"] if r["kind"] == "call"), ["emit", "mix"], "callees")
eq(min(r["target_insn"] for r in p["relocations"] if r["kind"] == "call"), own, "first callee")
eq([(h["id"], h["name"], h["gpl_only"]) for h in p["helpers"]],
   [(14, "bpf_get_current_pid_tgid", False), (25, "bpf_perf_event_output", True)], "helpers")
maps = {m["name"]: m for m in doc["maps"]}
eq(sorted(maps), [".rodata", "events"], "maps")
eq((maps["events"]["type"], maps["events"]["origin"], maps["events"]["key_size"]),
   ("perf_event_array", ".maps", 4), "events")
eq(doc["warnings"], [], "warnings")
print("json ok")
PY
}

@test "inspect --json: warnings and maps of other objects" {
	run "$BPFSDK" inspect --json "$OBJS/cli_proprietary.bpf.o"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d["license"] == "Proprietary" and d["gpl_compatible"] is False, d
assert len(d["warnings"]) == 1 and "bpf_perf_event_output" in d["warnings"][0], d["warnings"]
' "$output"
	run "$BPFSDK" inspect --json "$OBJS/cli_legacy.bpf.o"
	assert_success
	python3 -c '
import json, sys
d = json.loads(sys.argv[1])
got = sorted((m["name"], m["type"], m["origin"], m["value_size"], m["max_entries"]) for m in d["maps"])
want = [(".rodata", "array", ".rodata", 4, 1), ("counter", "array", "maps", 8, 1),
        ("events", "perf_event_array", "maps", 4, 0)]
assert got == want, f"got {got}, expected {want}"
' "$output"
}

@test "inspect --json: strings from the file are escaped into valid JSON" {
	# the object's name is its path: quotes, a backslash, control bytes and
	# a byte that is not UTF-8 must all come out as a valid JSON string
	# that gives the path back (the byte as \udce9: Python's argv form)
	name=$'odd "name" \\ tab\t bell\a nl\n latin1\xe9 utf8-\xc3\xa9.o'
	cp "$OBJS/cli_globals.bpf.o" "$BATS_TEST_TMPDIR/$name"
	run "$BPFSDK" inspect --json "$BATS_TEST_TMPDIR/$name"
	assert_success
	python3 -c '
import json, os, sys
doc = json.loads(sys.argv[1])
want = sys.argv[2]
got = doc["object"]
assert got == want, f"got {got!r}, expected {want!r}"
assert os.fsencode(got) == os.fsencode(want)
' "$output" "$BATS_TEST_TMPDIR/$name"
	# and raw control bytes never reach the document
	run grep -c $'[\a\t]' <<<"$output"
	expect_eq "$output" 0 "lines with raw control bytes"
}

@test "inspect: control bytes from the file never reach the terminal" {
	name=$'esc\e[31mred\a\x01.o'
	cp "$OBJS/cli_globals.bpf.o" "$BATS_TEST_TMPDIR/$name"
	run "$BPFSDK" inspect "$BATS_TEST_TMPDIR/$name"
	assert_success
	assert_line "object   $BATS_TEST_TMPDIR/esc?[31mred??.o"
	run grep -c $'[\e\a\x01]' <<<"$output"
	expect_eq "$output" 0 "lines with raw control bytes"
}

@test "inspect: works without privileges, creating nothing in the kernel" {
	command -v setpriv >/dev/null || skip "setpriv (util-linux) is missing"
	dir=$(mktemp -d)
	cp "$OBJS/cli_btfmaps.bpf.o" "$dir/"
	chmod 755 "$dir"
	chmod 644 "$dir/cli_btfmaps.bpf.o"
	run setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$BPFSDK" inspect "$dir/cli_btfmaps.bpf.o"
	rm -rf "$dir"
	echo "$output"
	assert_success
	assert_line --regexp '^  calls +hash +4 +8 +1024 +\.maps$'
}
