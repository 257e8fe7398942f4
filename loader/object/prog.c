// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * prog.c - find the programs of an object and load them.
 *
 * A program is a global function in an executable section other than .text;
 * the section name says what kind of program it is and where it attaches.
 * One table maps a section name prefix to the program type and to how it
 * is attached (a method the attach layer carries out): to support a new
 * hook, add a row, and a method when it needs one.
 */
#include <unistd.h>
#include <linux/btf.h>

#include "object/object.h"
#include "object/pass.h"
#include "format/btf.h"

/* Why a load-only kind has no attach point of its own: what its user does. */
#define MANUAL_PERF "attach it to a perf event you open (bsdk_prog_attach_perf_event())"
#define MANUAL_SOCKET "attach it to a socket (setsockopt SO_ATTACH_BPF)"
#define MANUAL_TC "attach it to a network interface's traffic control hook (tc filter ... bpf)"
#define MANUAL_XDP "attach it to a network interface (ip link set dev IF xdp ...)"

/* The core's methods: attach/ carries them out (bsdk_prog_attach()). */
const struct attach_method attach_by_tracepoint = { .name = "tracepoint" };
const struct attach_method attach_by_raw_tracepoint = { .name = "raw_tracepoint" };
const struct attach_method attach_by_kprobe = { .name = "kprobe", .pmu = "kprobe" };

/*
 * The section names libbpf gives meaning to, spelled the same so objects
 * written for libbpf load unchanged. A row's prefix matches the section
 * name itself and prefix + "/" + target. These are the core's; uprobes,
 * system calls, USDT and the BTF-typed kinds are rows the layers above add
 * (attach_kinds_add()).
 */
static const struct attach_kind attach_kinds[] = {
	KIND("tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, "tracepoint", &attach_by_tracepoint, TARGET_REQUIRED),
	KIND("tp", BPF_PROG_TYPE_TRACEPOINT, 0, "tracepoint", &attach_by_tracepoint, TARGET_REQUIRED),
	KIND("raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "raw_tracepoint", &attach_by_raw_tracepoint, TARGET_REQUIRED),
	KIND("raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "raw_tracepoint", &attach_by_raw_tracepoint, TARGET_REQUIRED),
	/* may write to the tracepoint's arguments (e.g. nbd's request) */
	KIND("raw_tracepoint.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, "raw_tracepoint.w", &attach_by_raw_tracepoint, TARGET_REQUIRED),
	KIND("raw_tp.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, "raw_tracepoint.w", &attach_by_raw_tracepoint, TARGET_REQUIRED),
	KIND("kprobe", BPF_PROG_TYPE_KPROBE, 0, "kprobe", &attach_by_kprobe, TARGET_REQUIRED),
	KIND("kretprobe", BPF_PROG_TYPE_KPROBE, 0, "kprobe", &attach_by_kprobe, TARGET_REQUIRED, .retprobe = true),
	/* load-only: the user attaches them */
	KIND("perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, "perf_event", NULL, TARGET_NONE, .manual = MANUAL_PERF),
	KIND("socket", BPF_PROG_TYPE_SOCKET_FILTER, 0, "socket_filter", NULL, TARGET_NONE, .manual = MANUAL_SOCKET),
	KIND("tc", BPF_PROG_TYPE_SCHED_CLS, 0, "sched_cls", NULL, TARGET_NONE, .manual = MANUAL_TC),
	KIND("classifier", BPF_PROG_TYPE_SCHED_CLS, 0, "sched_cls", NULL, TARGET_NONE, .manual = MANUAL_TC),
	KIND("xdp", BPF_PROG_TYPE_XDP, BPF_XDP, "xdp", NULL, TARGET_NONE, .manual = MANUAL_XDP),
};
#define FORMS_PROBES "tracepoint/CAT/NAME, tp/, raw_tracepoint/NAME, raw_tp/, raw_tp.w/, " \
	"kprobe/FUNC, kretprobe/FUNC, "
#define FORMS_LOAD_ONLY "perf_event, socket, tc, classifier, xdp"

/* The core's rows, then those added from above. */
static const struct attach_kinds co_re_kinds = { attach_kinds, ARRAY_SIZE(attach_kinds), "" };
static const struct attach_kinds *kind_sets[5] = { &co_re_kinds };
static size_t nkind_sets = 1;
static char forms[1024] = FORMS_PROBES FORMS_LOAD_ONLY;

void attach_kinds_add(const struct attach_kinds *kinds)
{
	size_t len = strlen(FORMS_PROBES);

	if (nkind_sets == ARRAY_SIZE(kind_sets))
		return;
	kind_sets[nkind_sets++] = kinds;
	for (size_t i = 1; i < nkind_sets && len < sizeof(forms); i++)
		len += (size_t)snprintf(forms + len, sizeof(forms) - len, "%s, ", kind_sets[i]->forms);
	if (len < sizeof(forms))
		snprintf(forms + len, sizeof(forms) - len, "%s", FORMS_LOAD_ONLY);
}

/* Whether section is prefix, or prefix + "/" + a target. */
static bool prefix_names(const char *prefix, const char *section)
{
	size_t len = strlen(prefix);

	return strncmp(section, prefix, len) == 0 && (section[len] == '\0' || section[len] == '/');
}

const struct attach_kind *attach_kind_find(const char *section)
{
	for (size_t i = 0; i < nkind_sets; i++)
		for (size_t j = 0; j < kind_sets[i]->n; j++)
			if (prefix_names(kind_sets[i]->rows[j].prefix, section))
				return &kind_sets[i]->rows[j];
	return NULL;
}

const char *attach_kind_forms(void)
{
	return forms;
}

/* "Did you mean": the section meant by one whose prefix (up to its first
 * '/') is a typo of a known one, "tracepiont/CAT/NAME" -> "tracepoint/CAT/
 * NAME", into buf ("" when none is close). */
static const char *section_closest(const char *section, char *buf, size_t size)
{
	const char *names[128], *near;
	char word[64];
	size_t n = 0, len = strcspn(section, "/");

	buf[0] = '\0';
	if (len >= sizeof(word))
		return buf;
	snprintf(word, sizeof(word), "%.*s", (int)len, section);
	for (size_t i = 0; i < nkind_sets; i++)
		for (size_t j = 0; j < kind_sets[i]->n && n < ARRAY_SIZE(names); j++)
			names[n++] = kind_sets[i]->rows[j].prefix;
	near = bsdk_name_closest(word, names, n);
	if (near)
		snprintf(buf, size, "did you mean '%s%s'? ", near, section + len);
	return buf;
}

static int prog_add(struct bsdk_obj *obj, size_t sec, size_t first, size_t count, const char *name)
{
	const char *section = obj->file.secs[sec].name;
	const struct attach_kind *kind = attach_kind_find(section);
	struct bsdk_prog prog;

	const char *target;

	/* No layer added rows (libbpfsdk-core.a): the section may be one of
	 * theirs, which the core cannot name; nor can it guess a typo. */
	if (!kind && nkind_sets == 1)
		return obj_fail(obj, BSDK_ESECTION, "section '%s' (program '%s'): not a kind this build of the library knows (libbpfsdk-core has the core's kinds only: link libbpfsdk for the others); accepted prefixes: %s",
				section, name, attach_kind_forms());
	if (!kind) {
		char near[300];

		return obj_fail(obj, BSDK_ESECTION, "section '%s' (program '%s'): unknown section name; %saccepted prefixes: %s",
				section, name, section_closest(section, near, sizeof(near)), attach_kind_forms());
	}
	target = section + strlen(kind->prefix);
	target += *target == '/';
	if (kind->target == TARGET_REQUIRED && !*target)
		return obj_fail(obj, BSDK_ESECTION, "section '%s': says what kind of probe but not where to attach it", section);
	prog = (struct bsdk_prog){
		.obj = obj, .fn = { sec, first, count, name },
		.section = section, .kind = kind,
		.target = kind->target == TARGET_NONE ? "" : target,
		.autoload = true, .fd = -1,
	};
	return array_push(&obj->progs, &obj->nprogs, &prog, sizeof(prog));
}

/* A function symbol's instructions: checked to lie inside its section. */
static int func_range(const struct bsdk_obj *obj, const GElf_Sym *sym, size_t *first, size_t *count)
{
	const struct elf_sec *s = &obj->file.secs[sym->st_shndx];

	if (sym->st_value % sizeof(struct bpf_insn) ||
	    sym->st_size % sizeof(struct bpf_insn) || sym->st_size == 0 ||
	    range_outside(sym->st_value, sym->st_size, s->size))
		return obj_fail(obj, BSDK_EFORMAT, "function '%s' in '%s': offset %llu, size %llu do not describe whole instructions inside the section",
				elf_sym_name(&obj->file, sym), s->name,
				(unsigned long long)sym->st_value,
				(unsigned long long)sym->st_size);
	*first = sym->st_value / sizeof(struct bpf_insn);
	*count = sym->st_size / sizeof(struct bpf_insn);
	return 0;
}

static int subprog_cmp(const void *a, const void *b)
{
	const struct func *fa = a, *fb = b;

	return (fa->first > fb->first) - (fa->first < fb->first);
}

/* Function symbols by section, then by index: the order a scan of the
 * symbol table for each section would see them in, in one sort. */
static int func_sym_cmp(const void *a, const void *b, void *arg)
{
	const GElf_Sym *syms = arg;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (syms[x].st_shndx != syms[y].st_shndx)
		return syms[x].st_shndx < syms[y].st_shndx ? -1 : 1;
	return (x > y) - (x < y);
}

static int progs_collect_sorted(struct bsdk_obj *obj, const size_t *funcs, size_t nfsyms)
{
	size_t next = 0;	/* into funcs: the first of the section's */
	int err;

	elf_sec_by_name(&obj->file, ".text", &obj->text_sec);
	for (size_t sec = 1; sec < obj->file.nsecs; sec++) {
		size_t nfuncs = 0;

		if (!elf_sec_is_prog(&obj->file, sec))
			continue;
		if (obj->file.secs[sec].size % sizeof(struct bpf_insn))
			return obj_fail(obj, BSDK_EFORMAT, "section '%s': size %zu is not a multiple of the 8-byte instruction size",
					obj->file.secs[sec].name, obj->file.secs[sec].size);
		/* Instructions are read in place, as structs. */
		if ((uintptr_t)obj->file.secs[sec].data % sizeof(struct bpf_insn))
			return obj_fail(obj, BSDK_EFORMAT, "section '%s': offset %#llx in the file is not 8-byte aligned",
					obj->file.secs[sec].name,
					(unsigned long long)obj->file.secs[sec].shdr.sh_offset);
		while (next < nfsyms && obj->file.syms[funcs[next]].st_shndx < sec)
			next++;
		for (; next < nfsyms && obj->file.syms[funcs[next]].st_shndx == sec; next++) {
			const GElf_Sym *sym = &obj->file.syms[funcs[next]];
			struct func f = { sec, 0, 0, elf_sym_name(&obj->file, sym) };

			err = func_range(obj, sym, &f.first, &f.count);
			nfuncs++;
			if (!err && sec == obj->text_sec)
				err = array_push(&obj->subprogs, &obj->nsubprogs, &f, sizeof(f));
			else if (!err && GELF_ST_BIND(sym->st_info) == STB_GLOBAL)
				err = prog_add(obj, sec, f.first, f.count, f.name);
			if (err)
				return err;
		}
		/* Hand-written assembly may have no symbol: the whole section
		 * is one program named after it. */
		if (nfuncs == 0 && sec != obj->text_sec) {
			err = prog_add(obj, sec, 0, obj->file.secs[sec].size /
				       sizeof(struct bpf_insn), obj->file.secs[sec].name);
			if (err)
				return err;
		}
	}
	if (obj->nsubprogs)	/* qsort() wants a non-NULL array even for 0 */
		qsort(obj->subprogs, obj->nsubprogs, sizeof(*obj->subprogs), subprog_cmp);
	for (size_t i = 1; i < obj->nsubprogs; i++) {
		if (obj->subprogs[i].first < obj->subprogs[i - 1].first +
					     obj->subprogs[i - 1].count)
			return obj_fail(obj, BSDK_EFORMAT, "functions '%s' and '%s' overlap in .text",
					obj->subprogs[i - 1].name,
					obj->subprogs[i].name);
	}
	return 0;
}

int progs_collect(struct bsdk_obj *obj)
{
	size_t *funcs = malloc((obj->file.nsyms ? obj->file.nsyms : 1) * sizeof(*funcs));
	size_t nfsyms = 0;
	int err;

	if (!funcs)
		return fail(ENOMEM);
	for (size_t i = 0; i < obj->file.nsyms; i++)
		if (GELF_ST_TYPE(obj->file.syms[i].st_info) == STT_FUNC)
			funcs[nfsyms++] = i;
	qsort_r(funcs, nfsyms, sizeof(*funcs), func_sym_cmp, obj->file.syms);
	err = progs_collect_sorted(obj, funcs, nfsyms);
	free(funcs);
	return err;
}

/* The last instruction the verifier looked at: its log's last "N: ..." */
static long verifier_last_insn(const char *log)
{
	long insn = -1;

	for (const char *p = log; p; p = strchr(p, '\n'), p = p ? p + 1 : p) {
		char *end;
		long n = *p >= '0' && *p <= '9' ? strtol(p, &end, 10) : -1;

		if (n >= 0 && *end == ':')
			insn = n;
	}
	return insn;
}

/* Log one detail line, "  " + text with its tabs expanded to the next
 * multiple of 8 columns: the C lines the verifier quotes are indented
 * with tabs, which a terminal-safe log shows as '?'. */
void log_detail_untabbed(const char *prefix, const char *text)
{
	size_t n = strlen(text), col = 0, o = 0;
	char *out = malloc(n * 8 + 1);

	if (!out) {
		log_error("  %s%s", prefix, text);
		return;
	}
	for (const char *p = text; *p; p++) {
		if (*p == '\t') {
			do
				out[o++] = ' ';
			while (++col % 8);
		} else {
			out[o++] = *p;
			col++;
		}
	}
	out[o] = '\0';
	log_error("  %s%s", prefix, out);
	free(out);
}

/* The headline of a rejection and the end of the verifier's log under it
 * (all of it at debug level, -vv). Or, when the attach policy loads
 * (leave_out), one warning with the verifier's reason, the whole
 * log at debug level after the detail. log is left as it was. */
static void log_verifier_head(const struct bsdk_prog *prog, char *log, bool cut, bool leave_out)
{
	enum { TAIL_LINES = 20 };
	size_t nlines = 0, skip;
	char *line, *end, c;

	if (leave_out) {
		char reason[512];

		passes_reason(log, reason, sizeof(reason));
		log_warn("'%s': program '%s' (section '%s'): left out: rejected by the verifier: %s",
			 prog->obj->name, prog->fn.name, prog->section, reason);
		return;
	}
	for (const char *p = log; *p; p++)
		nlines += *p == '\n';
	skip = nlines > TAIL_LINES ? nlines - TAIL_LINES : 0;
	log_error("program '%s' (section '%s'): rejected by the verifier; %s:",
		  prog->fn.name, prog->section,
		  skip || cut ? "the end of its log" : "its log");
	for (line = log; *line; line = end + (*end == '\n')) {
		end = line + strcspn(line, "\n");
		c = *end;
		*end = '\0';	/* a line at a time, put back after */
		if (end > line && skip) {
			skip--;
			log_debug("  %s", line);
		} else if (end > line) {
			log_detail_untabbed("", line);
		}
		*end = c;
	}
}

/* Send the verifier's log: its last lines at error level, since the
 * reason for a rejection is at the end; all of it at debug level (-v -v);
 * then the C source line where it stopped. One error, told in lines: the
 * first names the program, each after it begins with two spaces (its
 * detail, see bsdk_log_fn); for the attach policy one warning, told the
 * same way. log is consumed. cut: the log's beginning was dropped by the
 * kernel (a rotating log that did not fit). */
static void log_verifier(const struct bsdk_prog *prog, char *log, bool cut, const struct linked *l,
			 bool leave_out)
{
	long insn = verifier_last_insn(log);
	char *line, *save = NULL;

	log_verifier_head(prog, log, cut, leave_out);
	/* a warning's detail lines are warnings */
	log_errors_as_warnings(leave_out);
	/* the C line (ext/btf/btf_ext_pass.c), what the log says to do, then
	 * what the extensions know */
	passes_hint(prog, log, insn, l);
	passes_explain(prog, l, insn);
	log_errors_as_warnings(false);
	if (!leave_out)
		return;
	log_debug("program '%s': the verifier's log:", prog->fn.name);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		log_debug("  %s", line);
}

/* BPF_PROG_LOAD's log_true_size (Linux 6.4): the bytes the whole log
 * needed, written back by the kernel. It follows co_re_relo_rec_size; UAPI
 * headers before 6.4 do not name it. */
#define LOG_TRUE_SIZE_OFF (offsetof(union bpf_attr, core_relo_rec_size) + sizeof(uint32_t))

uint32_t attr_log_true_size(const union bpf_attr *attr)
{
	uint32_t size;

	memcpy(&size, (const char *)attr + LOG_TRUE_SIZE_OFF, sizeof(size));
	return size;
}

/* Fill attr for loading prog from the linked instructions l. 0, or a
 * negative errno (logged) when its BTF target cannot be found. */
static int prog_attr_fill(struct bsdk_prog *prog, struct linked *l, union bpf_attr *attr)
{
	struct bsdk_obj *obj = prog->obj;
	int err;

	memset(attr, 0, sizeof(*attr));
	attr->prog_type = prog->kind->prog_type;
	attr->expected_attach_type = prog->kind->expected_attach_type;
	attr->prog_flags = prog->kind->sleepable ? BPF_F_SLEEPABLE : 0;
	attr->insns = (uint64_t)(uintptr_t)l->insns;
	attr->insn_cnt = (uint32_t)l->count;
	attr->license = (uint64_t)(uintptr_t)obj->file.license;
	attr->kern_version = obj->file.kversion;
	kernel_name(attr->prog_name, prog->fn.name);
	/* With BTF (a pass loaded it, ext/btf/btf_load.c) the verifier checks
	 * global functions one by one and writes the C source into its log;
	 * without, the C line it stopped at is still the object's to tell. */
	if (obj->btf_fd >= 0) {
		attr->prog_btf_fd = (uint32_t)obj->btf_fd;
		attr->func_info_rec_size = sizeof(*l->func);
		attr->func_info = (uint64_t)(uintptr_t)l->func;
		attr->func_info_cnt = (uint32_t)l->nfunc;
		attr->line_info_rec_size = sizeof(*l->line);
		attr->line_info = (uint64_t)(uintptr_t)l->line;
		attr->line_info_cnt = (uint32_t)l->nline;
	} else if (obj->btf_refused) {
		l->nline = 0;
	}
	/* what the extensions add: a BTF-typed target, kfuncs' module BTF */
	err = passes_prog_attr(prog, attr);
	if (err)
		return err;
	if (prog->kind->btf_prefix && !attr->attach_btf_id)
		return log_fail(BSDK_ENOTSUPP, "program '%s' (section '%s'): a %s program needs its target's ID in the kernel's BTF, which this build of the library does not look up",
				prog->fn.name, prog->section, prog->kind->type_name);
	return 0;
}

/* A signal asked to stop: the verifier ends a run with EAGAIN when one is
 * pending, but a run whose log it truncated answers ENOSPC instead, and one
 * may come between two runs. So the flag is looked at after every bpf(),
 * whatever it returned. */
static bool load_interrupted(int fd)
{
	return fd == -EAGAIN || fd == -EINTR || bsdk_signals_caught();
}

/* The failed load of prog, again with a log, once, to show why; the
 * kernel's answer to that run (a negative errno) unless a signal came. */
static int prog_explain(struct bsdk_prog *prog, union bpf_attr *attr, int fd, const struct linked *l,
			bool leave_out)
{
	size_t size = passes_log_size();
	char *log = malloc(size);
	bool passed;
	int again;

	if (!log) {
		log_error("program '%s' (section '%s'): the kernel refused to load it: %s (no memory for its log)",
			  prog->fn.name, prog->section, bsdk_strerror(fd));
		return fd;
	}
	log[0] = '\0';
	attr->log_level = 1;
	attr->log_buf = (uint64_t)(uintptr_t)log;
	attr->log_size = (uint32_t)size;
	again = sys_bpf(BPF_PROG_LOAD, attr, sizeof(*attr));
	passed = again >= 0;
	if (passed) {	/* loaded this time: rejected once, so unload */
		close(again);
		again = fd;
	}
	if (load_interrupted(again)) {
		free(log);
		return -EINTR;
	}
	/* the log's end is there unless a fixed log was cut (ENOSPC without
	 * log_true_size): then what is shown is its beginning; say so */
	if (log[0] && again == -ENOSPC && !attr_log_true_size(attr))
		log_warn("program '%s': the verifier's log did not fit in %zu MiB and this kernel keeps its beginning: what follows is not where it stopped",
			 prog->fn.name, size >> 20);
	/* EACCES, EINVAL and E2BIG (too complex) are the verifier's: with
	 * another error (EMFILE, ENOMEM...) the log of the second try is of a
	 * program that passed */
	if (log[0] && !passed && (fd == -EACCES || fd == -EINVAL || fd == -E2BIG)) {
		log_verifier(prog, log, attr_log_true_size(attr) > size, l, leave_out);
		/* left out, whatever the errno (E2BIG: too many instructions) */
		fd = fd == -EACCES || fd == -EINVAL || leave_out ?
		     -BSDK_EVERIFIER : fd;
	} else {
		log_error("program '%s' (section '%s'): the kernel refused to load it: %s",
			  prog->fn.name, prog->section, bsdk_strerror(fd));
		if (fd == -EPERM || fd == -EACCES)
			log_error("  loading a BPF program takes CAP_BPF, and a tracing one CAP_PERFMON too (or root)");
		else if (fd == -EMFILE)
			log_error("  %s", fd_limit_hint);
	}
	free(log);
	return fd;
}

/* Load once without a log (cheap); on failure once more with a log sized
 * at once (passes_log_size()), to show why: at most two runs of the
 * verifier, which may take seconds each, and none after a signal. */
/* A call of a function nothing declares: the kernel would only say
 * "invalid func" or refuse the pseudo call; name it and the helper meant. */
static int undeclared_call(const struct bsdk_prog *prog, const struct linked *l)
{
	for (size_t i = 0; i < l->nrelos; i++) {
		const struct relo *r = &l->relos[i];
		const char *near;

		if (r->kind != BSDK_RELO_UNDECLARED)
			continue;
		near = bsdk_helper_closest(r->sym_name);
		if (near)
			return log_fail(BSDK_ERELO, "program '%s': instruction %zu calls '%s', which is no BPF helper and which nothing declares; did you mean %s()?",
					prog->fn.name, r->insn, r->sym_name, near);
		return log_fail(BSDK_ERELO, "program '%s': instruction %zu calls '%s', which is no BPF helper and which nothing declares: include the header that declares it, or declare a kernel function (kfunc) extern ... __ksym",
				prog->fn.name, r->insn, r->sym_name);
	}
	return 0;
}

int prog_load(struct bsdk_prog *prog, bool leave_out)
{
	union bpf_attr attr;
	struct linked l;
	int fd, err;

	err = relos_link_prog(prog, &l);
	if (err)
		return err;
	err = undeclared_call(prog, &l);
	if (err) {
		linked_free(&l);
		return err;
	}
	err = prog_attr_fill(prog, &l, &attr);
	if (err) {
		linked_free(&l);
		return err;
	}
	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (load_interrupted(fd)) {
		if (fd >= 0)
			close(fd);	/* loaded, but the caller is being stopped */
		fd = -EINTR;
	} else if (fd < 0) {
		fd = prog_explain(prog, &attr, fd, &l, leave_out);
	}
	if (fd == -EINTR) {
		log_debug("program '%s': loading interrupted by a signal", prog->fn.name);
	} else if (fd >= 0) {
		prog->fd = fd;
		log_info("program '%s': loaded (%s, %zu instructions), fd %d",
			 prog->fn.name, prog->kind->type_name, l.count, fd);
	}
	linked_free(&l);
	if (fd < 0)
		errno = -fd;
	return fd < 0 ? fd : 0;
}
