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

/* The verifier gave up at its instruction limit ("BPF program is too
 * large. Processed 1000001 insn"): nearly always a loop whose trip count it
 * cannot see. Say so, and what this kernel offers instead: bpf_loop() is a
 * helper since Linux 5.17, bpf_for() (bpf_iter_num_new) a kfunc since 6.4. */
static void log_too_large_hint(void)
{
	int loop = kernel_has_func("bpf_loop"), iter = kernel_has_func("bpf_iter_num_new");
	const char *offer;

	if (loop < 0 || iter < 0)
		offer = "bpf_loop() (Linux 5.17+) or bpf_for() (Linux 6.4+)";
	else if (loop && iter)
		offer = "bpf_loop() or bpf_for(), which this kernel has";
	else if (loop)
		offer = "bpf_loop(), which this kernel has (not bpf_for(): Linux 6.4+)";
	else
		offer = "nothing else: this kernel has neither bpf_loop() nor bpf_for()";
	log_error("  hint: a loop the verifier cannot bound (it stopped after 1000000 instructions): give it a constant bound, or use %s",
		  offer);
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
		if (!skip) {
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
		log_too_large_hint();
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
