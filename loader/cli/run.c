// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * run.c - `bpfsdk run`: load an object, attach every program and print
 * every record its PERF_EVENT_ARRAY (and RINGBUF) maps receive.
 *
 * The story of a BPF tool in one function: open -> configure (--set) ->
 * load -> attach -> poll -> clean up. Ctrl-C and SIGTERM never end the
 * process from the handler: they set a flag that each step of open, load
 * and attach checks (a verifier run stops by itself when one arrives), and
 * that ends the poll loop, so that links and pins are removed and the
 * summary is printed on every way out.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>

#include "bpfsdk.h"
#include "cli.h"

static const char run_usage[] =
"NAME\n"
"    bpfsdk run - load a BPF object, attach its programs, print their records\n"
"    and the maps that hold their results\n"
"\n"
"SYNOPSIS\n"
"    bpfsdk run [--set NAME=VALUE]... [--count N] [--duration SEC]\n"
"               [--pages N] [--format hex|text|json] [--type [MAP=]NAME]...\n"
"               [--timestamp] [--durations] [--sort-by FIELD]\n"
"               [--interval SEC] [--clear] [--maps NAME,...] [--top N]\n"
"               [--unit NAME] [--per-cpu] [--freq HZ] [--btf FILE]\n"
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
"    the verifier. run fails (exit 1) only when no program could be\n"
"    attached, or with --require-all at the first program left out.\n"
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
"    the kernel dropped because a perf ring was full - and exits 0.\n"
"\n"
"    Before it stops it prints the maps that hold the programs' results\n"
"    (see MAP VIEWS), also every --interval.\n"
"\n"
"RECORD TYPES\n"
"    The type of a map's records is, in this order: the one --type gives;\n"
"    the struct BPFSDK_RECORD(NAME) names on the map (include/bpf_helpers.h);\n"
"    the only named struct of the object whose size matches the first\n"
"    record (a perf ring pads records by up to 7 bytes; -v says which was\n"
"    chosen). Without one the records are printed as hex, with a hint. A\n"
"    record shorter than its type is an error (exit 1), except when it\n"
"    stops inside the type's last member, an array: programs that send\n"
"    only the used part of a path or buffer. Records longer than their type\n"
"    are decoded and counted in a warning at the end.\n"
"\n"
"MAP VIEWS\n"
"    The maps shown are the --maps ones or, for an object with no\n"
"    perf_event_array or ringbuf map, every hash and array map it defines\n"
"    (not .rodata, .data, .bss). A map whose value holds an integer array\n"
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
"        Repeat for several variables.\n"
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
"    --sort-by FIELD\n"
"        Merge the CPUs' perf rings in the order of FIELD, a u64 timestamp\n"
"        member of the record type (e.g. from bpf_ktime_get_ns()): each\n"
"        drain's records come out oldest first. Needs the type up front\n"
"        (BPFSDK_RECORD() or --type).\n"
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
"    -F, --freq HZ\n"
"        The sampling rate of perf_event programs' CPU-clock events\n"
"        (default 49).\n"
"\n"
"    --btf FILE\n"
"        Resolve CO-RE relocations and BTF-typed attach points against the\n"
"        kernel BTF in FILE (raw BTF, as /sys/kernel/btf/vmlinux) instead of\n"
"        the running kernel's: for kernels without /sys/kernel/btf.\n"
"\n"
"    --require-all\n"
"        Every program must be attached: the first one that cannot be is\n"
"        an error (exit 1), before anything is loaded when that is known\n"
"        then.\n"
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
"        attached (or, with --require-all, one could not); a program\n"
"        the verifier rejects shows the end of the verifier's log; a\n"
"        record shorter than its type; a map that could not be read\n"
"    2   the command line is wrong, including a --set of a variable the\n"
"        object does not have or a value that does not fit it, a --type\n"
"        or --maps naming what the object does not have, a --sort-by\n"
"        field that is not a u64 member, --interval with no maps to show\n"
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

struct run_args {
	const char *path;
	const char *btf_path;	/* --btf */
	const char **sets;	/* "NAME=VALUE", checked for syntax */
	size_t nsets;
	const char **types;	/* --type NAME or MAP=NAME */
	size_t ntypes;
	enum record_format format;
	bool timestamp;		/* --timestamp */
	bool durations;		/* --durations */
	const char *sort_by;	/* --sort-by FIELD */
	double interval;	/* --interval SEC; 0: views at the end only */
	struct mapview_cfg views;	/* --clear, --top, --maps, --unit, --per-cpu */
	uint64_t count;		/* 0: no limit */
	double duration;	/* seconds; 0: no limit */
	unsigned int pages;	/* 0: the library's default */
	unsigned int attach_flags;	/* --require-all: BSDK_ATTACH_REQUIRE_ALL */
	unsigned int freq;	/* --freq: perf_event programs' sampling rate */
};

enum {
	OPT_SET = 1, OPT_COUNT, OPT_DURATION, OPT_PAGES, OPT_FORMAT,
	OPT_VERBOSE, OPT_HELP, OPT_BTF, OPT_REQUIRE_ALL,
	OPT_TYPE, OPT_TIMESTAMP, OPT_SORT_BY, OPT_DURATIONS,
	OPT_INTERVAL, OPT_CLEAR, OPT_TOP, OPT_MAPS, OPT_UNIT, OPT_PER_CPU, OPT_FREQ,
};

static const struct cli_option run_options[] = {
	{ "set",      's', true,  OPT_SET },
	{ "count",    'c', true,  OPT_COUNT },
	{ "duration", 'd', true,  OPT_DURATION },
	{ "pages",    'p', true,  OPT_PAGES },
	{ "format",   'f', true,  OPT_FORMAT },
	{ "verbose",  'v', false, OPT_VERBOSE },
	{ "require-all", 0, false, OPT_REQUIRE_ALL },
	{ "help",     'h', false, OPT_HELP },
	{ "btf",      0,   true,  OPT_BTF },
	{ "type",     't', true,  OPT_TYPE },
	{ "timestamp", 'T', false, OPT_TIMESTAMP },
	{ "sort-by",  0,   true,  OPT_SORT_BY },
	{ "durations", 0,  false, OPT_DURATIONS },
	{ "interval", 'i', true,  OPT_INTERVAL },
	{ "clear",    0,   false, OPT_CLEAR },
	{ "top",      0,   true,  OPT_TOP },
	{ "maps",     'm', true,  OPT_MAPS },
	{ "unit",     0,   true,  OPT_UNIT },
	{ "per-cpu",  0,   false, OPT_PER_CPU },
	{ "freq",     'F', true,  OPT_FREQ },
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

/* 0, or a usage error already printed (EXIT_USAGE), or -1 for --help. */
static int parse_args(int argc, char **argv, struct run_args *a)
{
	const char *value;
	struct cli_opts o;
	uint64_t n;
	int opt;

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
		case OPT_TIMESTAMP:
			a->timestamp = true;
			break;
		case OPT_DURATIONS:
			a->durations = true;
			break;
		case OPT_SORT_BY:
			a->sort_by = value;
			break;
		case OPT_INTERVAL:
			if (!parse_seconds(value, &a->interval))
				return cli_usage_error("run", "--interval '%s' is not a positive number of seconds",
						       value);
			break;
		case OPT_CLEAR:
			a->views.clear = true;
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
		case OPT_PER_CPU:
			a->views.per_cpu = true;
			break;
		case OPT_FREQ:
			if (!cli_parse_u64(value, &n) || n == 0 || n > 100000)
				return cli_usage_error("run", "--freq '%s' is not a rate between 1 and 100000 Hz",
						       value);
			a->freq = (unsigned int)n;
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
		case OPT_HELP:
			return -1;
		default:
			return EXIT_USAGE;
		}
	}
	if (!a->path)
		return cli_usage_error("run", "no object file given");
	if (a->format == RECORD_HEX && (a->ntypes || a->sort_by || a->durations))
		return cli_usage_error("run", "--%s decodes records: it needs --format text or json",
				       a->ntypes ? "type" : a->sort_by ? "sort-by" : "durations");
	return 0;
}

/* ---- configure: --set ---- */

static int apply_set(struct bsdk_obj *obj, const char *arg)
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
		cli_error("--set %s: '%s' has no global variable '%s' in .rodata, .data or .bss",
			  name, bsdk_obj_name(obj), name);
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

/* ---- iterators: read to the end, once ---- */

/* Copy the output of every attached iterator (iter/task, ...) to stdout;
 * the number of iterators, or -1 after an error line. */
static int print_iterators(struct bsdk_obj *obj)
{
	struct bsdk_prog *prog = NULL;
	char buf[16384];
	int n = 0;

	while ((prog = bsdk_obj_prog_next(obj, prog))) {
		struct bsdk_link *link;
		ssize_t got;
		int fd;

		if (bsdk_prog_expected_attach_type(prog) != BPF_TRACE_ITER ||
		    !(link = bsdk_prog_link(prog)))
			continue;
		fd = bsdk_link_iter_create(link);
		if (fd < 0)
			return -1;
		while ((got = read(fd, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
			if (got > 0 && fwrite(buf, 1, (size_t)got, stdout) != (size_t)got)
				break;
		if (got < 0)
			cli_error("program '%s': reading iterator '%s': %s", bsdk_prog_name(prog),
				  bsdk_prog_attach_target(prog), strerror(errno));
		close(fd);
		if (got < 0 || fflush(stdout) == EOF)
			return -1;
		n++;
	}
	return n;
}

/* ---- the poll loop ---- */

/* How late the records of a ringbuf producer that never wakes the reader may be. */
#define RUN_RINGBUF_IDLE_MS 100

/* A map being read: a perf_event_array (one ring per CPU) or a ringbuf
 * (one ring for all); the two readers have the same shape. */
struct stream {
	struct bsdk_perfbuf *pb;
	struct bsdk_ringbuf *rb;
	const char *map;
};

static int stream_epoll_fd(const struct stream *s)
{
	return s->pb ? bsdk_perfbuf_epoll_fd(s->pb) : bsdk_ringbuf_epoll_fd(s->rb);
}

static int stream_timeout_ms(const struct stream *s)
{
	return s->pb ? bsdk_perfbuf_timeout_ms(s->pb) : bsdk_ringbuf_timeout_ms(s->rb);
}

static int stream_consume(struct stream *s)
{
	return s->pb ? bsdk_perfbuf_consume(s->pb) : bsdk_ringbuf_consume(s->rb);
}

static void stream_free(struct stream *s)
{
	bsdk_perfbuf_free(s->pb);
	bsdk_ringbuf_free(s->rb);
}

struct run_state {
	struct stream *streams;
	size_t nstreams;
	uint64_t printed;
	uint64_t count;		/* 0: no limit */
	bool done;		/* --count reached */
	bool write_failed;
	int write_errno;	/* why, for the message */
	bool failed;		/* a record could not be decoded: said, stop */
	struct mapviews *views;	/* the result maps, printed at the end */
	int64_t interval_ms;	/* --interval: also every interval_ms */
	int64_t next_view;	/* when, on the now_ms() clock */
};

/* Each perfbuf gets its own ctx so that a record knows its map. */
struct sample_ctx {
	struct run_state *st;
	char *map;		/* record_map_label() of the map's name */
	struct decoder *dec;	/* prints its records */
};

static void on_sample(void *ctx, int cpu, const void *data, uint32_t size)
{
	struct sample_ctx *c = ctx;
	struct run_state *st = c->st;

	/* the rest of a batch after the N-th record is not printed */
	if (st->done || st->write_failed || st->failed)
		return;
	if (decoder_record(c->dec, stdout, cpu, data, size)) {
		st->failed = true;
		return;
	}
	if (++st->printed == st->count)
		st->done = true;
}

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * Wait on every reader's epoll fd at once (nested in one epoll set), and
 * at least every bsdk_perfbuf_timeout_ms() drain them all: the library's
 * latency bound holds with several maps too. The signals that stop the
 * loop are blocked everywhere except inside epoll_pwait(), so one that
 * arrives between a check and the wait still ends the wait at once.
 */
static int poll_loop(struct run_state *st, double duration,
		     const sigset_t *waitmask)
{
	/* at least 1 ms, so that a tiny --duration still polls once */
	int64_t deadline = duration > 0 ?
		now_ms() + (int64_t)(duration * 1000 + 0.5) + (duration < 0.001) : -1;
	struct epoll_event ev;
	int epfd, ret = 0;

	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0) {
		cli_error("cannot create an epoll set: %s", strerror(errno));
		return -1;
	}
	for (size_t i = 0; i < st->nstreams; i++) {
		ev.events = EPOLLIN;
		ev.data.u64 = i;
		if (epoll_ctl(epfd, EPOLL_CTL_ADD,
			      stream_epoll_fd(&st->streams[i]), &ev) < 0) {
			cli_error("map '%s': cannot watch its rings: %s",
				  st->streams[i].map, strerror(errno));
			close(epfd);
			return -1;
		}
	}

	while (!stop_signal && !st->done && !st->write_failed && !st->failed) {
		int timeout = -1, n;

		for (size_t i = 0; i < st->nstreams; i++) {
			int t = stream_timeout_ms(&st->streams[i]);

			if (t >= 0 && (timeout < 0 || t < timeout))
				timeout = t;
		}
		if (st->interval_ms) {
			int64_t left = st->next_view - now_ms();

			if (left <= 0) {
				if (mapviews_print(st->views, stdout)) {
					ret = -1;
					break;
				}
				st->next_view += st->interval_ms;
				left = st->next_view - now_ms();
				if (left < 0)
					left = 0;
			}
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		if (deadline >= 0) {
			int64_t left = deadline - now_ms();

			if (left <= 0)
				break;
			if (timeout < 0 || left < timeout)
				timeout = (int)left;
		}
		n = epoll_pwait(epfd, &ev, 1, timeout, waitmask);
		if (n < 0 && errno != EINTR) {
			cli_error("waiting for records: %s", strerror(errno));
			ret = -1;
			break;
		}
		for (size_t i = 0; i < st->nstreams && !st->done; i++) {
			n = stream_consume(&st->streams[i]);
			if (n < 0) {
				cli_error_unless_logged("map '%s': cannot read its rings: %s",
							st->streams[i].map, bsdk_strerror(n));
				ret = -1;
				break;
			}
		}
		/* one flush per batch: a pipe reader sees records promptly
		 * without a write per record */
		if (fflush(stdout) == EOF || ferror(stdout)) {
			st->write_failed = true;
			st->write_errno = errno;
		}
		if (ret)
			break;
	}
	close(epfd);
	return ret;
}

/* ---- the command ---- */

static int run_main(int argc, char **argv)
{
	struct run_args a = { .freq = 49 };
	struct run_state st = { 0 };
	struct sample_ctx *ctxs = NULL;
	size_t nmaps = 0;
	int nlinks, niters;
	struct bsdk_map *map = NULL;
	struct bsdk_obj *obj = NULL;
	sigset_t stopmask, waitmask;
	struct decode_cfg dcfg;
	int nsampled;
	struct sigaction sa;
	uint64_t lost = 0;
	int ret, err;

	a.sets = calloc((size_t)argc, sizeof(*a.sets));
	a.types = calloc((size_t)argc, sizeof(*a.types));
	if (!a.sets || !a.types) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	ret = parse_args(argc, argv, &a);
	if (ret) {
		if (ret < 0)
			cli_print_usage(&cmd_run);
		free(a.sets);
		free(a.types);
		return ret < 0 ? EXIT_OK : ret;
	}
	st.count = a.count;
	cli_log_init(cli_verbosity);

	/* Ctrl-C and SIGTERM only set a flag, checked after each step below
	 * (no SA_RESTART: a wait they interrupt returns); a closed stdout
	 * shows up as EPIPE from fflush, not as a signal. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);

	/* open */
	obj = bsdk_obj_open_opts(a.path, &(struct bsdk_obj_open_opts){
		.sz = sizeof(struct bsdk_obj_open_opts), .btf_path = a.btf_path });
	if (stop_signal)
		goto stopped;
	if (!obj) {
		cli_error_unless_logged("cannot open '%s': %s", a.path,
					bsdk_strerror(errno));
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* configure */
	for (size_t i = 0; i < a.nsets; i++) {
		ret = apply_set(obj, a.sets[i]);
		if (ret)
			goto out;
	}
	dcfg = (struct decode_cfg){
		.format = a.format, .types = a.types, .ntypes = a.ntypes,
		.timestamp = a.timestamp, .btf_flags = a.durations ? BSDK_BTF_DURATIONS : 0,
	};
	ret = decode_check_types(obj, &dcfg);
	if (ret)
		goto out;
	if (bsdk_obj_prog_next(obj, NULL) == NULL) {
		cli_error("'%s': no programs to run", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* leave out, before loading, what cannot be attached here */
	bsdk_bump_memlock();
	cli_log_demote_errors(true);	/* attach says it if tracefs is missing */
	bsdk_mount_fs();
	cli_log_demote_errors(false);
	nsampled = sampling_hold(obj);	/* run gives them an event of its own */
	err = bsdk_obj_attach_prepare(obj, a.attach_flags);
	sampling_release(obj);
	if (err >= 0)
		err += nsampled;
	if (stop_signal)
		goto stopped;
	if (err <= 0) {
		if (err == 0)
			cli_error("'%s': no program this kernel can attach", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* load: maps first, then each program through the verifier */
	err = bsdk_obj_load(obj);
	if (stop_signal)
		goto stopped;
	if (err) {
		cli_error_unless_logged("'%s': cannot load: %s", a.path,
					bsdk_strerror(err));
		ret = EXIT_RUNTIME;
		goto out;
	}

	/* perf_event programs sample the CPU clock; then attach every
	 * program that can be; the object owns the links */
	nsampled = nsampled ? sampling_attach(obj, a.freq) : 0;
	if (nsampled < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	nlinks = bsdk_obj_attach_all(obj, a.attach_flags);
	if (nlinks >= 0)
		nlinks += nsampled;
	if (stop_signal)
		goto stopped;
	if (nlinks <= 0) {
		if (nlinks == 0)
			cli_error("'%s': no program could be attached", a.path);
		ret = EXIT_RUNTIME;
		goto out;
	}
	/* an iterator is read, not waited for: with only those, that is all */
	niters = print_iterators(obj);
	if (niters < 0 || niters == nlinks) {
		ret = niters < 0 ? EXIT_RUNTIME : EXIT_OK;
		goto out;
	}

	/* a reader on every perf_event_array and ringbuf */
	while ((map = bsdk_obj_map_next(obj, map)))
		nmaps += bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY ||
			 bsdk_map_type(map) == BPF_MAP_TYPE_RINGBUF;
	st.streams = calloc(nmaps ? nmaps : 1, sizeof(*st.streams));
	ctxs = calloc(nmaps ? nmaps : 1, sizeof(*ctxs));
	if (!st.streams || !ctxs) {
		cli_error("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	dcfg.columns = nmaps == 1;	/* columns when one stream has them alone */
	while ((map = bsdk_obj_map_next(obj, map))) {
		struct sample_ctx *c;
		struct stream *s;

		if (bsdk_map_type(map) != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		    bsdk_map_type(map) != BPF_MAP_TYPE_RINGBUF)
			continue;
		c = &ctxs[st.nstreams];
		s = &st.streams[st.nstreams];
		c->st = &st;
		c->map = record_map_label(bsdk_map_name(map));
		if (!c->map) {
			cli_error("out of memory");
			ret = EXIT_RUNTIME;
			goto out;
		}
		s->map = c->map;
		c->dec = decoder_new(obj, map, c->map, &dcfg);
		if (!c->dec) {
			ret = EXIT_RUNTIME;
			goto out;
		}
		if (bsdk_map_type(map) == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			struct bsdk_perfbuf_opts opts = {
				.sz = sizeof(opts), .pages = a.pages,
				.on_sample = on_sample, .ctx = c,
			};
			int ts_offset = 0;

			/* the rings' k-way merge orders each drain by the field */
			if (a.sort_by) {
				ts_offset = decoder_field_offset(c->dec, a.sort_by);
				if (ts_offset < 0) {
					ret = EXIT_USAGE;
					goto out;
				}
				opts.merge_by_ts = true;
				opts.ts_offset = (unsigned int)ts_offset;
			}

			s->pb = bsdk_perfbuf_new(bsdk_map_fd(map), &opts);
			if (!s->pb) {
				cli_error_unless_logged("map '%s': cannot open its perf rings: %s",
							c->map, bsdk_strerror(errno));
				ret = EXIT_RUNTIME;
				goto out;
			}
		} else {
			/* run cannot know whether the program passes BPF_RB_NO_WAKEUP, for
			 * which the kernel never wakes the reader: drain an idle ring
			 * every RUN_RINGBUF_IDLE_MS too, ten cheap checks a second */
			struct bsdk_ringbuf_opts opts = {
				.sz = sizeof(opts), .on_sample = on_sample, .ctx = c,
				.idle_drain_ms = RUN_RINGBUF_IDLE_MS,
			};

			s->rb = bsdk_ringbuf_new(bsdk_map_fd(map), &opts);
			if (!s->rb) {
				cli_error_unless_logged("map '%s': cannot map its ring buffer: %s",
							c->map, bsdk_strerror(errno));
				ret = EXIT_RUNTIME;
				goto out;
			}
		}
		st.nstreams++;
	}
	/* the maps that hold results, shown at the end and every --interval */
	a.views.format = a.format;
	a.views.timestamp = a.timestamp;
	ret = mapviews_new(obj, &a.views, &st.views);
	if (ret)
		goto out;
	if (a.interval && !mapviews_count(st.views)) {
		cli_error("--interval: '%s' has no maps to show (--maps NAME,... names them)", a.path);
		ret = EXIT_USAGE;
		goto out;
	}
	st.interval_ms = (int64_t)(a.interval * 1000 + 0.5);
	if (a.interval && !st.interval_ms)
		st.interval_ms = 1;
	st.next_view = now_ms() + st.interval_ms;
	if (st.nstreams == 0 && !mapviews_count(st.views))
		fprintf(stderr, "warning: '%s' has no perf_event_array or ringbuf map: no records to print\n",
			a.path);
	if (cli_verbosity)
		fprintf(stderr, "streaming: %d program%s attached, %zu map%s read; Ctrl-C to stop\n",
			nlinks, nlinks == 1 ? "" : "s", st.nstreams,
			st.nstreams == 1 ? "" : "s");

	/* poll until --count, --duration, a signal or a closed pipe; from
	 * here the signals are blocked except inside the wait, so one that
	 * arrives between a check and the wait still ends the wait at once */
	sigemptyset(&stopmask);
	sigaddset(&stopmask, SIGINT);
	sigaddset(&stopmask, SIGTERM);
	sigprocmask(SIG_BLOCK, &stopmask, &waitmask);
	sigdelset(&waitmask, SIGINT);
	sigdelset(&waitmask, SIGTERM);
	ret = poll_loop(&st, a.duration, &waitmask) || st.failed ? EXIT_RUNTIME : EXIT_OK;
	/* the views once more at the end, unless nobody reads stdout */
	if (!st.write_failed && mapviews_count(st.views) && mapviews_print(st.views, stdout))
		ret = EXIT_RUNTIME;
	if (st.write_failed && st.write_errno != EPIPE) {
		cli_error("cannot write records: %s", strerror(st.write_errno));
		ret = EXIT_RUNTIME;
	}
	for (size_t i = 0; i < st.nstreams; i++) {
		struct bsdk_perfbuf_stats s;

		decoder_report(ctxs[i].dec);
		/* a ringbuf's producer learns of a full ring itself: the
		 * kernel reports no losses to the reader */
		if (!st.streams[i].pb)
			continue;
		bsdk_perfbuf_stats(st.streams[i].pb, &s);
		lost += s.lost;
		if (s.corrupt)
			fprintf(stderr, "warning: map '%s': %llu corrupt record headers, %llu bytes dropped\n",
				st.streams[i].map, (unsigned long long)s.corrupt,
				(unsigned long long)s.corrupt_bytes);
	}
	fprintf(stderr, "received %llu, lost %llu\n",
		(unsigned long long)st.printed, (unsigned long long)lost);
	goto out;
stopped:
	/* stopped before the records flowed: the shell's code for the signal */
	ret = 128 + stop_signal;
out:
	/* clean up: readers, then links, then maps and programs */
	for (size_t i = 0; st.streams && i < st.nstreams; i++)
		stream_free(&st.streams[i]);
	for (size_t i = 0; ctxs && i < nmaps; i++) {
		free(ctxs[i].map);
		decoder_free(ctxs[i].dec);
	}
	mapviews_free(st.views);
	/* pins are for sharing a map while it runs: the ones it made go */
	bsdk_obj_unpin(obj);
	bsdk_obj_close(obj);
	free(st.streams);
	free(ctxs);
	free(a.sets);
	free(a.types);
	return ret;
}

const struct cli_cmd cmd_run = {
	.name = "run",
	.summary = "load an object, attach its programs, print the records they send",
	.usage = run_usage,
	.main = run_main,
};
