// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach_btf.c - attach points the kernel names by BTF type ID: tp_btf/
 * (the typedef btf_trace_NAME of a tracepoint), fentry/, fexit/,
 * fmod_ret/ (the FUNC NAME), lsm/ (the FUNC bpf_lsm_NAME of the hook) and
 * iter/ (the FUNC bpf_iter_NAME). BPF_PROG_LOAD takes the ID (and, for a
 * module's function, an fd of the module's BTF) so that the verifier
 * checks the program against the target's real argument types; attaching
 * is then BPF_RAW_TRACEPOINT_OPEN without a name (kernel 5.5+) or, for
 * iterators, a BPF link whose output is read through BPF_ITER_CREATE.
 *
 * Kernel BTF is read once per process by co-re/kbtf.c, which the core
 * does without: these kinds are rows of this layer (kinds.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <linux/btf.h>

#include "hooks/hooks.h"
#include "object/pass.h"
#include "co-re/kbtf.h"
#include "format/btf.h"

/* "Did you mean" scans the kernel's names of a kind (vmlinux has 56,000 functions): in an
 * emulated guest, most of a run that finds a dozen programs' functions missing (fsdist's
 * placeholder targets, fentry and fexit on each). So an object keeps the list of names, made
 * once per kind and prefix, and what a scan found per target: one scan per missing name,
 * whichever program asks. Kept with the object (obj_state()): the names point into kernel
 * BTF, which outlives every object that uses it. */
struct near_memo {
	int kind;
	const char *prefix;
	char target[128];
	char near[300];
};

struct near_cache {
	const struct btf *btf;	/* the names' */
	int kind;
	const char *prefix;
	const char **names;
	size_t n;
	struct near_memo memo[32];
	size_t nmemo, next;	/* slots used, the slot to write */
};

static const char near_key;

static void near_cache_free(void *p)
{
	struct near_cache *c = p;

	free(c->names);
	free(c);
}

/* The names of kind after prefix in btf, into c, made once; false without memory. */
static bool btf_names(struct near_cache *c, const struct btf *btf, const char *prefix, int kind)
{
	uint32_t first = btf_first_id(btf), count = btf_type_count(btf);
	size_t plen = strlen(prefix);

	if (c->names && c->btf == btf && c->kind == kind && strcmp(c->prefix, prefix) == 0)
		return true;
	free(c->names);
	c->n = 0;
	c->names = count > first ? calloc(count - first, sizeof(*c->names)) : NULL;
	for (uint32_t id = first; c->names && id < count; id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);
		const char *name = t && btf_kind(t) == kind ? btf_name(btf, t) : NULL;

		if (name && strncmp(name, prefix, plen) == 0)
			c->names[c->n++] = name + plen;
	}
	c->btf = btf;
	c->kind = kind;
	c->prefix = prefix;
	return c->names != NULL;
}

/* The suggestion kept for target, or NULL. */
static const struct near_memo *near_memo_find(const struct near_cache *c, const char *prefix,
					      int kind, const char *target)
{
	for (size_t i = 0; i < c->nmemo; i++) {
		const struct near_memo *m = &c->memo[i];

		if (m->kind == kind && strcmp(m->prefix, prefix) == 0 &&
		    strcmp(m->target, target) == 0)
			return m;
	}
	return NULL;
}

/* Keep what the scan for target found (out). */
static void near_memo_add(struct near_cache *c, const char *prefix, int kind,
			  const char *target, const char *out)
{
	struct near_memo *slot = &c->memo[c->next];

	if (strlen(target) >= sizeof(slot->target) || strlen(out) >= sizeof(slot->near))
		return;
	slot->kind = kind;
	slot->prefix = prefix;
	snprintf(slot->target, sizeof(slot->target), "%s", target);
	snprintf(slot->near, sizeof(slot->near), "%s", out);
	c->next = (c->next + 1) % ARRAY_SIZE(c->memo);
	if (c->nmemo < ARRAY_SIZE(c->memo))
		c->nmemo++;
}

/* "Did you mean": the kernel's name of this kind, after prefix, closest
 * to target (vmlinux's BTF; modules are not searched), into out; "" when
 * none is close or the BTF cannot be read (nothing logged). */
static void btf_target_closest(struct bsdk_obj *obj, const char *prefix, int kind,
			       const char *target, char *out, size_t size)
{
	struct near_cache *c = obj_state_find(obj, &near_key);
	char swallowed[256];
	const struct near_memo *m;
	const struct btf *btf;
	const char *near;

	out[0] = '\0';
	log_capture_begin(swallowed, sizeof(swallowed));
	btf = kbtf_vmlinux(obj->btf_path);
	log_capture_end();
	if (!btf)
		return;
	if (!c)
		c = obj_state(obj, &near_key, sizeof(*c), near_cache_free);
	m = c ? near_memo_find(c, prefix, kind, target) : NULL;
	if (m) {
		snprintf(out, size, "%s", m->near);
		return;
	}
	if (!c || !btf_names(c, btf, prefix, kind))
		return;
	near = bsdk_name_closest(target, c->names, c->n);
	if (near)
		snprintf(out, size, "; did you mean '%s'?", near);
	near_memo_add(c, prefix, kind, target, out);
}

/* This layer's state of an object: each program's target as last found in kernel BTF, by
 * program index, so that the attach policy's check and the load look it up once. */
struct btf_target {
	char *found_for;	/* the prog->target it was found for; NULL: not looked up */
	uint32_t id;
	int obj_fd;		/* 0 for vmlinux; owned by kbtf */
};
struct btf_targets {
	size_t n;
	struct btf_target of[];
};

static void targets_free(void *state)
{
	struct btf_targets *s = state;

	for (size_t i = 0; i < s->n; i++)
		free(s->of[i].found_for);
	free(s);
}

/* prog's entry, or NULL with errno ENOMEM. */
static struct btf_target *target_of(const struct bsdk_prog *prog)
{
	struct bsdk_obj *obj = prog->obj;
	struct btf_targets *s = obj_state(obj, &attach_btf_pass, sizeof(*s) + obj->nprogs * sizeof(s->of[0]),
					  targets_free);

	if (!s)
		return NULL;
	s->n = obj->nprogs;
	return &s->of[prog - obj->progs];
}

/* prog's entry when its target was found for the target it has now, else NULL. */
static const struct btf_target *target_found(const struct bsdk_prog *prog)
{
	const struct btf_targets *s = obj_state_find(prog->obj, &attach_btf_pass);
	const struct btf_target *t = s ? &s->of[prog - prog->obj->progs] : NULL;

	return t && t->found_for && strcmp(t->found_for, prog->target) == 0 ? t : NULL;
}

int attach_btf_resolve(struct bsdk_prog *prog, char *why, size_t size)
{
	const struct attach_kind *k = prog->kind;
	const char *target = prog->target;
	char name[256], logged[512];
	struct btf_target *t;
	uint32_t id = 0;
	int fd = 0, err;

	/* "MODULE:FUNC" names the module; kernel BTF is searched by name in
	 * vmlinux and then every module anyway */
	if (strchr(target, ':'))
		target = strchr(target, ':') + 1;
	if ((size_t)snprintf(name, sizeof(name), "%s%s", k->btf_prefix, target) >= sizeof(name)) {
		snprintf(why, size, "the target '%s' is too long", prog->target);
		return fail(BSDK_ESECTION);
	}
	log_capture_begin(logged, sizeof(logged));
	err = kbtf_find(prog->obj->btf_path, name, k->btf_kind, NULL, &id, &fd);
	log_capture_end();
	if (err == -ENOENT) {
		char near[300];

		btf_target_closest(prog->obj, k->btf_prefix, k->btf_kind, target, near,
				   sizeof(near));
		snprintf(why, size, "%s target '%s' is not in the kernel's BTF (no %s '%s')%s",
			 k->type_name, prog->target,
			 k->btf_kind == BTF_KIND_TYPEDEF ? "typedef" : "function", name, near);
		return fail(BSDK_ENOPROBE);
	}
	if (err) {
		snprintf(why, size, "%s programs need the kernel's BTF: %s", k->type_name,
			 logged[0] ? logged : bsdk_strerror(err));
		return err;
	}
	t = target_of(prog);
	if (t) {
		free(t->found_for);
		t->found_for = strdup(prog->target);
	}
	if (!t || !t->found_for) {
		snprintf(why, size, "out of memory");
		return fail(ENOMEM);
	}
	t->id = id;
	t->obj_fd = fd;
	return 0;
}

/* Load "r0 = 0; exit", valid for every kind at any target, as a program of
 * this type and attach type at BTF ID id (0: none) of the BTF object
 * obj_fd (0: vmlinux) and close it: 0, or the kernel's -errno. */
static int probe_load(int prog_type, int attach_type, uint32_t flags, uint32_t id, int obj_fd)
{
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = (uint32_t)prog_type;
	attr.expected_attach_type = (uint32_t)attach_type;
	attr.prog_flags = flags;
	attr.attach_btf_id = id;
	attr.attach_btf_obj_fd = (uint32_t)obj_fd;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = ARRAY_SIZE(insns);
	attr.license = (uint64_t)(uintptr_t)"GPL";
	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : fd;
}

static bool probe_loads(int prog_type, int attach_type, uint32_t id)
{
	return probe_load(prog_type, attach_type, 0, id, 0) == 0;
}

/* A trampoline program (fentry, fexit, fmod_ret) refused with EPERM to a
 * process the kernel lets load BPF: what the kernel shows that may explain
 * it, its lockdown mode and whether it lists the functions ftrace can
 * patch (a trampoline is put in through ftrace), and the kinds it takes
 * instead, each tried. Appended to why. */
static void trampoline_refusal(const struct bsdk_prog *prog, char *why, size_t size)
{
	char mode[128] = "", *open_br, *close_br, seen[200] = "", instead[64] = "";
	size_t len = strlen(why);
	uint32_t id = 0;
	FILE *f = fopen("/sys/kernel/security/lockdown", "re");
	int fd;

	if (f && fgets(mode, sizeof(mode), f) && (open_br = strchr(mode, '[')) &&
	    (close_br = strchr(open_br, ']'))) {
		*close_br = '\0';
		snprintf(seen, sizeof(seen), "lockdown is '%s'", open_br + 1);
	}
	if (f)
		fclose(f);
	fd = open("/sys/kernel/tracing/available_filter_functions", O_RDONLY | O_CLOEXEC);
	if (fd < 0 && (errno == EPERM || errno == EACCES))
		snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
			 "%sthe list of functions ftrace can patch is refused too (available_filter_functions: %s)",
			 *seen ? ", " : "", strerror(errno));
	if (fd >= 0)
		close(fd);
	if (kbtf_find(prog->obj->btf_path, "btf_trace_sys_enter", BTF_KIND_TYPEDEF, NULL, &id, NULL) == 0 &&
	    probe_loads(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, id))
		snprintf(instead, sizeof(instead), "tp_btf/");
	if (probe_loads(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0))
		snprintf(instead + strlen(instead), sizeof(instead) - strlen(instead), "%sraw_tp/",
			 *instead ? " and " : "");
	if (len < size)
		snprintf(why + len, size - len, " (as a user the kernel lets load BPF; what it shows: %s; it takes %s programs instead)",
			 *seen ? seen : "nothing in securityfs or tracefs",
			 *instead ? instead : "neither tp_btf/ nor raw_tp/");
}

int attach_btf_probe_load(struct bsdk_prog *prog, char *why, size_t size)
{
	const struct btf_target *t = target_found(prog);
	int err = t ? 0 : attach_btf_resolve(prog, why, size);

	if (err)
		return err;
	t = target_found(prog);
	err = probe_load(prog->kind->prog_type, prog->kind->expected_attach_type,
			 prog->kind->sleepable ? BPF_F_SLEEPABLE : 0, t->id, t->obj_fd);
	if (!err)
		return 0;
	snprintf(why, size, "this kernel refuses %s%s programs at '%s': %s", prog->kind->type_name,
		 prog->kind->sleepable ? " (sleepable)" : "", prog->target, bsdk_strerror(err));
	if (err == -EPERM && prog->kind->prog_type == BPF_PROG_TYPE_TRACING &&
	    prog->kind->expected_attach_type != BPF_TRACE_RAW_TP &&
	    prog->kind->expected_attach_type != BPF_TRACE_ITER &&
	    probe_loads(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0))
		trampoline_refusal(prog, why, size);
	return err;
}

/* A kernel built with the BPF LSM runs its programs only when "bpf" is among the LSMs it
 * booted with (CONFIG_LSM or lsm=): otherwise an lsm program attaches and never runs. Say so
 * when securityfs tells; when it is not mounted, nothing can be told. */
static void lsm_check_active(const struct bsdk_prog *prog)
{
	char list[512];
	const char *p;
	size_t n = strlen("bpf");

	if (read_file("/sys/kernel/security/lsm", list, sizeof(list)) <= 0)
		return;
	for (p = list; (p = strstr(p, "bpf")); p += n)
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0' || p[n] == '\n'))
			return;
	list[strcspn(list, "\n")] = '\0';
	log_warn("program '%s': attached to lsm '%s', but this kernel did not boot with the BPF LSM "
		 "active (its LSMs: %s): the hook will not run; boot with lsm=%s,bpf",
		 prog->fn.name, prog->target, list, list);
}

/* tp_btf, fentry, fexit, fmod_ret, lsm: the kernel knows where from the
 * program itself (its attach_btf_id). */
int attach_btf_tracing(struct bsdk_prog *prog, struct bsdk_link *link)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.prog_fd = (uint32_t)prog->fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
	if (fd < 0)
		return log_fail(-fd, "program '%s': cannot attach to %s '%s': %s", prog->fn.name,
				prog->kind->type_name, prog->target, bsdk_strerror(fd));
	link->link_fd = fd;
	if (prog->kind->expected_attach_type == BPF_LSM_MAC)
		lsm_check_active(prog);
	return 0;
}

int attach_btf_iter(struct bsdk_prog *prog, struct bsdk_link *link)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = (uint32_t)prog->fd;
	attr.link_create.attach_type = BPF_TRACE_ITER;
	fd = sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd < 0)
		return log_fail(-fd, "program '%s': cannot create the iterator link for '%s': %s",
				prog->fn.name, prog->target, bsdk_strerror(fd));
	link->link_fd = fd;
	return 0;
}

int bsdk_link_iter_create(const struct bsdk_link *link)
{
	union bpf_attr attr;
	int fd;

	if (!link->prog || link->prog->kind->method != &attach_by_btf_iter || link->link_fd < 0)
		return log_fail(EINVAL, "program '%s': not an iterator link",
				link->prog ? link->prog->fn.name : "?");
	memset(&attr, 0, sizeof(attr));
	attr.iter_create.link_fd = (uint32_t)link->link_fd;
	fd = sys_bpf(BPF_ITER_CREATE, &attr, sizeof(attr));
	if (fd < 0)
		return log_fail(-fd, "program '%s': cannot open iterator '%s': %s",
				link->prog->fn.name, link->prog->target, bsdk_strerror(fd));
	return fd;
}

/* BPF_PROG_LOAD of a BTF-typed program takes its target's ID: found at
 * load, unless the attach policy found it already for the same target. */
static int btf_target_attr(struct bsdk_prog *prog, union bpf_attr *attr)
{
	const struct btf_target *t;
	char why[512];
	int err;

	if (!prog->kind->btf_prefix)
		return 0;
	t = target_found(prog);
	if (!t) {
		err = attach_btf_resolve(prog, why, sizeof(why));
		if (err)
			return log_fail(err == -ENOMEM ? ENOMEM : BSDK_ENOPROBE,
					"program '%s' (section '%s'): %s", prog->fn.name, prog->section, why);
		t = target_found(prog);
	}
	attr->attach_btf_id = t->id;
	attr->attach_btf_obj_fd = (uint32_t)t->obj_fd;
	return 0;
}

const struct obj_pass attach_btf_pass = {
	.name = "BTF attach points",
	.prog_attr = btf_target_attr,
};
