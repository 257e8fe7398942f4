// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run_args.c - `bpfsdk run`'s command line: the help text, the options,
 * their checks, and --set, which stores a value in a global variable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfsdk.h"
#include "cli.h"
#include "run_state.h"

const char run_usage[] =
"NAME\n"
"    bpfsdk run - load a BPF object, attach its programs, print their records\n"
"    and the maps that hold their results\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk run [--set NAME=VALUE]... [--count N] [--duration SEC]\n"
"               [--pages N] [--format hex|text|json] [--type [MAP=]NAME]...\n"
"               [--timestamp] [--durations] [--sort-by FIELD] [--raw]\n"
"               [--field NAME=raw|addr|host]...\n"
"               [--interval SEC] [--clear] [--maps NAME,...] [--top N]\n"
"               [--unit NAME] [--per-cpu] [--freq HZ] [--btf FILE]\n"
"               [--metrics ADDR:PORT] [--metrics-file PATH]\n"
"               [--metrics-prefix NAME] [--metrics-max-series N]\n"
"               [--metrics-gauges MAP,...] [--program GLOB]...\n"
"               [--no-program GLOB]... [--all-twins] [--max-entries MAP=N]...\n"
"               [--require-all] [-v]... OBJECT.o\n"
"\n"
"DESCRIPTION\n"
"    Opens OBJECT.o, gives the global variables named with --set their\n"
"    values, creates the maps, loads every program and attaches each where\n"
"    its section name says (the names libbpf uses):\n"
"\n"
"        tracepoint/CAT/NAME, tp/CAT/NAME     a kernel tracepoint\n"
"        raw_tracepoint/NAME, raw_tp/NAME     a raw tracepoint; with .w\n"
"        raw_tp.w/NAME, raw_tracepoint.w/     (writable) its arguments too\n"
"        kprobe/FUNC[+OFF], kretprobe/FUNC    a kernel function\n"
"        ksyscall/NAME, kretsyscall/NAME      a system call's entry symbol\n"
"                                             (__x64_sys_NAME on x86_64)\n"
"        tp_btf/NAME                          a tracepoint, typed by BTF\n"
"        fentry/FUNC, fexit/FUNC, fmod_ret/   a kernel function, through\n"
"                                             the BPF trampoline\n"
"        lsm/HOOK                             a security hook (BPF LSM)\n"
"        iter/NAME (iter/task, ...)           an iterator: run reads its\n"
"                                             output to the end, to stdout\n"
"        uprobe/PATH:FUNC[+OFF], uretprobe/   a function of a program or\n"
"        uprobe.s/, uretprobe.s/ (sleepable)  library (PATH relative to the\n"
"                                             current directory, or absolute:\n"
"                                             uprobe//usr/bin/bash:readline)\n"
"        usdt/PATH:PROVIDER:NAME              every site of a USDT probe (the\n"
"                                             <sys/sdt.h> kind), semaphore\n"
"                                             raised; usdt.bpf.h reads the\n"
"                                             arguments\n"
"\n"
"    fentry.s/, fexit.s/, fmod_ret.s/, lsm.s/, iter.s/ are the sleepable\n"
"    forms. tp_btf, fentry, fexit, fmod_ret, lsm and iter targets are\n"
"    looked up in the kernel's BTF (see --btf). When only iterators were\n"
"    attached, run exits after reading them.\n"
"\n"
"    Load-only: these are loaded but not attached, since their section\n"
"    does not say where (the library has calls for that):\n"
"\n"
"        uprobe, uretprobe, uprobe/FUNC       no binary: bsdk_prog_attach_uprobe()\n"
"        usdt                                 no binary: bsdk_prog_attach_usdt()\n"
"        socket, tc, classifier, xdp          a socket or network interface\n"
"\n"
"    A perf_event program gets a sampling event of run's own: the CPU clock\n"
"    of every online CPU at --freq HZ (49 by default), as profilers use.\n"
"\n"
"    Attach policy: every program that can be attached is. One that\n"
"    cannot - a load-only kind, a tracepoint or function this kernel does\n"
"    not have, a BTF target missing from its BTF, a kind of probe it cannot\n"
"    attach (no kprobes) or refuses (fentry: EPERM) - is left out\n"
"    with one warning line naming the object, the program and why; what\n"
"    can be known before loading is left out before anything goes through\n"
"    the verifier. A program the verifier rejects is left out too, with\n"
"    one warning: its reason, and the C line it stopped at. run fails\n"
"    (exit 1) only when no program could be loaded or attached, or with\n"
"    --require-all at the first program left out or rejected.\n"
"\n"
"    Twins: programs that see one event through different kinds of hook\n"
"    are attached once, the best kind this kernel takes: fentry/FUNC and\n"
"    fmod_ret/FUNC, then ksyscall/NAME, then kprobe/FUNC on a function's\n"
"    entry (__x64_sys_NAME is the system call NAME); fexit, kretsyscall,\n"
"    kretprobe on its return; tp_btf/NAME, then raw_tp/NAME, then\n"
"    tracepoint/CAT/NAME on a tracepoint. Each twin left out is said with\n"
"    -v, and stands in when the one used is rejected or cannot attach.\n"
"    This is what the tools that carry such twins do (libbpf-tools); it\n"
"    keeps every event counted once. --all-twins attaches them all.\n"
"\n"
"    Then it reads every map of type perf_event_array - one ring per online\n"
"    CPU - and prints each record a program sends there with\n"
"    bpf_perf_event_output(); ringbuf maps (bpf_ringbuf_output()) are read\n"
"    too, a record at most 100 ms late when its producer passes\n"
"    BPF_RB_NO_WAKEUP (the kernel then wakes nobody). With --format text or json each record is decoded by the object's\n"
"    BTF (see RECORD TYPES). It stops when N records were printed, SEC\n"
"    seconds passed, or\n"
"    Ctrl-C (SIGINT) or SIGTERM arrives, detaches everything, removes the\n"
"    pins it made for maps pinned by name, prints\n"
"    'received N, lost M' to standard error - N records printed, M records\n"
"    the kernel dropped because a perf ring was full; only when a map\n"
"    streams records - and exits 0.\n"
"\n"
"    Before it stops it prints the maps that hold the programs' results\n"
"    (see MAP VIEWS), also every --interval.\n"
"\n"
"RECORD TYPES\n"
"    The type of a map's records is, in this order: the one --type gives;\n"
"    the struct BPFSDK_RECORD(NAME) names on the map (include/bpf/bpf_helpers.h);\n"
"    the struct of the variable the programs send to the map, from the\n"
"    object's DWARF (clang -g); the only struct of the program's own files\n"
"    whose size matches the first record (a perf ring pads records by up to\n"
"    7 bytes), never a kernel struct (vmlinux.h's, or one CO-RE reads). -v\n"
"    says which was chosen and where from. Without one the records are\n"
"    printed as hex, with a hint naming the candidates, if any. A\n"
"    record shorter than its type is an error (exit 1), except when it\n"
"    stops inside the type's last member, an array: programs that send\n"
"    only the used part of a path or buffer. Records longer than their type\n"
"    are decoded and counted in a warning at the end.\n"
"\n"
"MAP VIEWS\n"
"    The maps shown are the --maps ones or, for an object with no\n"
"    perf_event_array or ringbuf map, every hash and array map it defines\n"
"    and its global variables (.bss, .data; not .rodata), each section as\n"
"    its variables by name. A map whose value holds an integer array\n"
"    named 'slots' (BCC's log2 histograms) is drawn as a log2 chart per key,\n"
"    in the unit its name says (_us, usecs: usecs; _ns, nsecs; _ms, msecs)\n"
"    or --unit; any other map as a KEY VALUE table sorted by the value (its\n"
"    first integer member), largest first. Array entries that are all zero\n"
"    are not shown. Per-CPU values are summed unless --per-cpu. With\n"
"    --format json each entry is one line:\n"
"    {\"@map\":NAME,\"key\":KEY,\"value\":VALUE}.\n"
"\n"
"OPTIONS\n"
"    -s, --set NAME=VALUE\n"
"        Before loading, set the global variable NAME (in .rodata, .data or\n"
"        .bss) to VALUE: a decimal or 0x-prefixed hexadecimal integer, or a\n"
"        negative decimal. The variable must be 1, 2, 4 or 8 bytes; VALUE\n"
"        must fit into it, and is stored in the host's byte order, which is\n"
"        the BPF program's. This is how a `const volatile` knob of the\n"
"        program is configured: the verifier sees the value as a constant.\n"
"        A variable no instruction reads is refused (a plain `const` knob,\n"
"        whose value the compiler folded into the code). Repeat for several\n"
"        variables.\n"
"\n"
"    -c, --count N\n"
"        Stop after printing N records (N >= 1).\n"
"\n"
"    -d, --duration SEC\n"
"        Stop after SEC seconds (a decimal number, e.g. 2 or 0.5).\n"
"\n"
"    -p, --pages N\n"
"        Size of each CPU's ring in pages, a power of two. Default: 8 MiB\n"
"        split across the possible CPUs, 16 to 256 pages each (-v says\n"
"        what was chosen).\n"
"        Larger rings lose fewer records when they come in bursts.\n"
"\n"
"    -f, --format hex|text|json\n"
"        How records are printed. hex, the default: one line per record,\n"
"\n"
"            MAP CPU SIZE BYTES\n"
"\n"
"        MAP the map's name, CPU the ring it came from (-1 for a ringbuf,\n"
"        one ring for all CPUs), SIZE the size the kernel reports (for a\n"
"        perf ring the bytes sent, padded so that the 4-byte size plus the\n"
"        data make a multiple of 8), BYTES two hex digits per byte in\n"
"        memory order.\n"
"\n"
"        text: aligned columns under a header (CPU and the struct's\n"
"        members) when the record is flat and one map streams; otherwise\n"
"        'MAP CPU name=value ...', nested as {a=1 b=2} and [1, 2].\n"
"\n"
"        json: JSON Lines, one object per record whose keys are the\n"
"        struct's members (jq -r .comm reads one), and \"@map\" (the map's\n"
"        name) and \"@cpu\", which no C member can be called: jq reads\n"
"        them as .\"@cpu\". Strings are escaped, bytes that are not UTF-8\n"
"        as \\udcXX; records without a type carry \"@size\" and \"@hex\".\n"
"\n"
"    -t, --type [MAP=]NAME\n"
"        Decode the records of map MAP (of every map, without MAP=) as the\n"
"        struct, union or typedef NAME of the object's BTF. Repeatable.\n"
"        Needs --format text or json, like the next three.\n"
"\n"
"    -T, --timestamp\n"
"        Add the wall-clock time each record was read: HH:MM:SS.uuuuuu in\n"
"        front (text, hex), \"@time\" in seconds since the epoch (json);\n"
"        a time line before each map view.\n"
"\n"
"    --durations\n"
"        Text: show u64 members whose name ends in _ns as durations\n"
"        (1.250ms).\n"
"\n"
"    --raw, --field NAME=raw|addr|host\n"
"        Addresses and ports as stored: every member, or member NAME; addr\n"
"        shows NAME as an IPv4/IPv6 address, host a big-endian NAME in host\n"
"        order. By default the BTF and the kernel fields the programs read\n"
"        decide (docs/bpfsdk-run.md, \"Addresses and ports\").\n"
"\n"
"    --sort-by FIELD\n"
"        Merge the CPUs' perf rings in the order of FIELD, a u64 timestamp\n"
"        member of the record type (e.g. from bpf_ktime_get_ns()): each\n"
"        drain's records come out oldest first. Needs the type up front\n"
"        (BPFSDK_RECORD(), the struct the programs send, or --type).\n"
"\n"
"    -i, --interval SEC\n"
"        Print the map views every SEC seconds too, not only at the end.\n"
"\n"
"    --clear\n"
"        Empty the viewed maps after each print (hash entries deleted,\n"
"        array values zeroed): each interval shows its own events.\n"
"\n"
"    -m, --maps NAME[,NAME]...\n"
"        The maps to view; each must be a hash or array map.\n"
"\n"
"    --top N\n"
"        Show the N largest entries of each table.\n"
"\n"
"    --unit NAME\n"
"        The unit of the histograms' values, for their header.\n"
"\n"
"    --per-cpu\n"
"        Show per-CPU maps' values one CPU at a time instead of summed.\n"
"\n"
"    --metrics ADDR:PORT\n"
"        Serve the viewed maps (the maps MAP VIEWS prints) and the records'\n"
"        counts as Prometheus metrics at http://ADDR:PORT/metrics while the\n"
"        program runs: ':PORT' or 'PORT' listens on 127.0.0.1 only, another\n"
"        address must be named (0.0.0.0:PORT for every interface); port 0\n"
"        takes a free one. The address served is said on standard error.\n"
"        Names, units and labels come from the maps' BTF: docs/metrics.md.\n"
"\n"
"    --metrics-file PATH\n"
"        Write the same metrics to PATH every --interval (default 15 s) and\n"
"        at the end, atomically (a temporary file beside it, then rename):\n"
"        for node_exporter's textfile collector (PATH ending in .prom).\n"
"\n"
"    --metrics-prefix NAME\n"
"        The metrics' first word (default bpfsdk): NAME_MAP.\n"
"\n"
"    --metrics-max-series N\n"
"        At most N keys of each map as series (default 10000); the others\n"
"        are added up into one series labelled overflow=\"true\".\n"
"\n"
"    --metrics-gauges MAP[,MAP]...\n"
"        These maps' integers are gauges, not counters (as are those of\n"
"        maps whose names end in _gauge).\n"
"\n"
"    -F, --freq HZ\n"
"        The sampling rate of perf_event programs' CPU-clock events\n"
"        (default 49).\n"
"\n"
"    --btf FILE\n"
"        Resolve CO-RE relocations and BTF-typed attach points against the\n"
"        kernel BTF in FILE (raw BTF, as /sys/kernel/btf/vmlinux) instead of\n"
"        the running kernel's: for kernels without /sys/kernel/btf.\n"
"\n"
"    --program GLOB, --no-program GLOB\n"
"        Load only the programs whose name a --program GLOB matches (all,\n"
"        without one), none that a --no-program GLOB matches: a shell\n"
"        wildcard pattern (fnmatch(3)), e.g. 'handle_*'. Repeatable; a\n"
"        GLOB that matches no program is an error. -v says each program\n"
"        left out.\n"
"\n"
"    --all-twins\n"
"        Attach every twin (see Twins above), not one of each group.\n"
"\n"
"    --max-entries MAP=N\n"
"        Create map MAP with N entries (1 to 4294967295) instead of the\n"
"        object's max_entries. A hash, array, LRU or stack trace map whose\n"
"        max_entries is 0 in the object (its tool sizes it) gets 10240\n"
"        otherwise, and a stack trace map without a value size 127\n"
"        addresses of 8 bytes; -v says so. Repeatable.\n"
"\n"
"    --require-all\n"
"        Every program must be attached: the first one that cannot be is\n"
"        an error (exit 1), before anything is loaded when that is known\n"
"        then; a program the verifier rejects is an error too, with the\n"
"        end of its log.\n"
"\n"
"    -v, --verbose\n"
"        Say what is loaded and attached; twice (-vv), every step of the\n"
"        loader, and the whole verifier log when a program is rejected.\n"
"\n"
"    -h, --help\n"
"        Show this text and exit.\n"
"\n"
"    Records go to standard output, flushed after each batch, so that\n"
"    'bpfsdk run ... | head -5' stops as soon as head has its lines.\n"
"\n"
"EXIT STATUS\n"
"    0   stopped by --count, --duration, Ctrl-C, SIGTERM or a closed pipe\n"
"    1   the object could not be opened or loaded, no program could be\n"
"        loaded or attached (or, with --require-all, one could not, and a\n"
"        program the verifier rejects shows the end of its log); a\n"
"        record shorter than its type; a map that could not be read\n"
"    2   the command line is wrong, including a --set of a variable the\n"
"        object does not have or a value that does not fit it, a --type\n"
"        or --maps naming what the object does not have, a --program,\n"
"        --no-program or --max-entries that names no program or map of it\n"
"        or is malformed, a --sort-by\n"
"        field that is not a u64 member, --interval with no maps to show,\n"
"        --metrics with --clear, a --metrics address that is not one\n"
"    130, 143\n"
"        Ctrl-C (SIGINT) or SIGTERM arrived before the records streamed,\n"
"        while the object was opened, loaded (a slow verifier run stops at\n"
"        once) or attached; what was created is removed as on every exit\n"
"\n"
"EXAMPLES\n"
"    From the top of a bpfsdk clone after make, with build/bin on PATH\n"
"    (tests/bats/help_examples.bats runs each as written).\n"
"\n"
"    The first 10 records of the headline sample's program, from a dd\n"
"    started two seconds from now: the program keeps to the process whose\n"
"    pid is in its 'const volatile __u32 target_tgid', and exec keeps the\n"
"    pid that $! names:\n"
"        sh -c 'sleep 2; exec dd if=/dev/zero of=/dev/null bs=1 count=100' &\n"
"        bpfsdk run --set target_tgid=$! --count 10 build/bpf/trace_output.bpf.o\n"
"\n"
"    The files opened on the machine for 3 seconds, decoded, into jq:\n"
"        bpfsdk run --format json --duration 3 build/bpf/opensnoop.bpf.o | jq -r .path\n"
"\n"
"    A BCC-style histogram every second, each second's own, for 3 seconds:\n"
"        bpfsdk run --interval 1 --clear --duration 3 build/bpf/runqlat.bpf.o\n";

/* ---- the command line ---- */

enum {
	OPT_SET = 1, OPT_COUNT, OPT_DURATION, OPT_PAGES, OPT_FORMAT,
	OPT_VERBOSE, OPT_HELP, OPT_BTF, OPT_REQUIRE_ALL,
	OPT_TYPE, OPT_TIMESTAMP, OPT_SORT_BY, OPT_DURATIONS,
	OPT_INTERVAL, OPT_CLEAR, OPT_TOP, OPT_MAPS, OPT_UNIT, OPT_PER_CPU, OPT_FREQ,
	OPT_METRICS, OPT_METRICS_FILE, OPT_METRICS_PREFIX, OPT_METRICS_MAX, OPT_METRICS_GAUGES,
	OPT_ALL_TWINS, OPT_PROGRAM, OPT_NO_PROGRAM, OPT_MAX_ENTRIES, OPT_RAW, OPT_FIELD,
};

static const struct cli_option run_options[] = {
	{ "set",      's', true,  OPT_SET },
	{ "count",    'c', true,  OPT_COUNT },
	{ "duration", 'd', true,  OPT_DURATION },
	{ "pages",    'p', true,  OPT_PAGES },
	{ "format",   'f', true,  OPT_FORMAT },
	{ "verbose",  'v', false, OPT_VERBOSE },
	{ "require-all", 0, false, OPT_REQUIRE_ALL },
	{ "all-twins", 0,  false, OPT_ALL_TWINS },
	{ "program",  0,   true,  OPT_PROGRAM },
	{ "no-program", 0, true,  OPT_NO_PROGRAM },
	{ "max-entries", 0, true, OPT_MAX_ENTRIES },
	{ "help",     'h', false, OPT_HELP },
	{ "btf",      0,   true,  OPT_BTF },
	{ "type",     't', true,  OPT_TYPE },
	{ "timestamp", 'T', false, OPT_TIMESTAMP },
	{ "sort-by",  0,   true,  OPT_SORT_BY },
	{ "durations", 0,  false, OPT_DURATIONS },
	{ "raw",      0,   false, OPT_RAW },
	{ "field",    0,   true,  OPT_FIELD },
	{ "interval", 'i', true,  OPT_INTERVAL },
	{ "clear",    0,   false, OPT_CLEAR },
	{ "top",      0,   true,  OPT_TOP },
	{ "maps",     'm', true,  OPT_MAPS },
	{ "unit",     0,   true,  OPT_UNIT },
	{ "per-cpu",  0,   false, OPT_PER_CPU },
	{ "freq",     'F', true,  OPT_FREQ },
	{ "metrics",  0,   true,  OPT_METRICS },
	{ "metrics-file", 0, true, OPT_METRICS_FILE },
	{ "metrics-prefix", 0, true, OPT_METRICS_PREFIX },
	{ "metrics-max-series", 0, true, OPT_METRICS_MAX },
	{ "metrics-gauges", 0, true, OPT_METRICS_GAUGES },
	{ 0 },
};

/* Parse "[-]DIGITS" into a magnitude and a sign. */
static bool parse_set_value(const char *s, uint64_t *mag, bool *negative)
{
	*negative = s[0] == '-';
	/* "-0x10" would be odd; keep negatives decimal */
	if (*negative && (!(s[1] >= '0' && s[1] <= '9') || s[2] == 'x' || s[2] == 'X'))
		return false;
	return cli_parse_u64(s + *negative, mag);
}

static int check_set(const char *arg)
{
	const char *eq = strchr(arg, '=');
	uint64_t mag;
	bool neg;

	if (!eq || eq == arg)
		return cli_usage_error("run", "--set '%s' is not NAME=VALUE", arg);
	if (!parse_set_value(eq + 1, &mag, &neg))
		return cli_usage_error("run", "--set %.*s: '%s' is not a decimal or 0x hexadecimal integer",
				       (int)(eq - arg), arg, eq + 1);
	return 0;
}

/* A positive number of seconds, decimal. strtod takes "inf", "nan" and hex
 * floats: refuse them by asking for digits and at most one dot. */
static bool parse_seconds(const char *value, double *sec)
{
	char *end;

	errno = 0;
	*sec = strtod(value, &end);
	return !(errno || end == value || *end || strspn(value, "0123456789.") != strlen(value) ||
		 !(*sec > 0) || *sec > 1e9);
}

/* --metrics and the options that shape the metrics: 0, or EXIT_USAGE after the error line. */
static int parse_metrics_value(int opt, const char *value, struct run_args *a)
{
	uint64_t n;

	switch (opt) {
	case OPT_METRICS:
		if (!*value)
			return cli_usage_error("run", "--metrics needs ADDR:PORT, e.g. 127.0.0.1:9435");
		a->metrics.addr = value;
		break;
	case OPT_METRICS_FILE:
		if (!*value)
			return cli_usage_error("run", "--metrics-file needs a path");
		a->metrics.file = value;
		break;
	case OPT_METRICS_PREFIX:
		a->metrics.prefix = value;
		break;
	case OPT_METRICS_MAX:
		if (!cli_parse_u64(value, &n) || n == 0 || n > SIZE_MAX)
			return cli_usage_error("run", "--metrics-max-series '%s' is not a positive integer",
					       value);
		a->metrics.max_series = (size_t)n;
		break;
	case OPT_METRICS_GAUGES:
		if (!*value || value[0] == ',' || strstr(value, ",,") ||
		    value[strlen(value) - 1] == ',')
			return cli_usage_error("run", "--metrics-gauges '%s' is not MAP[,MAP]...", value);
		a->metrics.gauges = value;
		break;
	default:
		return EXIT_USAGE;
	}
	return 0;
}

/* An option whose value is checked: 0, or EXIT_USAGE after the error line
 * (also for an id that is none of them: OPT_ERROR, already said). */
static int parse_value(int opt, const char *value, struct run_args *a)
{
	uint64_t n;

	switch (opt) {
	case OPT_COUNT:
		if (!cli_parse_u64(value, &n) || n == 0)
			return cli_usage_error("run", "--count '%s' is not a positive integer",
					       value);
		a->count = n;
		break;
	case OPT_DURATION:
		if (!parse_seconds(value, &a->duration))
			return cli_usage_error("run", "--duration '%s' is not a positive number of seconds",
					       value);
		break;
	case OPT_PAGES:
		if (!cli_parse_u64(value, &n) || n == 0 ||
		    (n & (n - 1)) || n > (1u << 20))
			return cli_usage_error("run", "--pages '%s' is not a power of two between 1 and 1048576",
					       value);
		a->pages = (unsigned int)n;
		break;
	case OPT_FORMAT:
		if (strcmp(value, "hex") == 0)
			a->format = RECORD_HEX;
		else if (strcmp(value, "text") == 0)
			a->format = RECORD_TEXT;
		else if (strcmp(value, "json") == 0)
			a->format = RECORD_JSON;
		else
			return cli_usage_error("run", "--format '%s' is not one of hex, text, json",
					       value);
		break;
	case OPT_TYPE:
		if (!*value || value[0] == '=' || value[strlen(value) - 1] == '=')
			return cli_usage_error("run", "--type '%s' is not NAME or MAP=NAME", value);
		a->types[a->ntypes++] = value;
		break;
	case OPT_FIELD:
		if (decode_check_field(value))
			return EXIT_USAGE;
		a->fields[a->nfields++] = value;
		break;
	case OPT_INTERVAL:
		if (!parse_seconds(value, &a->interval))
			return cli_usage_error("run", "--interval '%s' is not a positive number of seconds",
					       value);
		break;
	case OPT_TOP:
		if (!cli_parse_u64(value, &n) || n == 0 || n > SIZE_MAX)
			return cli_usage_error("run", "--top '%s' is not a positive integer", value);
		a->views.top = (size_t)n;
		break;
	case OPT_MAPS:
		if (!*value || value[0] == ',' || strstr(value, ",,") ||
		    value[strlen(value) - 1] == ',')
			return cli_usage_error("run", "--maps '%s' is not NAME[,NAME]...", value);
		a->views.maps = value;
		break;
	case OPT_UNIT:
		if (!*value)
			return cli_usage_error("run", "--unit needs a name, e.g. usecs");
		a->views.unit = value;
		break;
	case OPT_FREQ:
		if (!cli_parse_u64(value, &n) || n == 0 || n > 100000)
			return cli_usage_error("run", "--freq '%s' is not a rate between 1 and 100000 Hz",
					       value);
		a->freq = (unsigned int)n;
		break;
	default:
		return parse_metrics_value(opt, value, a);
	}
	return 0;
}

/* The options that shape the metrics need one that exports them, and --clear goes with
 * neither: 0, or EXIT_USAGE after the error line. */
static int check_metrics_args(const struct run_args *a)
{
	if (!a->metrics.addr && !a->metrics.file &&
	    (a->metrics.prefix || a->metrics.max_series || a->metrics.gauges))
		return cli_usage_error("run", "--metrics-%s shapes the metrics: it needs --metrics or --metrics-file",
				       a->metrics.prefix ? "prefix" : a->metrics.max_series ?
				       "max-series" : "gauges");
	/* a counter only grows: emptied maps would make every scrape a reset */
	if ((a->metrics.addr || a->metrics.file) && a->views.clear)
		return cli_usage_error("run", "--clear empties the maps that --metrics%s exports as counters: drop one",
				       a->metrics.addr ? "" : "-file");
	return 0;
}

/* 0, or a usage error already printed (EXIT_USAGE), or -1 for --help. */
int run_parse_args(int argc, char **argv, struct run_args *a)
{
	const char *value;
	struct cli_opts o;
	int opt, ret;

	cli_opts_init(&o, "run", run_options, argc, argv);
	while ((opt = cli_opt_next(&o, &value)) != OPT_DONE) {
		switch (opt) {
		case OPT_ARG:
			if (a->path)
				return cli_usage_error("run", "one object at a time: '%s' and '%s'",
						       a->path, value);
			a->path = value;
			break;
		case OPT_SET:
			if (check_set(value))
				return EXIT_USAGE;
			/* argv outlives the command: keep pointers only */
			a->sets[a->nsets++] = value;
			break;
		case OPT_TIMESTAMP:
			a->timestamp = true;
			break;
		case OPT_DURATIONS:
			a->durations = true;
			break;
		case OPT_RAW:
			a->raw = true;
			break;
		case OPT_SORT_BY:
			a->sort_by = value;
			break;
		case OPT_CLEAR:
			a->views.clear = true;
			break;
		case OPT_PER_CPU:
			a->views.per_cpu = true;
			break;
		case OPT_VERBOSE:
			cli_verbosity++;
			break;
		case OPT_BTF:
			a->btf_path = value;
			break;
		case OPT_REQUIRE_ALL:
			a->attach_flags |= BSDK_ATTACH_REQUIRE_ALL;
			break;
		case OPT_ALL_TWINS:
			a->attach_flags |= BSDK_ATTACH_ALL_TWINS;
			break;
		case OPT_PROGRAM:
		case OPT_NO_PROGRAM:
			if (choose_check_glob("run", opt == OPT_PROGRAM ? "program" : "no-program", value))
				return EXIT_USAGE;
			a->choices[a->nchoices++] = (struct choice){ .glob = value, .keep = opt == OPT_PROGRAM };
			break;
		case OPT_MAX_ENTRIES:
			if (choose_check_size("run", value))
				return EXIT_USAGE;
			a->sizes[a->nsizes++] = value;
			break;
		case OPT_HELP:
			return -1;
		default:
			ret = parse_value(opt, value, a);
			if (ret)
				return ret;
			break;
		}
	}
	if (!a->path)
		return cli_usage_error("run", "no object file given");
	if (check_metrics_args(a))
		return EXIT_USAGE;
	if (a->format == RECORD_HEX && (a->ntypes || a->sort_by || a->durations))
		return cli_usage_error("run", "--%s decodes records: it needs --format text or json",
				       a->ntypes ? "type" : a->sort_by ? "sort-by" : "durations");
	return 0;
}

/* ---- configure: --set ---- */

/* Whether the global variable name lives in .rodata: a knob. */
static bool in_rodata(const struct bsdk_obj *obj, const char *name)
{
	const struct bsdk_map *map = bsdk_obj_map_find(obj, ".rodata");
	struct bsdk_global_info info;

	for (size_t i = 0; map && bsdk_map_global_var(map, i, &info) == 0; i++)
		if (strcmp(info.name, name) == 0)
			return true;
	return false;
}

int run_apply_set(struct bsdk_obj *obj, const char *arg)
{
	const char *eq = strchr(arg, '=');
	unsigned char bytes[8];
	char name[256];
	uint64_t mag, v, max;
	bool neg;
	int size, err;

	if ((size_t)(eq - arg) >= sizeof(name)) {
		cli_error("--set: variable name '%.*s...' is too long", 32, arg);
		return EXIT_USAGE;
	}
	memcpy(name, arg, (size_t)(eq - arg));
	name[eq - arg] = '\0';
	parse_set_value(eq + 1, &mag, &neg);	/* syntax checked already */

	size = bsdk_obj_global_size(obj, name);
	if (size < 0) {
		char hint[256];

		cli_error("--set %s: '%s' has no global variable '%s' in .rodata, .data or .bss%s",
			  name, bsdk_obj_name(obj), name, cli_global_hint(obj, name, hint, sizeof(hint)));
		return EXIT_USAGE;
	}
	if (bsdk_obj_global_readers(obj, name) == 0) {
		cli_error("--set %s: no instruction reads '%s', so setting it changes nothing%s",
			  name, name, in_rodata(obj, name) ?
			  ": the compiler folded a `const` into the code; declare it `const volatile`" : "");
		return EXIT_USAGE;
	}
	if (size != 1 && size != 2 && size != 4 && size != 8) {
		cli_error("--set %s: the variable is %d bytes; --set takes integers of 1, 2, 4 or 8 bytes",
			  name, size);
		return EXIT_USAGE;
	}
	/* In range means it fits as an unsigned or as a signed integer of
	 * that size: 255 and -1 are both fine for a byte. */
	max = size == 8 ? UINT64_MAX : (UINT64_C(1) << (8 * size)) - 1;
	if (neg ? mag > (UINT64_C(1) << (8 * size - 1)) : mag > max) {
		cli_error("--set %s: %s does not fit into the variable's %d byte%s",
			  name, eq + 1, size, size == 1 ? "" : "s");
		return EXIT_USAGE;
	}
	v = neg ? 0 - mag : mag;	/* two's complement, modulo 2^64 */
	/* the program reads it in the host's byte order */
	if (size == 1)
		bytes[0] = (uint8_t)v;
	else if (size == 2)
		memcpy(bytes, &(uint16_t){ (uint16_t)v }, 2);
	else if (size == 4)
		memcpy(bytes, &(uint32_t){ (uint32_t)v }, 4);
	else
		memcpy(bytes, &v, 8);
	err = bsdk_obj_set_global(obj, name, bytes, (size_t)size);
	if (err) {
		cli_error_unless_logged("--set %s: %s", name, bsdk_strerror(err));
		return EXIT_RUNTIME;
	}
	return 0;
}
