// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_options.c - `bpfsdk run`'s options, one row each: what run_args.c
 * parses and what --help's OPTIONS section says, in that order. Rows
 * without help are named on the next row's line; a second row of a name
 * (--metrics systemd) only documents another form of its value.
 */
#include "bpfsdk.h"
#include "cli/common/cli.h"
#include "run_state.h"

const struct bsdk_opt run_options[] = {
	{ "set", 's', BSDK_OPT_STRING, .id = OPT_SET, .arg = "NAME=VALUE",
	  .help =
	"Before loading, set the global variable NAME (in .rodata, .data or\n"
	".bss) to VALUE: a decimal or 0x-prefixed hexadecimal integer, or a\n"
	"negative decimal. The variable must be 1, 2, 4 or 8 bytes; VALUE\n"
	"must fit into it, and is stored in the host's byte order, which is\n"
	"the BPF program's. This is how a `const volatile` knob of the\n"
	"program is configured: the verifier sees the value as a constant.\n"
	"A variable no instruction reads is refused (a plain `const` knob,\n"
	"whose value the compiler folded into the code). Repeat for several\n"
	"variables." },
	{ "count", 'c', BSDK_OPT_STRING, .id = OPT_COUNT, .arg = "N",
	  .help = "Stop after printing N records (N >= 1)." },
	{ "duration", 'd', BSDK_OPT_STRING, .id = OPT_DURATION, .arg = "SEC",
	  .help = "Stop after SEC seconds (a decimal number, e.g. 2 or 0.5)." },
	{ "pages", 'p', BSDK_OPT_STRING, .id = OPT_PAGES, .arg = "N",
	  .help =
	"Size of each CPU's ring in pages, a power of two. Default: 8 MiB\n"
	"split across the possible CPUs, 16 to 256 pages each (-v says\n"
	"what was chosen).\n"
	"Larger rings lose fewer records when they come in bursts." },
	{ "format", 'f', BSDK_OPT_STRING, .id = OPT_FORMAT, .arg = "hex|text|json",
	  .help =
	"How records are printed. Default: text when the record type of\n"
	"every perf_event_array and ringbuf map is known before its first\n"
	"record (BPFSDK_RECORD() on the map, or the variable the programs\n"
	"send, from the object's DWARF: clang -g), else hex.\n"
	"\n"
	"hex: one line per record,\n"
	"\n"
	"    MAP CPU SIZE BYTES\n"
	"\n"
	"MAP the map's name, CPU the ring it came from (-1 for a ringbuf,\n"
	"one ring for all CPUs), SIZE the size the kernel reports (for a\n"
	"perf ring the bytes sent, padded so that the 4-byte size plus the\n"
	"data make a multiple of 8), BYTES two hex digits per byte in\n"
	"memory order.\n"
	"\n"
	"text: aligned columns under a header (CPU and the struct's\n"
	"members) when the record is flat and one map streams; otherwise\n"
	"'MAP CPU name=value ...', nested as {a=1 b=2} and [1, 2]. A ring\n"
	"buffer's records have no CPU: it is left blank.\n"
	"\n"
	"json: JSON Lines, one object per record whose keys are the\n"
	"struct's members (jq -r .comm reads one), and \"@map\" (the map's\n"
	"name) and \"@cpu\", which no C member can be called: jq reads\n"
	"them as .\"@cpu\" (null for a ring buffer's). Strings are\n"
	"escaped, bytes that are not UTF-8 as \\udcXX; records without a\n"
	"type carry \"@size\" and \"@hex\"." },
	{ "type", 't', BSDK_OPT_STRING, .id = OPT_TYPE, .arg = "[MAP=]NAME",
	  .help =
	"Decode the records of map MAP (of every map, without MAP=) as the\n"
	"struct, union or typedef NAME of the object's BTF. Repeatable.\n"
	"Not with --format hex, like the next three." },
	{ "timestamp", 'T', BSDK_OPT_FLAG, .id = OPT_TIMESTAMP,
	  .help =
	"Add the wall-clock time each record was read: HH:MM:SS.uuuuuu in\n"
	"front (text, hex), \"@time\" in seconds since the epoch (json);\n"
	"a time line before each map view." },
	{ "durations", 0, BSDK_OPT_FLAG, .id = OPT_DURATIONS,
	  .help =
	"Text: show u64 members whose name ends in _ns as durations\n"
	"(1.250ms)." },
	{ "raw", 0, BSDK_OPT_FLAG, .id = OPT_RAW },
	{ "field", 0, BSDK_OPT_STRING, .id = OPT_FIELD, .arg = "NAME=raw|addr|host",
	  .help =
	"Addresses and ports as stored: every member, or member NAME; addr\n"
	"shows NAME as an IPv4/IPv6 address, host a big-endian NAME in host\n"
	"order. By default the BTF and the kernel fields the programs read\n"
	"decide (docs/bpfsdk-run.md, \"Addresses and ports\")." },
	{ "sort-by", 0, BSDK_OPT_STRING, .id = OPT_SORT_BY, .arg = "FIELD",
	  .help =
	"Merge the CPUs' perf rings in the order of FIELD, a u64 timestamp\n"
	"member of the record type (e.g. from bpf_ktime_get_ns()): each\n"
	"drain's records come out oldest first. Needs the type up front\n"
	"(BPFSDK_RECORD(), the struct the programs send, or --type)." },
	{ "interval", 'i', BSDK_OPT_STRING, .id = OPT_INTERVAL, .arg = "SEC",
	  .help = "Print the map views every SEC seconds too, not only at the end." },
	{ "clear", 0, BSDK_OPT_FLAG, .id = OPT_CLEAR,
	  .help =
	"Empty the viewed maps after each print (hash entries deleted,\n"
	"array values zeroed): each interval shows its own events." },
	{ "maps", 'm', BSDK_OPT_STRING, .id = OPT_MAPS, .arg = "NAME[,NAME]...",
	  .help = "The maps to view; each must be a hash or array map." },
	{ "top", 0, BSDK_OPT_STRING, .id = OPT_TOP, .arg = "N",
	  .help = "Show the N largest entries of each table." },
	{ "unit", 0, BSDK_OPT_STRING, .id = OPT_UNIT, .arg = "NAME",
	  .help = "The unit of the histograms' values, for their header." },
	{ "per-cpu", 0, BSDK_OPT_FLAG, .id = OPT_PER_CPU,
	  .help = "Show per-CPU maps' values one CPU at a time instead of summed." },
	{ "metrics", 0, BSDK_OPT_STRING, .id = OPT_METRICS, .arg = "ADDR:PORT",
	  .help =
	"Serve the viewed maps (the maps MAP VIEWS prints) and the records'\n"
	"counts as Prometheus metrics at http://ADDR:PORT/metrics while the\n"
	"program runs: ':PORT' or 'PORT' listens on 127.0.0.1 only, another\n"
	"address must be named (0.0.0.0:PORT for every interface); port 0\n"
	"takes a free one. The address served is said on standard error.\n"
	"Names, units and labels come from the maps' BTF: docs/metrics.md.\n"
	"A render serves every scrape for 1 s, gzipped for a client that\n"
	"takes gzip; connections are kept alive, and bounded per client and\n"
	"in time (headers in 5 s): docs/metrics.md, Limits." },
	{ "metrics-file", 0, BSDK_OPT_STRING, .id = OPT_METRICS_FILE, .arg = "PATH",
	  .help =
	"Write the same metrics to PATH every --interval (default 15 s) and\n"
	"at the end, atomically (a temporary file beside it, then rename):\n"
	"for node_exporter's textfile collector (PATH ending in .prom)." },
	{ "metrics-prefix", 0, BSDK_OPT_STRING, .id = OPT_METRICS_PREFIX, .arg = "NAME",
	  .help = "The metrics' first word (default bpfsdk): NAME_MAP." },
	{ "metrics-max-series", 0, BSDK_OPT_STRING, .id = OPT_METRICS_MAX, .arg = "N",
	  .help =
	"At most N keys of each map as series (default 10000); the others\n"
	"are added up into one series labelled overflow=\"true\"." },
	{ "metrics-gauges", 0, BSDK_OPT_STRING, .id = OPT_METRICS_GAUGES, .arg = "MAP[,MAP]...",
	  .help =
	"These maps' integers are gauges, not counters (as are those of\n"
	"maps whose names end in _gauge)." },
	{ "web-config", 0, BSDK_OPT_STRING, .id = OPT_WEB_CONFIG, .arg = "FILE" },
	{ "web.config.file", 0, BSDK_OPT_STRING, .id = OPT_WEB_CONFIG, .arg = "FILE",
	  .help =
	"Serve --metrics under a web configuration file, the YAML of\n"
	"Prometheus exporters (node_exporter's --web.config.file):\n"
	"tls_server_config (cert_file, key_file, client_ca_file,\n"
	"client_auth_type, min_version, max_version) for HTTPS, and\n"
	"basic_auth_users (USER: bcrypt hash) for basic auth. The file and\n"
	"every certificate and key it names are read and checked before\n"
	"the object is opened: a fault is one error line (exit 2)." },
	{ "user", 0, BSDK_OPT_STRING, .id = OPT_USER, .arg = "NAME",
	  .help =
	"Once the programs are attached and the readers are set up, switch\n"
	"to user NAME (its uid, gid and groups). Either way, run then drops\n"
	"every capability and sets no_new_privs: reading maps and rings\n"
	"through the descriptors it holds needs none (docs/metrics.md)." },
	{ "metrics", 0, BSDK_OPT_STRING, .id = OPT_METRICS, .arg = "systemd",
	  .help =
	"Serve on the socket systemd passes (LISTEN_FDS, LISTEN_PID: a\n"
	".socket unit), so that a unit binds a port without privileges." },
	{ "freq", 'F', BSDK_OPT_STRING, .id = OPT_FREQ, .arg = "HZ",
	  .help =
	"The sampling rate of perf_event programs' CPU-clock events\n"
	"(default 49)." },
	{ "btf", 0, BSDK_OPT_STRING, .id = OPT_BTF, .arg = "FILE",
	  .help =
	"Resolve CO-RE relocations and BTF-typed attach points against the\n"
	"kernel BTF in FILE (raw BTF, as /sys/kernel/btf/vmlinux) instead of\n"
	"the running kernel's: for kernels without /sys/kernel/btf." },
	{ "program", 0, BSDK_OPT_STRING, .id = OPT_PROGRAM, .arg = "GLOB" },
	{ "no-program", 0, BSDK_OPT_STRING, .id = OPT_NO_PROGRAM, .arg = "GLOB",
	  .help =
	"Load only the programs whose name a --program GLOB matches (all,\n"
	"without one), none that a --no-program GLOB matches: a shell\n"
	"wildcard pattern (fnmatch(3)), e.g. 'handle_*'. Repeatable; a\n"
	"GLOB that matches no program is an error. -v says each program\n"
	"left out." },
	{ "all-twins", 0, BSDK_OPT_FLAG, .id = OPT_ALL_TWINS,
	  .help = "Attach every twin (see Twins above), not one of each group." },
	{ "max-entries", 0, BSDK_OPT_STRING, .id = OPT_MAX_ENTRIES, .arg = "MAP=N",
	  .help =
	"Create map MAP with N entries (1 to 4294967295) instead of the\n"
	"object's max_entries. A hash, array, LRU or stack trace map whose\n"
	"max_entries is 0 in the object (its tool sizes it) gets 10240\n"
	"otherwise, and a stack trace map without a value size 127\n"
	"addresses of 8 bytes; -v says so. Repeatable." },
	{ "no-trace-pipe", 0, BSDK_OPT_FLAG, .id = OPT_NO_TRACE_PIPE,
	  .help = "Leave the trace pipe to another reader: bpf_printk() lines not relayed." },
	{ "require-all", 0, BSDK_OPT_FLAG, .id = OPT_REQUIRE_ALL,
	  .help =
	"Every program must be attached: the first one that cannot be is\n"
	"an error (exit 1), before anything is loaded when that is known\n"
	"then; a program the verifier rejects is an error too, with the\n"
	"end of its log." },
	{ "verbose", 'v', BSDK_OPT_FLAG, .id = OPT_VERBOSE,
	  .help =
	"Say what is loaded and attached; twice (-vv), every step of the\n"
	"loader, and the whole verifier log when a program is rejected." },
	{ "help", 'h', BSDK_OPT_FLAG, .id = OPT_HELP,
	  .help = "Show this text and exit." },
	{ 0 },
};
