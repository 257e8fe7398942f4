// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * prog.c - find the programs of an object and load them.
 *
 * A program is a global function in an executable section other than .text;
 * the section name says what kind of program it is and where it attaches.
 * One table maps a section name prefix to the program type and to the
 * function that attaches it: to support a new hook, add a row.
 */
#include <linux/btf.h>

#include "object/object.h"
#include "ext/ext.h"
#include "co-re/core.h"
#include "format/btf.h"

/* Why a load-only kind has no attach point of its own: what its user does. */
#define MANUAL_PERF "attach it to a perf event you open (bsdk_prog_attach_perf_event())"
#define MANUAL_SOCKET "attach it to a socket (setsockopt SO_ATTACH_BPF)"
#define MANUAL_TC "attach it to a network interface's traffic control hook (tc filter ... bpf)"
#define MANUAL_XDP "attach it to a network interface (ip link set dev IF xdp ...)"

/*
 * The section names libbpf gives meaning to, spelled the same so objects
 * written for libbpf load unchanged. A row's prefix matches the section
 * name itself and prefix + "/" + target. The ".s" rows are the sleepable
 * forms of the row above them.
 */
#define KIND(pfx, type, eat, name, fn, tgt, ...) { .prefix = pfx, .prog_type = type, \
	.expected_attach_type = eat, .type_name = name, .attach = fn, .target = tgt, __VA_ARGS__ }

#define BTF(kind, prefix) .btf_kind = BTF_KIND_##kind, .btf_prefix = prefix

static const struct attach_kind attach_kinds[] = {
	KIND("tracepoint", BPF_PROG_TYPE_TRACEPOINT, 0, "tracepoint", attach_tracepoint, TARGET_REQUIRED),
	KIND("tp", BPF_PROG_TYPE_TRACEPOINT, 0, "tracepoint", attach_tracepoint, TARGET_REQUIRED),
	KIND("raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "raw_tracepoint", attach_raw_tracepoint, TARGET_REQUIRED),
	KIND("raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, "raw_tracepoint", attach_raw_tracepoint, TARGET_REQUIRED),
	/* may write to the tracepoint's arguments (e.g. nbd's request) */
	KIND("raw_tracepoint.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, "raw_tracepoint.w", attach_raw_tracepoint, TARGET_REQUIRED),
	KIND("raw_tp.w", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, "raw_tracepoint.w", attach_raw_tracepoint, TARGET_REQUIRED),
	KIND("kprobe", BPF_PROG_TYPE_KPROBE, 0, "kprobe", attach_kprobe, TARGET_REQUIRED),
	KIND("kretprobe", BPF_PROG_TYPE_KPROBE, 0, "kprobe", attach_kprobe, TARGET_REQUIRED, .retprobe = true),
	/* a kprobe on the system call's entry symbol (__x64_sys_NAME) */
	KIND("ksyscall", BPF_PROG_TYPE_KPROBE, 0, "ksyscall", attach_ksyscall, TARGET_REQUIRED),
	KIND("kretsyscall", BPF_PROG_TYPE_KPROBE, 0, "ksyscall", attach_ksyscall, TARGET_REQUIRED, .retprobe = true),
	/* without PATH:FUNC, attached by bsdk_prog_attach_uprobe() */
	KIND("uprobe", BPF_PROG_TYPE_KPROBE, 0, "uprobe", attach_uprobe, TARGET_OPTIONAL),
	KIND("uprobe.s", BPF_PROG_TYPE_KPROBE, 0, "uprobe", attach_uprobe, TARGET_OPTIONAL, .sleepable = true),
	KIND("uretprobe", BPF_PROG_TYPE_KPROBE, 0, "uprobe", attach_uprobe, TARGET_OPTIONAL, .retprobe = true),
	KIND("uretprobe.s", BPF_PROG_TYPE_KPROBE, 0, "uprobe", attach_uprobe, TARGET_OPTIONAL, .retprobe = true, .sleepable = true),
	/* usdt/PATH:PROVIDER:NAME: a uprobe at each site (usdt.c) */
	KIND("usdt", BPF_PROG_TYPE_KPROBE, 0, "usdt", attach_usdt, TARGET_OPTIONAL),
	/* load-only: the user attaches them */
	KIND("perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, "perf_event", NULL, TARGET_NONE, .manual = MANUAL_PERF),
	KIND("socket", BPF_PROG_TYPE_SOCKET_FILTER, 0, "socket_filter", NULL, TARGET_NONE, .manual = MANUAL_SOCKET),
	KIND("tc", BPF_PROG_TYPE_SCHED_CLS, 0, "sched_cls", NULL, TARGET_NONE, .manual = MANUAL_TC),
	KIND("classifier", BPF_PROG_TYPE_SCHED_CLS, 0, "sched_cls", NULL, TARGET_NONE, .manual = MANUAL_TC),
	KIND("xdp", BPF_PROG_TYPE_XDP, BPF_XDP, "xdp", NULL, TARGET_NONE, .manual = MANUAL_XDP),
	/* BTF-typed: the target's type ID in kernel BTF goes to the verifier */
	KIND("tp_btf", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, "tp_btf", attach_btf_tracing, TARGET_REQUIRED, BTF(TYPEDEF, "btf_trace_")),
	KIND("fentry", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "fentry", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fentry.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, "fentry", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	KIND("fexit", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "fexit", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fexit.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, "fexit", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	KIND("fmod_ret", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, "fmod_ret", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "")),
	KIND("fmod_ret.s", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, "fmod_ret", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, ""), .sleepable = true),
	/* a security hook: the kernel's bpf_lsm_NAME() stub is the target */
	KIND("lsm", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "lsm", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "bpf_lsm_")),
	KIND("lsm.s", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, "lsm", attach_btf_tracing, TARGET_REQUIRED, BTF(FUNC, "bpf_lsm_"), .sleepable = true),
	/* an iterator (iter/task, iter/bpf_map...): read, not fired */
	KIND("iter", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "iter", attach_btf_iter, TARGET_REQUIRED, BTF(FUNC, "bpf_iter_")),
	KIND("iter.s", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, "iter", attach_btf_iter, TARGET_REQUIRED, BTF(FUNC, "bpf_iter_"), .sleepable = true),
};

const struct attach_kind *attach_kind_find(const char *section)
{
	for (size_t i = 0; i < ARRAY_SIZE(attach_kinds); i++) {
		const struct attach_kind *k = &attach_kinds[i];
		size_t len = strlen(k->prefix);

		if (strncmp(section, k->prefix, len) == 0 &&
		    (section[len] == '\0' || section[len] == '/'))
			return k;
	}
	return NULL;
}

const char *attach_kind_forms(void)
{
	return "tracepoint/CAT/NAME, tp/, raw_tracepoint/NAME, raw_tp/, raw_tp.w/, "
	       "kprobe/FUNC, kretprobe/FUNC, ksyscall/NAME, kretsyscall/NAME, "
	       "uprobe[/PATH:FUNC[+OFF]], uretprobe, uprobe.s, uretprobe.s, "
	       "usdt[/PATH:PROVIDER:NAME], "
	       "tp_btf/NAME, fentry/FUNC, fexit/FUNC, fmod_ret/FUNC, lsm/HOOK, iter/NAME "
	       "(and their .s forms), perf_event, socket, tc, classifier, xdp";
}

static int prog_add(struct bsdk_obj *obj, size_t sec, size_t first, size_t count, const char *name)
{
	const char *section = obj->file.secs[sec].name;
	const struct attach_kind *kind = attach_kind_find(section);
	struct bsdk_prog prog;

	const char *target;

	if (!kind)
		return obj_fail(obj, BSDK_ESECTION, "section '%s' (program '%s'): unknown section name; accepted prefixes: %s",
				section, name, attach_kind_forms());
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

/* Helpers the kernel offers only to GPL-compatible programs (gpl_only in
 * their struct bpf_func_proto, Linux 6.1), by enum bpf_func_id. */
static const struct {
	int id;
	const char *name;
} gpl_helpers[] = {
	{ 4, "bpf_probe_read" }, { 6, "bpf_trace_printk" }, { 22, "bpf_perf_event_read" },
	{ 25, "bpf_perf_event_output" }, { 27, "bpf_get_stackid" }, { 35, "bpf_get_current_task" },
	{ 36, "bpf_probe_write_user" }, { 45, "bpf_probe_read_str" },
	{ 55, "bpf_perf_event_read_value" }, { 56, "bpf_perf_prog_read_value" },
	{ 58, "bpf_override_return" }, { 67, "bpf_get_stack" }, { 69, "bpf_fib_lookup" },
	{ 100, "bpf_tcp_check_syncookie" }, { 110, "bpf_tcp_gen_syncookie" },
	{ 111, "bpf_skb_output" }, { 112, "bpf_probe_read_user" }, { 113, "bpf_probe_read_kernel" },
	{ 114, "bpf_probe_read_user_str" }, { 115, "bpf_probe_read_kernel_str" },
	{ 119, "bpf_read_branch_records" }, { 121, "bpf_xdp_output" }, { 126, "bpf_seq_printf" },
	{ 127, "bpf_seq_write" }, { 150, "bpf_seq_printf_btf" },
	{ 158, "bpf_get_current_task_btf" }, { 163, "bpf_check_mtu" }, { 165, "bpf_snprintf" },
	{ 169, "bpf_timer_init" }, { 170, "bpf_timer_set_callback" }, { 171, "bpf_timer_start" },
	{ 172, "bpf_timer_cancel" }, { 173, "bpf_get_func_ip" }, { 175, "bpf_task_pt_regs" },
	{ 176, "bpf_get_branch_snapshot" }, { 177, "bpf_trace_vprintk" },
	{ 191, "bpf_copy_from_user_task" },
};

const char *bsdk_helper_gpl_only(int id)
{
	for (size_t i = 0; i < ARRAY_SIZE(gpl_helpers); i++)
		if (gpl_helpers[i].id == id)
			return gpl_helpers[i].name;
	return NULL;
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

/* Name the C line of instruction insn from the program's line info. */
static void log_source_line(const struct bsdk_prog *prog, long insn, const struct linked *l)
{
	const struct bpf_line_info *li = NULL;
	const char *src;

	for (size_t i = 0; insn >= 0 && i < l->nline; i++)
		if (l->line[i].insn_off <= (unsigned long)insn)
			li = &l->line[i];
	if (!li)
		return;
	src = btf_str(prog->obj->btf, li->line_off);
	while (*src == ' ' || *src == '\t')
		src++;
	log_error("  the verifier stopped at %s:%u (instruction %ld): %s",
		  btf_str(prog->obj->btf, li->file_name_off),
		  BPF_LINE_INFO_LINE_NUM(li->line_col), insn, src);
}

/* Send the verifier's log: its last lines at error level, since the
 * reason for a rejection is at the end; all of it at debug level (-v -v);
 * then the C source line where it stopped. One error, told in lines: the
 * first names the program, each after it begins with two spaces (its
 * detail, see bsdk_log_fn). log is consumed. */
static void log_verifier(const struct bsdk_prog *prog, char *log, const struct linked *l)
{
	enum { TAIL_LINES = 20 };
	long insn = verifier_last_insn(log);
	size_t nlines = 0, skip;
	char *line, *save = NULL;

	for (const char *p = log; *p; p++)
		nlines += *p == '\n';
	skip = nlines > TAIL_LINES ? nlines - TAIL_LINES : 0;
	log_error("program '%s' (section '%s'): rejected by the verifier; %s:",
		  prog->fn.name, prog->section,
		  skip ? "the end of its log" : "its log");
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (skip) {
			skip--;
			log_debug("  %s", line);
		} else {
			log_error("  %s", line);
		}
	}
	log_source_line(prog, insn, l);
	core_explain(prog, l, insn);
	extern_explain(prog, l, insn);
}

/* Load once without a log (cheap); on failure load again with a log
 * buffer that grows until the whole log fits, to show why. */
int prog_load(struct bsdk_prog *prog)
{
	struct bsdk_obj *obj = prog->obj;
	size_t log_size = 64 * 1024;
	union bpf_attr attr;
	struct linked l;
	char *log = NULL;
	int fd, err;

	err = relos_link_prog(prog, &l);
	if (err)
		return err;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = prog->kind->prog_type;
	attr.expected_attach_type = prog->kind->expected_attach_type;
	attr.prog_flags = prog->kind->sleepable ? BPF_F_SLEEPABLE : 0;
	if (prog->kind->btf_prefix) {
		char why[512];

		/* found already when the attach policy checked it */
		if (!prog->attach_btf_id && attach_btf_resolve(prog, why, sizeof(why))) {
			err = log_fail(BSDK_ENOPROBE, "program '%s' (section '%s'): %s",
				       prog->fn.name, prog->section, why);
			linked_free(&l);
			return err;
		}
		attr.attach_btf_id = prog->attach_btf_id;
		attr.attach_btf_obj_fd = (uint32_t)prog->attach_btf_obj_fd;
	}
	attr.insns = (uint64_t)(uintptr_t)l.insns;
	attr.insn_cnt = (uint32_t)l.count;
	attr.license = (uint64_t)(uintptr_t)obj->file.license;
	attr.kern_version = obj->file.kversion;
	kernel_name(attr.prog_name, prog->fn.name);
	/* kfuncs of modules: their calls' off indexes this (extern.c) */
	if (obj->nfd_array)
		attr.fd_array = (uint64_t)(uintptr_t)obj->fd_array;
	/* With BTF the verifier checks global functions one by one and
	 * writes the C source into its log. */
	if (obj->btf_fd >= 0) {
		attr.prog_btf_fd = (uint32_t)obj->btf_fd;
		attr.func_info_rec_size = sizeof(*l.func);
		attr.func_info = (uint64_t)(uintptr_t)l.func;
		attr.func_info_cnt = (uint32_t)l.nfunc;
		attr.line_info_rec_size = sizeof(*l.line);
		attr.line_info = (uint64_t)(uintptr_t)l.line;
		attr.line_info_cnt = (uint32_t)l.nline;
	} else {
		l.nline = 0;
	}

	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	/* The verifier gives up with EAGAIN when a signal is pending: not a
	 * rejection to explain but the caller being stopped, so no retry. */
	while (fd < 0 && fd != -EAGAIN && fd != -EINTR && log_size <= 256u * 1024 * 1024) {
		char *grown = realloc(log, log_size);

		if (!grown) {
			fd = -ENOMEM;
			break;
		}
		log = grown;
		log[0] = '\0';
		attr.log_level = 1;
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = (uint32_t)log_size;
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		if (fd != -ENOSPC)
			break;
		log_size *= 4;	/* the log did not fit: try a bigger one */
	}

	if (fd == -EAGAIN || fd == -EINTR) {
		log_debug("program '%s': loading interrupted by a signal", prog->fn.name);
		fd = -EINTR;
	} else if (fd < 0) {
		if (log && log[0]) {
			log_verifier(prog, log, &l);
			fd = fd == -EACCES || fd == -EINVAL ? -BSDK_EVERIFIER : fd;
		} else {
			log_error("program '%s' (section '%s'): the kernel refused to load it: %s",
				  prog->fn.name, prog->section, bsdk_strerror(fd));
		}
	} else {
		prog->fd = fd;
		log_info("program '%s': loaded (%s, %zu instructions), fd %d",
			 prog->fn.name, prog->kind->type_name, l.count, fd);
	}
	free(log);
	linked_free(&l);
	if (fd < 0)
		errno = -fd;
	return fd < 0 ? fd : 0;
}
