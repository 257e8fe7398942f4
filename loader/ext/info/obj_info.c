// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * obj_info.c - what an opened object shows before anything is loaded:
 * each program linked once at open (object/relo.c), so that a program too
 * large with its subprograms fails there, and its relocations, the helpers
 * it calls and its func and line info are counted for `bpfsdk inspect`
 * and the bsdk_prog_relo() family; and the helpers a license that is not
 * GPL-compatible keeps a program from calling. A pass at the end of open;
 * the core links a program only when it loads it. What the object, its
 * programs and its maps are (bsdk_map_type()...) the core tells
 * (object/obj.c).
 */
#include "object/object.h"
#include "object/pass.h"
#include "co-re/co_re.h"

/* What linking at open found, per program by index: obj_state() of info_key. */
struct prog_info {
	struct relo *relos;
	size_t nrelos;
	int32_t *helpers;	/* helper IDs called, sorted, unique */
	size_t nhelpers;
	size_t linked_count, nfunc, nline;
};

struct info_state {
	struct prog_info *progs;
	size_t n;
};

static const char info_key;

static void info_state_free(void *p)
{
	struct info_state *st = p;

	for (size_t i = 0; i < st->n; i++) {
		free(st->progs[i].relos);
		free(st->progs[i].helpers);
	}
	free(st->progs);
	free(st);
}

static int helper_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

/* Link prog as load will, and keep what the accessors show. */
static int prog_info_fill(const struct bsdk_prog *prog, struct prog_info *pi)
{
	struct linked l;
	size_t n = 0;
	int err = relos_link_prog(prog, &l);

	for (size_t i = 0; !err && i < l.count; i++)
		if (l.insns[i].code == (BPF_JMP | BPF_CALL) && l.insns[i].src_reg == 0 &&
		    l.insns[i].imm != CORE_POISON_IMM)
			err = array_push(&pi->helpers, &n, &l.insns[i].imm, sizeof(int32_t));
	if (err) {
		linked_free(&l);
		return err;
	}
	if (n)
		qsort(pi->helpers, n, sizeof(int32_t), helper_cmp);
	for (size_t i = 0; i < n; i++)
		if (i == 0 || pi->helpers[i] != pi->helpers[i - 1])
			pi->helpers[pi->nhelpers++] = pi->helpers[i];
	pi->relos = l.relos;
	pi->nrelos = l.nrelos;
	l.relos = NULL;
	pi->linked_count = l.count;
	pi->nfunc = l.nfunc;
	pi->nline = l.nline;
	linked_free(&l);
	return 0;
}

/* The pass at the end of open: link every program once. */
static int info_opened(struct bsdk_obj *obj)
{
	struct info_state *st = obj_state(obj, &info_key, sizeof(*st), info_state_free);

	if (!st)
		return -errno;
	st->progs = calloc(obj->nprogs ? obj->nprogs : 1, sizeof(*st->progs));
	if (!st->progs)
		return fail(ENOMEM);
	st->n = obj->nprogs;
	for (size_t p = 0; p < obj->nprogs; p++) {
		int err = prog_info_fill(&obj->progs[p], &st->progs[p]);

		if (err)
			return err;
	}
	if (!bsdk_obj_gpl_compatible(obj))
		log_debug("'%s': license '%s' is not GPL-compatible: GPL-only helpers such as bpf_perf_event_output() will be refused",
			  obj->name, obj->file.license);
	return 0;
}

const struct obj_pass info_pass = {
	.name = "object info",
	.opened = info_opened,
};

/* prog's info; an empty one for an object opened without the pass. */
static const struct prog_info *prog_info(const struct bsdk_prog *prog)
{
	static const struct prog_info none;
	const struct info_state *st = obj_state_find(prog->obj, &info_key);
	size_t i = (size_t)(prog - prog->obj->progs);

	return st && i < st->n ? &st->progs[i] : &none;
}

size_t bsdk_prog_linked_insn_count(const struct bsdk_prog *prog) { return prog_info(prog)->linked_count; }
size_t bsdk_prog_func_info_count(const struct bsdk_prog *prog) { return prog_info(prog)->nfunc; }
size_t bsdk_prog_line_info_count(const struct bsdk_prog *prog) { return prog_info(prog)->nline; }
size_t bsdk_prog_relo_count(const struct bsdk_prog *prog) { return prog_info(prog)->nrelos; }
size_t bsdk_prog_helper_count(const struct bsdk_prog *prog) { return prog_info(prog)->nhelpers; }

int bsdk_prog_helper_id(const struct bsdk_prog *prog, size_t i)
{
	const struct prog_info *pi = prog_info(prog);

	return i < pi->nhelpers ? pi->helpers[i] : fail(ERANGE);
}

int bsdk_prog_relo(const struct bsdk_prog *prog, size_t i, struct bsdk_relo_info *info)
{
	static const char *const names[] = { "map", "data", "call", "func", "ksym", "kfunc",
					     "undeclared" };
	const struct prog_info *pi = prog_info(prog);
	const struct relo *r;

	if (i >= pi->nrelos)
		return fail(ERANGE);
	r = &pi->relos[i];
	memset(info, 0, sizeof(*info));
	info->kind = r->kind;
	info->kind_name = names[r->kind];
	info->insn = r->insn;
	info->symbol = r->sym_name;
	if (r->kind == BSDK_RELO_MAP || r->kind == BSDK_RELO_DATA)
		info->map = &prog->obj->maps[r->map];
	else if (r->kind == BSDK_RELO_KSYM || r->kind == BSDK_RELO_KFUNC)
		info->target = r->ext;
	else
		info->target = r->target;
	info->offset = r->offset;
	return 0;
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
