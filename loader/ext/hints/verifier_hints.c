// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * verifier_hints.c - what the verifier's log of a rejection says to do,
 * beyond its end and the C line where it stopped (the core's story,
 * object/prog.c): a loop it could not bound and what this kernel offers
 * instead, a GPL-only helper refused for the license, the indirect calls
 * of an object built without optimisation; its reason in one line for
 * the attach policy's warning; and a log buffer sized for how this kernel
 * keeps a log that does not fit. A pass the core calls after a rejection.
 */
#include <stdio.h>
#include <unistd.h>
#include <linux/btf.h>

#include "object/object.h"
#include "object/pass.h"
#include "co-re/kbtf.h"

/* Whether the running kernel's BTF has the function name; -1 when its BTF
 * cannot be read (nothing logged). */
static int kernel_has_func(const char *name)
{
	char swallowed[256];
	int err;

	log_capture_begin(swallowed, sizeof(swallowed));
	err = kbtf_find(NULL, name, BTF_KIND_FUNC, NULL, NULL, NULL);
	log_capture_end();
	return err == 0 ? 1 : err == -ENOENT ? 0 : -1;
}

/* What this kernel offers for a loop the verifier cannot walk: bpf_loop()
 * is a helper since Linux 5.17, bpf_for() (bpf_iter_num_new) a kfunc since
 * 6.4. */
static const char *loop_offer(void)
{
	int loop = kernel_has_func("bpf_loop"), iter = kernel_has_func("bpf_iter_num_new");

	if (loop < 0 || iter < 0)
		return "bpf_loop() (Linux 5.17+) or bpf_for() (Linux 6.4+)";
	if (loop && iter)
		return "bpf_loop() or bpf_for(), which this kernel has";
	if (loop)
		return "bpf_loop(), which this kernel has (not bpf_for(): Linux 6.4+)";
	return "nothing else: this kernel has neither bpf_loop() nor bpf_for()";
}

/* The innermost loop around instruction insn: a jump back at j to t <= insn
 * <= j. Its exits are the conditional jumps inside that leave it, and the
 * jump back itself when conditional. The largest constant one of them
 * compares against, when one compares against a constant (BPF_K), else 0:
 * a loop that runs to a constant bound, which the verifier walks
 * iteration by iteration however small its body. */
static long loop_const_bound(const struct linked *l, long insn)
{
	long best_t = -1, best_j = -1, bound = 0;

	for (long j = 0; insn >= 0 && j < (long)l->count; j++) {
		const struct bpf_insn *in = &l->insns[j];
		long t = j + 1 + in->off;
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_CALL || op == BPF_EXIT ||
		    in->off >= 0 || t > insn || j < insn)
			continue;
		if (best_t < 0 || t > best_t) {
			best_t = t;
			best_j = j;
		}
	}
	for (long j = best_t; best_t >= 0 && j <= best_j; j++) {
		const struct bpf_insn *in = &l->insns[j];
		long t = j + 1 + in->off;
		uint8_t cls = BPF_CLASS(in->code), op = BPF_OP(in->code);

		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_CALL || op == BPF_EXIT ||
		    op == BPF_JA || BPF_SRC(in->code) != BPF_K)
			continue;
		if ((t < best_t || t > best_j || j == best_j) && in->imm > bound)
			bound = in->imm;
	}
	return bound;
}

/* The verifier gave up at its instruction limit ("BPF program is too
 * large. Processed 1000001 insn"): nearly always a loop. One with a
 * constant bound is walked iteration by iteration, so a constant bound is
 * not the fix there; for one whose trip count it cannot see, it is. */
static void log_too_large_hint(const struct linked *l, long insn)
{
	long bound = loop_const_bound(l, insn);

	if (bound > 1) {
		log_error("  hint: the verifier walks a loop one iteration at a time and stopped after 1000000 instructions: this loop's constant bound (%ld) is too many to walk; use %s, or fewer iterations",
			  bound, loop_offer());
		return;
	}
	log_error("  hint: a loop the verifier cannot bound (it stopped after 1000000 instructions): give it a constant bound, or use %s",
		  loop_offer());
}

/* "The sequence of 8193 jumps is too complex": the verifier keeps one
 * state for each branch it has still to explore and stops at 8192, which
 * a loop with a branch in every iteration reaches. */
static void log_jumps_hint(void)
{
	log_error("  hint: the verifier keeps a state for every branch it has yet to explore and gives up at 8192; a loop with a branch in each iteration makes one per iteration: use %s, or fewer iterations",
		  loop_offer());
}

/* The map types a helper takes, for "cannot pass map_type 4 into func
 * bpf_ringbuf_reserve#131": the helpers a tracing tool calls with a map
 * of one kind (include/uapi/linux/bpf.h, each helper's description). */
static const struct {
	int helper;
	int types[3];
} helper_map_types[] = {
	{ BPF_FUNC_ringbuf_reserve, { BPF_MAP_TYPE_RINGBUF } },
	{ BPF_FUNC_ringbuf_output, { BPF_MAP_TYPE_RINGBUF } },
	{ BPF_FUNC_ringbuf_query, { BPF_MAP_TYPE_RINGBUF } },
	{ BPF_FUNC_ringbuf_reserve_dynptr, { BPF_MAP_TYPE_RINGBUF } },
	{ BPF_FUNC_perf_event_output, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ BPF_FUNC_perf_event_read, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ BPF_FUNC_perf_event_read_value, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ BPF_FUNC_get_stackid, { BPF_MAP_TYPE_STACK_TRACE } },
	{ BPF_FUNC_tail_call, { BPF_MAP_TYPE_PROG_ARRAY } },
	{ BPF_FUNC_map_push_elem, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK } },
	{ BPF_FUNC_map_pop_elem, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK } },
	{ BPF_FUNC_map_peek_elem, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_BLOOM_FILTER } },
	{ BPF_FUNC_task_storage_get, { BPF_MAP_TYPE_TASK_STORAGE } },
	{ BPF_FUNC_sk_storage_get, { BPF_MAP_TYPE_SK_STORAGE } },
	{ BPF_FUNC_inode_storage_get, { BPF_MAP_TYPE_INODE_STORAGE } },
	{ BPF_FUNC_redirect_map, { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_CPUMAP, BPF_MAP_TYPE_XSKMAP } },
};

/* A map type as the UAPI header spells it, BPF_MAP_TYPE_RINGBUF, in buf;
 * "map type N" for one this build does not know. */
static const char *map_type_enum(int type, char *buf, size_t size)
{
	const char *name = bsdk_map_type_name(type);
	size_t n = 0;

	if (!name || !*name) {
		snprintf(buf, size, "map type %d", type);
		return buf;
	}
	n = (size_t)snprintf(buf, size, "BPF_MAP_TYPE_");
	for (const char *p = name; *p && n + 1 < size; p++)
		buf[n++] = *p >= 'a' && *p <= 'z' ? (char)(*p - 'a' + 'A') : *p;
	buf[n < size ? n : size - 1] = '\0';
	return buf;
}

/* "cannot pass map_type 4 into func bpf_ringbuf_reserve#131": the number
 * by name, and the map type the helper needs. */
static void log_map_type_hint(const char *log)
{
	const char *p = strstr(log, "cannot pass map_type ");
	char func[64], have[48], want[160] = "", one[48];
	int type, id;

	if (!p || sscanf(p, "cannot pass map_type %d into func %63[^#]#%d", &type, func, &id) != 3)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(helper_map_types); i++) {
		if (helper_map_types[i].helper != id)
			continue;
		for (size_t t = 0; t < 3 && helper_map_types[i].types[t]; t++)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
				 t ? " or " : "", map_type_enum(helper_map_types[i].types[t], one, sizeof(one)));
	}
	map_type_enum(type, have, sizeof(have));
	if (*want)
		log_error("  hint: %s() needs a %s map; the map passed is a %s (map_type %d): declare it __uint(type, %s)%s",
			  func, want, have, type, want,
			  type == BPF_MAP_TYPE_PERF_EVENT_ARRAY ? ", or send to it with bpf_perf_event_output()" :
			  type == BPF_MAP_TYPE_RINGBUF ? ", or send to it with bpf_ringbuf_output() or bpf_ringbuf_reserve()" : "");
	else
		log_error("  hint: map_type %d is %s, which %s() does not take", type, have, func);
}

/* "R0 invalid mem access 'map_value_or_null'": a pointer a helper may
 * return NULL for, used unchecked. */
static void log_null_check_hint(const char *log)
{
	static const struct {
		const char *type, *from;
	} nullable[] = {
		{ "'map_value_or_null'", "bpf_map_lookup_elem()" },
		{ "'ringbuf_mem_or_null'", "bpf_ringbuf_reserve()" },
		{ "_or_null'", "the helper" },
	};

	if (!strstr(log, "invalid mem access"))
		return;
	for (size_t i = 0; i < ARRAY_SIZE(nullable); i++) {
		if (strstr(log, nullable[i].type)) {
			log_error("  hint: the pointer %s returned may be NULL: check it before using it (if (!p) return 0;)",
				  nullable[i].from);
			return;
		}
	}
}

/* The verifier refused a GPL-only helper to a program whose license is not
 * GPL-compatible: say the line that fixes it, and which helper it was when
 * the last instruction is its call. */
static void log_license_fix(const struct bsdk_prog *prog, long insn, const struct linked *l)
{
	const char *license = prog->obj->file.license, *helper = NULL;
	char lic[96];

	if (insn >= 0 && (size_t)insn < l->count &&
	    l->insns[insn].code == (BPF_JMP | BPF_CALL) && l->insns[insn].src_reg == 0)
		helper = bsdk_helper_gpl_only(l->insns[insn].imm);
	if (license && *license)
		snprintf(lic, sizeof(lic), "'%.60s' is not GPL-compatible", license);
	else
		snprintf(lic, sizeof(lic), "the object has no license section");
	log_error("  fix: declare char LICENSE[] SEC(\"license\") = \"GPL\"; (%s, and %s%s is GPL-only)",
		  lic, helper ? helper : "the helper it stopped at",
		  helper ? "()" : "");
}

/* The first indirect call (callx, BPF_JMP | BPF_CALL | BPF_X) among the
 * linked instructions, or -1: clang writes one for every helper call when it
 * does not optimise (-O0), since the helper is then a pointer it loads. */
static long first_callx(const struct linked *l)
{
	for (size_t i = 0; i < l->count; i++)
		if (l->insns[i].code == (BPF_JMP | BPF_CALL | BPF_X))
			return (long)i;
	return -1;
}

/* The verifier's reason for a rejection: the last line of its log that is
 * not an instruction, a source comment or its closing statistics. */
static void verifier_reason(const char *log, char *buf, size_t size)
{
	static const char *const not_reasons[] = {
		"processed ", "verification time", "stack depth", ";", "from ",
		"last_idx", "regs=", "parent ", "mark_precise", "func#", "Validating ",
	};
	const char *p = log, *reason = strstr(log, "BPF program is too large"), *fallback = NULL;
	size_t len = 0, fallback_len = 0;

	if (reason) {	/* written after the last instruction, on its line */
		snprintf(buf, size, "%.*s", (int)strcspn(reason, "\n"), reason);
		return;
	}
	for (; *p; p += strcspn(p, "\n"), p += *p == '\n') {
		size_t n = strcspn(p, "\n");
		bool skip = n == 0 || *p == ' ' || *p == '\t' || (*p >= '0' && *p <= '9' &&
			    p[strspn(p, "0123456789")] == ':');

		for (size_t i = 0; !skip && i < ARRAY_SIZE(not_reasons); i++)
			skip = strncmp(p, not_reasons[i], strlen(not_reasons[i])) == 0;
		if (n) {
			fallback = p;
			fallback_len = n;
		}
		if (!skip && !(reason && strncmp(reason, "invalid access to ", 18) == 0 &&
			       memmem(p, n, "value is outside of the allowed memory range", 44))) {
			reason = p;
			len = n;
		}
	}
	if (!reason) {
		reason = fallback ? fallback : "(an empty log)";
		len = fallback ? fallback_len : strlen(reason);
	}
	snprintf(buf, size, "%.*s", (int)len, reason);
}

/* Whether the kernel keeps the end of a log that does not fit (Linux 6.4:
 * a rotating log, which reports log_true_size), asked once per process by
 * loading "r0 = 0; exit" with a log. Kernels before keep the beginning, and
 * the reason for a rejection is at the end. */
static bool kernel_log_rotates(void)
{
	static int known;	/* 0 not asked, 1 rotates, 2 does not */
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	char log[1024];
	union bpf_attr attr;
	int fd, state = __atomic_load_n(&known, __ATOMIC_RELAXED);

	if (state)
		return state == 1;
	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uint64_t)(uintptr_t)"GPL";
	attr.log_level = 1;
	attr.log_buf = (uint64_t)(uintptr_t)log;
	attr.log_size = sizeof(log);
	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd >= 0)
		close(fd);
	state = attr_log_true_size(&attr) ? 1 : 2;
	__atomic_store_n(&known, state, __ATOMIC_RELAXED);
	return state == 1;
}

/* The log of the one run made to explain a rejection. Where the kernel
 * keeps a log's end, 4 MiB hold far more than the lines shown; where it
 * keeps the beginning, the buffer must hold all of it for the end to be
 * there: a log of a million instructions at level 1 runs to tens of MiB,
 * so take 256 MiB (address space; only what the kernel writes is touched). */
static size_t verifier_log_size(void)
{
	return kernel_log_rotates() ? 4u << 20 : 256u << 20;
}

/* The pass after a rejection: what the log and the instructions say to
 * do, as detail lines under the log's end and the C line. */
static void verifier_hint(const struct bsdk_prog *prog, const char *log, long insn,
			  const struct linked *l)
{
	if (strstr(log, "BPF program is too large"))
		log_too_large_hint(l, insn);
	if (strstr(log, "jumps is too complex"))
		log_jumps_hint();
	log_map_type_hint(log);
	log_null_check_hint(log);
	if (strstr(log, "cannot call GPL-restricted function"))
		log_license_fix(prog, insn, l);
	if (first_callx(l) >= 0)
		log_error("  fix: instruction %ld is an indirect call (callx, opcode 0x8d), which clang writes for helper calls in an object built without optimisation (-O0): build with -O2",
			  first_callx(l));
}

const struct obj_pass verifier_hints_pass = {
	.name = "verifier hints",
	.log_size = verifier_log_size,
	.reason = verifier_reason,
	.hint = verifier_hint,
};
