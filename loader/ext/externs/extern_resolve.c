// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * extern_resolve.c - the object's externs resolved against the running
 * kernel at load: its version and configuration (kconfig.c), kallsyms for
 * untyped ksyms, and its BTF for typed ksyms and kfuncs, whose module BTF
 * fds go into BPF_PROG_LOAD's fd_array.
 */
#include <limits.h>
#include <stdio.h>
#include <sys/utsname.h>

#include "ext/externs/extern.h"
#include "co-re/btf_index.h"
#include "format/btf.h"
#include "co-re/kbtf.h"

/* ---- Resolving at load -------------------------------------------------- */

/* KERNEL_VERSION(a, b, c) of the running kernel, from uname's release. */
static uint32_t kernel_version(void)
{
	unsigned int a = 0, b = 0, c = 0;
	struct utsname u;

	if (uname(&u) || sscanf(u.release, "%u.%u.%u", &a, &b, &c) < 2)
		return 0;
	return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}

/* Look up every name of want in /proc/kallsyms in one pass: addrs[i] the
 * address, found[i] whether it is there. -errno when it cannot be read. */
static int kallsyms_lookup(const char *const *want, size_t n, uint64_t *addrs, bool *found)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512];

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* "ADDR TYPE NAME[\t[MODULE]]": compare the name before parsing */
		char *sym = strchr(line, ' '), *end;

		sym = sym ? strchr(sym + 1, ' ') : NULL;
		if (!sym)
			continue;
		sym++;
		end = sym + strcspn(sym, " \t\n");
		*end = '\0';
		for (size_t i = 0; i < n; i++) {
			if (!found[i] && strcmp(sym, want[i]) == 0) {
				found[i] = true;
				addrs[i] = strtoull(line, NULL, 16);
			}
		}
	}
	fclose(f);
	return 0;
}

/* The symbol of the arch's syscall wrappers: present when syscalls take a
 * struct pt_regs *. */
#if defined(__x86_64__)
#define SYSCALL_WRAPPER_SYM "__x64_sys_bpf"
#elif defined(__aarch64__)
#define SYSCALL_WRAPPER_SYM "__arm64_sys_bpf"
#else
#define SYSCALL_WRAPPER_SYM "__se_sys_bpf"
#endif

/* Whether the kernel has bpf_get_attach_cookie(): its helper ID in the
 * kernel's enum bpf_func_id, or failing BTF, Linux 5.15 or later. */
static bool kernel_has_cookie(const char *btf_path)
{
	const struct btf *kb;
	uint32_t id;

	if (kbtf_find(btf_path, "bpf_func_id", BTF_KIND_ENUM, &kb, &id, NULL) == 0) {
		const struct btf_type *t = btf_type_by_id(kb, id);
		const struct btf_enum *en = (const void *)(t + 1);

		for (uint16_t i = 0; i < btf_vlen(t); i++)
			if (strcmp(btf_str(kb, en[i].name_off), "BPF_FUNC_get_attach_cookie") == 0)
				return true;
		return false;
	}
	return kernel_version() >= (5u << 16) + (15u << 8);
}

/* Set e->why and fail, for externs the kernel cannot satisfy. */
#define ext_unresolved(e, ...) (snprintf((e)->why, sizeof((e)->why), __VA_ARGS__), -ENOENT)

/* Fill one kconfig extern's bytes in the .kconfig value. */
static int resolve_kconfig(struct bsdk_obj *obj, struct ext *e, uint8_t *data,
			   const bool *wrapper)
{
	uint8_t *dst = data + e->offset;
	char val[256], where[PATH_MAX];
	const char *text;
	size_t len;
	int found, err;

	memset(dst, 0, e->size);
	if (strcmp(e->name, "LINUX_KERNEL_VERSION") == 0) {
		uint32_t v = kernel_version();

		put_int(dst, e->size, v);
		snprintf(e->value, sizeof(e->value), "%#x (%u.%u.%u)", v, v >> 16, (v >> 8) & 0xff, v & 0xff);
		return v ? 0 : ext_unresolved(e, "the kernel's release cannot be parsed");
	}
	if (strcmp(e->name, "LINUX_HAS_BPF_COOKIE") == 0) {
		*dst = kernel_has_cookie(obj->btf_path);
		snprintf(e->value, sizeof(e->value), "%s", *dst ? "true" : "false");
		return 0;
	}
	if (strcmp(e->name, "LINUX_HAS_SYSCALL_WRAPPER") == 0) {
		*dst = *wrapper;
		snprintf(e->value, sizeof(e->value), "%s", *dst ? "true" : "false");
		return 0;
	}
	if (strncmp(e->name, "CONFIG_", 7) != 0)
		return ext_unresolved(e, "is not a name the loader knows (LINUX_KERNEL_VERSION, LINUX_HAS_BPF_COOKIE, LINUX_HAS_SYSCALL_WRAPPER, CONFIG_*)");
	text = kconfig_text(&len, where, &err);
	if (!text && err != -ENOENT) {
		/* not the same as absent: weak must not turn it into 0 */
		e->bad_value = true;
		return ext_unresolved(e, "cannot be looked up: reading %.100s failed: %s", where,
				      bsdk_strerror(err));
	}
	if (!text)
		return ext_unresolved(e, "the kernel's configuration cannot be read (%.100s)", where);
	found = kconfig_lookup(text, len, e->name, val, sizeof(val));
	if (found < 0)
		return ext_unresolved(e, "has a value in %.100s longer than the loader reads", where);
	if (!found)
		return ext_unresolved(e, "is not in the kernel's configuration (%.100s)", where);
	if (kconfig_set(e, val, dst, e->why, sizeof(e->why))) {
		memset(dst, 0, e->size);
		e->bad_value = true;
		return -EINVAL;
	}
	snprintf(e->value, sizeof(e->value), "%.90s", val);
	return 0;
}

static const char *kind_word(int kind)
{
	static const char *const words[] = {
		[BTF_KIND_INT] = "an integer", [BTF_KIND_PTR] = "a pointer", [BTF_KIND_ARRAY] = "an array",
		[BTF_KIND_STRUCT] = "a struct", [BTF_KIND_UNION] = "a union", [BTF_KIND_ENUM] = "an enum",
		[BTF_KIND_FWD] = "a forward declaration", [BTF_KIND_ENUM64] = "an enum",
		[BTF_KIND_FLOAT] = "a float",
	};

	return kind >= 0 && (size_t)kind < ARRAY_SIZE(words) && words[kind] ? words[kind] : "another kind";
}

/* The kernel's variable or function has the shape the object declares:
 * the same kind of type (and, for structs, unions and enums, the same
 * name up to a ___flavour suffix; for integers the same size), or for a
 * kfunc the same number of parameters. Not a full compatibility check:
 * what catches the declarations that would make the program read garbage
 * or pass arguments the kernel does not expect. */
static int check_shape(struct bsdk_obj *obj, struct ext *e, const struct btf *kb)
{
	const struct btf_type *kt = btf_type_by_id(kb, e->kernel_btf_id);
	const struct btf_type *lt, *kv;

	if (!kt)
		return 0;
	if (e->kind == EXT_KFUNC) {
		const struct btf_type *kp = btf_type_by_id(kb, kt->type);

		lt = btf_type_by_id(obj->btf, e->type_id);
		if (kp && lt && btf_kind(kp) == BTF_KIND_FUNC_PROTO && btf_kind(lt) == BTF_KIND_FUNC_PROTO &&
		    btf_vlen(kp) != btf_vlen(lt))
			return ext_unresolved(e, "takes %u argument%s in the kernel but %u in the object's declaration",
					      btf_vlen(kp), btf_vlen(kp) == 1 ? "" : "s", btf_vlen(lt));
		return 0;
	}
	kv = btf_skip_mods(kb, kt->type, NULL);
	lt = btf_skip_mods(obj->btf, e->type_id, NULL);
	if (!kv || !lt)
		return 0;
	if (btf_kind(kv) != btf_kind(lt) &&
	    !(btf_kind(kv) == BTF_KIND_ENUM64 && btf_kind(lt) == BTF_KIND_ENUM))
		return ext_unresolved(e, "is declared as %s, but the kernel's is %s", kind_word(btf_kind(lt)),
				      kind_word(btf_kind(kv)));
	if (btf_kind(kv) == BTF_KIND_INT && kv->size != lt->size)
		return ext_unresolved(e, "is declared as a %u-byte integer, but the kernel's has %u bytes",
				      lt->size, kv->size);
	if (btf_kind(kv) == BTF_KIND_STRUCT || btf_kind(kv) == BTF_KIND_UNION || btf_kind(kv) == BTF_KIND_ENUM) {
		const char *ln = btf_name(obj->btf, lt), *kn = btf_name(kb, kv);
		size_t len = btf_essential_len(ln);

		if (*ln && (strlen(kn) != len || strncmp(ln, kn, len)))
			return ext_unresolved(e, "is declared as %s '%s', but the kernel's is '%s'",
					      kind_word(btf_kind(lt)), ln, kn);
	}
	return 0;
}

/* Whether the kernel's BTF has a variable at all: pahole writes the per-CPU ones only when
 * the kernel's build asks it to, and some distributions' kernels (Debian 11's 5.10) have none. */
static bool kbtf_has_vars(const char *custom_path)
{
	const struct btf *kb = kbtf_vmlinux(custom_path);

	for (uint32_t id = 1; kb && id < btf_type_count(kb); id++)
		if (btf_kind(btf_type_by_id(kb, id)) == BTF_KIND_VAR)
			return true;
	return !kb;	/* unreadable: no claim either way */
}

/* Find a ksym variable or kfunc in the kernel's BTF. */
static int resolve_btf(struct bsdk_obj *obj, struct ext *e, int kind)
{
	const struct btf *kb;
	int err = kbtf_find(obj->btf_path, e->name, kind, &kb, &e->kernel_btf_id, &e->kernel_btf_fd);

	if (err == -ENOENT && kind == BTF_KIND_VAR && !kbtf_has_vars(obj->btf_path))
		return ext_unresolved(e, "not found in kernel BTF, which has no variables at all: typed __ksym "
				      "externs cannot resolve here ('const void' ones read /proc/kallsyms)");
	if (err == -ENOENT)
		return ext_unresolved(e, "not found in kernel BTF");
	if (err)
		return ext_unresolved(e, "the kernel's BTF cannot be read (%s)", bsdk_strerror(err));
	if (check_shape(obj, e, kb)) {
		e->bad_value = true;	/* there, but not as declared: weak does not help */
		return -EINVAL;
	}
	if (e->kernel_btf_fd > 0)
		snprintf(e->value, sizeof(e->value), "btf id %u (module btf fd %d)", e->kernel_btf_id, e->kernel_btf_fd);
	else
		snprintf(e->value, sizeof(e->value), "btf id %u", e->kernel_btf_id);
	return 0;
}

/* Give each module BTF fd a kfunc call needs its slot in xs->fd_array;
 * slot 0 stays unused, as off 0 means vmlinux. */
static int fd_array_slot(struct bsdk_obj *obj, struct ext *e)
{
	struct ext_state *xs = ext_state_of(obj);
	int zero = 0;

	for (size_t i = 1; i < xs->nfd_array; i++) {
		if (xs->fd_array[i] == e->kernel_btf_fd) {
			e->fd_idx = (int16_t)i;
			return 0;
		}
	}
	if (xs->nfd_array == 0 && array_push(&xs->fd_array, &xs->nfd_array, &zero, sizeof(int)))
		return -ENOMEM;
	if (xs->nfd_array >= INT16_MAX)
		return -E2BIG;
	if (array_push(&xs->fd_array, &xs->nfd_array, &e->kernel_btf_fd, sizeof(int)))
		return -ENOMEM;
	e->fd_idx = (int16_t)(xs->nfd_array - 1);
	return 0;
}

/* What an earlier resolve said of e is forgotten. */
static void ext_reset(struct ext *e)
{
	e->resolved = false;
	e->bad_value = false;
	e->why[0] = e->value[0] = '\0';
	e->kernel_btf_id = 0;
	e->kernel_btf_fd = 0;
	e->fd_idx = 0;
	e->addr = 0;
}

/* An untyped ksym, by what /proc/kallsyms said of it (kerr: why it could not be read). */
static int resolve_kallsyms(struct bsdk_obj *obj, struct ext *e, int kerr, bool found, uint64_t addr)
{
	if (kerr)
		return ext_unresolved(e, "/proc/kallsyms cannot be read (%s)", bsdk_strerror(kerr));
	if (!found)
		return ext_unresolved(e, "not found in /proc/kallsyms");
	e->addr = addr;
	snprintf(e->value, sizeof(e->value), "%#llx (kallsyms)", (unsigned long long)e->addr);
	if (!e->addr)
		log_warn("'%s': ksym extern '%s': /proc/kallsyms shows address 0 (kernel.kptr_restrict?)",
			 obj->name, e->name);
	return 0;
}

int externs_resolve(struct bsdk_obj *obj)
{
	struct ext_state *xs = ext_state_of(obj);
	const char **want = calloc(xs->nexts + 1, sizeof(*want));
	uint64_t *addrs = calloc(xs->nexts + 1, sizeof(*addrs));
	bool *found = calloc(xs->nexts + 1, sizeof(*found));
	uint8_t *kcfg = xs->kconfig_map != SIZE_MAX ? obj->maps[xs->kconfig_map].init_data : NULL;
	size_t nwant = 0;
	int failed = 0, kerr = 0;

	if (!want || !addrs || !found) {
		free(want);
		free(addrs);
		free(found);
		return -ENOMEM;
	}
	/* The syscall wrappers are functions of the kernel's BTF, found in
	 * its index; /proc/kallsyms is long and slow to read (a tenth of a
	 * second), so it is read only for what BTF cannot say: the addresses
	 * of untyped ksyms, and the wrappers of a kernel without BTF. One
	 * pass for every name needed. */
	want[nwant++] = SYSCALL_WRAPPER_SYM;
	if (ext_find(xs, "LINUX_HAS_SYSCALL_WRAPPER", NULL) &&
	    kbtf_find(obj->btf_path, SYSCALL_WRAPPER_SYM, BTF_KIND_FUNC, NULL, NULL, NULL) == 0)
		found[0] = true;
	for (size_t i = 0; i < xs->nexts; i++)
		if (xs->exts[i].kind == EXT_KSYM && !xs->exts[i].typed)
			want[nwant++] = xs->exts[i].name;
	if (nwant > 1 || (!found[0] && ext_find(xs, "LINUX_HAS_SYSCALL_WRAPPER", NULL)))
		kerr = kallsyms_lookup(want, nwant, addrs, found);

	for (size_t i = 0, k = 1; i < xs->nexts; i++) {
		struct ext *e = &xs->exts[i];
		int err = 0;

		ext_reset(e);
		switch (e->kind) {
		case EXT_KCONFIG:
			err = resolve_kconfig(obj, e, kcfg, &found[0]);
			break;
		case EXT_KSYM:
			if (e->typed) {
				err = resolve_btf(obj, e, BTF_KIND_VAR);
				break;
			}
			err = resolve_kallsyms(obj, e, kerr, found[k], addrs[k]);
			k++;
			break;
		case EXT_KFUNC:
			err = resolve_btf(obj, e, BTF_KIND_FUNC);
			if (!err && e->kernel_btf_fd > 0)
				err = fd_array_slot(obj, e);
			break;
		}
		e->resolved = err == 0;
		if (err && e->weak && !e->bad_value) {
			snprintf(e->value, sizeof(e->value), "%s", e->kind == EXT_KFUNC ? "absent (weak: calls poisoned)" : "absent (weak: 0)");
			continue;
		}
		if (err)
			failed++;
	}
	free(want);
	free(addrs);
	free(found);
	return failed;
}

int externs_load(struct bsdk_obj *obj)
{
	struct ext_state *xs = ext_state_of(obj);
	int failed;

	if (!xs->nexts)
		return 0;
	failed = externs_resolve(obj);
	if (failed < 0)
		return failed;
	/* One error: the extern that failed, or how many did and then each
	 * on a detail line of its own. */
	char lead[1100] = "  ";

	if (failed > 1)
		log_error("'%s': %d externs cannot be resolved on this kernel:", obj->name, failed);
	else
		snprintf(lead, sizeof(lead), "'%.1000s': ", obj->name);
	for (size_t i = 0; i < xs->nexts; i++) {
		const struct ext *e = &xs->exts[i];

		if (e->resolved)
			log_debug("'%s': %s extern '%s' = %s", obj->name, extern_kind_names[e->kind], e->name, e->value);
		else if (e->weak && !e->bad_value)
			log_debug("'%s': %s extern '%s': %s; weak, so %s", obj->name, extern_kind_names[e->kind], e->name,
				  e->why, e->kind == EXT_KFUNC ? "its calls are poisoned" : "0");
		else if (e->kind == EXT_KFUNC)
			log_error("%skfunc '%s' %s", lead, e->name, e->why);
		else
			log_error("%s%s extern '%s' %s", lead, extern_kind_names[e->kind], e->name, e->why);
	}
	return failed ? fail(ENOENT) : 0;
}
