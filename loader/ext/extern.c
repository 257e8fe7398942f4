// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * extern.c - the object's extern declarations, filled from the running
 * kernel: __kconfig variables (the kernel's version, features and
 * CONFIG_ options), __ksym variables (kernel variables, by BTF or by
 * address) and __ksym functions (kfuncs, by BTF ID).
 *
 * clang leaves each extern as an undefined symbol, a BTF VAR or FUNC with
 * extern linkage in the DATASEC ".kconfig" or ".ksyms", and relocations
 * on the instructions that use it. At open, externs_collect() finds them
 * all and lays the __kconfig ones out in one read-only array map,
 * ".kconfig", as libbpf does; relo.c turns each use into a relocation of
 * that map (kconfig), or of the extern (ksym, kfunc). At load,
 * externs_resolve() reads the values and kernel BTF IDs, so that linking
 * writes them into the instructions:
 *
 *   kconfig     ld_imm64 -> BPF_PSEUDO_MAP_VALUE of .kconfig + offset
 *   typed ksym  ld_imm64 -> BPF_PSEUDO_BTF_ID, imm = the VAR's kernel BTF
 *               ID, next imm = the module's BTF fd (0: vmlinux)
 *   void ksym   ld_imm64 -> the address from /proc/kallsyms
 *   kfunc call  src_reg BPF_PSEUDO_KFUNC_CALL, imm = the FUNC's BTF ID,
 *               off = index of the module's BTF fd in fd_array (0: vmlinux)
 *
 * A __weak extern the kernel lacks reads as zero (NULL), and a call of a
 * missing weak kfunc becomes a call of a helper that does not exist: the
 * verifier only rejects it if the call can be reached, which is what
 * bpf_ksym_exists() guards.
 */
#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/utsname.h>
#include <zlib.h>

#include "ext/ext.h"
#include "format/btf.h"
#include "co-re/kbtf.h"

#define KCONFIG_SEC ".kconfig"
#define KSYMS_SEC ".ksyms"

/* What a missing weak kfunc's calls become: a helper number far past any
 * real one, plus the extern's index, so the verifier's "invalid func
 * unknown#N" says which. */
#define KFUNC_POISON 2002000000

/* A BTF record's info word: kind and vlen, no kind_flag. */
#define EXT_BTF_INFO(kind, vlen) (((uint32_t)(kind) << 24) | (uint32_t)(vlen))

static const char *const kind_names[] = { "kconfig", "ksym", "kfunc" };

/* The externs of an object, and what they resolved to: obj_state() of ext_key. */
struct ext_state {
	struct ext *exts;	/* sorted by name */
	size_t nexts;
	size_t kconfig_map;	/* index of the ".kconfig" map, SIZE_MAX: none */
	bool resolved;		/* externs_resolve() ran */
	int *fd_array;		/* module BTF fds of kfunc calls, for BPF_PROG_LOAD */
	size_t nfd_array;
};

static const char ext_key;

static void ext_state_free(void *p)
{
	struct ext_state *xs = p;

	free(xs->exts);
	free(xs->fd_array);
	free(xs);
}

/* An object without externs has this state: none. */
static struct ext_state no_externs = { .kconfig_map = SIZE_MAX };

static struct ext_state *ext_state_of(const struct bsdk_obj *obj)
{
	struct ext_state *xs = obj_state_find(obj, &ext_key);

	return xs ? xs : &no_externs;
}

/* ---- The kernel's configuration text ----------------------------------- */

/* The text of the running kernel's configuration, read once: /proc/config.gz
 * (CONFIG_IKCONFIG_PROC), else /boot/config-$(uname -r). NULL when it cannot
 * be had: *err is -ENOENT when neither file is there, else why reading failed
 * (then the next call tries again); *where names what was read (or tried). */
static const char *kconfig_text_locked(size_t *len, const char **where, int *err)
{
	static char *text;
	static size_t text_len;
	static char path[PATH_MAX];
	static bool done;
	struct utsname u;
	gzFile gz;

	*where = path;
	*len = text_len;
	*err = text ? 0 : -ENOENT;
	if (done)
		return text;
	snprintf(path, sizeof(path), "/proc/config.gz");
	errno = 0;
	gz = gzopen(path, "rb");
	if (!gz && (errno == ENOENT || errno == 0) && uname(&u) == 0) {
		snprintf(path, sizeof(path), "/boot/config-%s", u.release);
		gz = gzopen(path, "rb");	/* zlib reads plain files too */
	}
	if (!gz) {
		*err = errno && errno != ENOENT ? -errno : -ENOENT;
		if (*err == -ENOENT) {
			done = true;
			snprintf(path, sizeof(path), "/proc/config.gz or /boot/config-$(uname -r)");
		}
		return NULL;
	}
	text_len = 0;
	*err = 0;
	for (size_t cap = 0;;) {
		char *grown;
		int n;

		if (text_len + 65536 > cap) {
			cap = cap ? cap * 2 : 262144;
			grown = realloc(text, cap + 1);
			if (!grown) {
				*err = -ENOMEM;
				break;
			}
			text = grown;
		}
		n = gzread(gz, text + text_len, 65536);
		if (n < 0)
			*err = errno ? -errno : -EIO;
		if (n <= 0)
			break;
		text_len += (size_t)n;
	}
	gzclose(gz);
	if (!*err) {
		text[text_len] = '\0';
		*len = text_len;
		done = true;
		return text;
	}
	/* half a configuration would make options that are there look absent */
	free(text);
	text = NULL;
	text_len = 0;
	return NULL;
}

/* kconfig_text_locked() for any thread: the first ones to ask may read at
 * once; once read, the text does not change. where (PATH_MAX bytes) gets
 * the path. */
static const char *kconfig_text(size_t *len, char *where, int *err)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	const char *text, *path;

	pthread_mutex_lock(&lock);
	text = kconfig_text_locked(len, &path, err);
	snprintf(where, PATH_MAX, "%s", path);
	pthread_mutex_unlock(&lock);
	return text;
}

/*
 * Find name in a configuration text: its value, as written after '=' with
 * a string's quotes kept, into val (size bytes, NUL-terminated; truncated
 * values fail). "# CONFIG_X is not set" gives "n". 1 when found, 0 when
 * the text does not mention it, -EINVAL for a value too long for val.
 */
int kconfig_lookup(const char *text, size_t len, const char *name, char *val, size_t size)
{
	size_t nlen = strlen(name);
	const char *end = text + len;

	for (const char *line = text; line < end;) {
		const char *eol = memchr(line, '\n', (size_t)(end - line));
		size_t llen;

		if (!eol)
			eol = end;
		llen = (size_t)(eol - line);
		if (llen > nlen + 1 && memcmp(line, name, nlen) == 0 && line[nlen] == '=') {
			size_t vlen = llen - nlen - 1;

			while (vlen && (line[nlen + 1 + vlen - 1] == '\r' ||
					line[nlen + 1 + vlen - 1] == ' '))
				vlen--;
			if (vlen + 1 > size)
				return -EINVAL;
			memcpy(val, line + nlen + 1, vlen);
			val[vlen] = '\0';
			return 1;
		}
		if (llen == nlen + 13 && memcmp(line, "# ", 2) == 0 &&
		    memcmp(line + 2, name, nlen) == 0 &&
		    memcmp(line + 2 + nlen, " is not set", 11) == 0) {
			if (size < 2)
				return -EINVAL;
			strcpy(val, "n");
			return 1;
		}
		line = eol + 1;
	}
	return 0;
}

/* ---- Turning a value into the extern's bytes ---------------------------- */

/* Whether the extern's type can hold v: its size and signedness. */
static bool int_fits(const struct ext *e, unsigned long long v, bool neg)
{
	unsigned int bits = e->size * 8;

	if (bits >= 64)
		return !neg || e->is_signed;
	if (e->is_signed)
		return neg ? (long long)v >= -(1LL << (bits - 1)) : v < (1ULL << (bits - 1));
	return !neg && v < (1ULL << bits);
}

static void put_int(void *dst, unsigned int size, unsigned long long v)
{
	/* the low bytes of v in the host's order: BPF runs in it */
	union { uint8_t u8; uint16_t u16; uint32_t u32; uint64_t u64; } u;

	switch (size) {
	case 1: u.u8 = (uint8_t)v; break;
	case 2: u.u16 = (uint16_t)v; break;
	case 4: u.u32 = (uint32_t)v; break;
	default: u.u64 = v; break;
	}
	memcpy(dst, &u, size);
}

/*
 * Store the configuration value val ("y", "m", "n", "123", "0x1f",
 * "\"text\"") into dst, as the extern's type wants it; the error, in
 * words, into err. 0 or -EINVAL.
 */
int kconfig_set(const struct ext *e, const char *val, void *dst, char *err, size_t err_size)
{
	bool tri = (val[0] == 'y' || val[0] == 'm' || val[0] == 'n') && val[1] == '\0';

	switch (e->kcfg) {
	case KCFG_BOOL:
		if (!tri || val[0] == 'm') {
			snprintf(err, err_size, "is declared bool but the kernel's value is '%s'%s", val,
				 val[0] == 'm' && tri ? " (a module): declare it enum libbpf_tristate" : "");
			return -EINVAL;
		}
		*(uint8_t *)dst = val[0] == 'y';
		return 0;
	case KCFG_TRISTATE:
		if (!tri) {
			snprintf(err, err_size, "is declared enum libbpf_tristate but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		put_int(dst, e->size, val[0] == 'y' ? 1 : val[0] == 'm' ? 2 : 0);
		return 0;
	case KCFG_CHAR:
		if (!tri) {
			snprintf(err, err_size, "is declared char but the kernel's value is '%s', not y, m or n", val);
			return -EINVAL;
		}
		*(char *)dst = val[0];
		return 0;
	case KCFG_CHAR_ARR: {
		size_t n = strlen(val);

		if (n < 2 || val[0] != '"' || val[n - 1] != '"') {
			snprintf(err, err_size, "is declared a char array but the kernel's value is '%s', not a string", val);
			return -EINVAL;
		}
		n -= 2;
		if (n + 1 > e->size) {
			snprintf(err, err_size, "holds %u bytes but the kernel's value %s needs %zu", e->size, val, n + 1);
			return -EINVAL;
		}
		memset(dst, 0, e->size);
		memcpy(dst, val + 1, n);
		return 0;
	}
	case KCFG_INT: {
		unsigned long long v;
		bool neg = val[0] == '-';
		char *endp;

		if (tri || !val[neg] || isspace((unsigned char)val[neg])) {
			snprintf(err, err_size, "is declared an integer but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		errno = 0;
		v = strtoull(val + neg, &endp, 0);
		if (errno || *endp || (neg && v > (1ULL << 63))) {
			snprintf(err, err_size, "is declared an integer but the kernel's value is '%s'", val);
			return -EINVAL;
		}
		if (neg)
			v = (unsigned long long)-(long long)v;
		if (!int_fits(e, v, neg)) {
			snprintf(err, err_size, "is %u bytes%s, too small for the kernel's value %s",
				 e->size, e->is_signed ? "" : " unsigned", val);
			return -EINVAL;
		}
		put_int(dst, e->size, v);
		return 0;
	}
	}
	snprintf(err, err_size, "has a type the loader cannot fill");
	return -EINVAL;
}

/* ---- Collecting the externs at open ------------------------------------- */

/* Classify a __kconfig variable's type: bool, tristate, char, integer or
 * char array, with its size and alignment. */
static int kcfg_classify(struct bsdk_obj *obj, struct ext *e, uint32_t type)
{
	const struct btf_type *t = btf_skip_mods(obj->btf, type, NULL);
	uint64_t size;

	if (!t || btf_type_size(obj->btf, type, &size) || size == 0 || size > 4096)
		goto bad;
	e->size = (uint32_t)size;
	e->align = 1;
	if (btf_kind(t) == BTF_KIND_INT) {
		uint32_t enc = BTF_INT_ENCODING(*(const uint32_t *)(t + 1));

		if (size != 1 && size != 2 && size != 4 && size != 8)
			goto bad;
		e->align = e->size;
		e->is_signed = enc & BTF_INT_SIGNED;
		if (enc & BTF_INT_BOOL)
			e->kcfg = KCFG_BOOL;
		else if (size == 1 && (enc & BTF_INT_CHAR || strcmp(btf_name(obj->btf, t), "char") == 0))
			e->kcfg = KCFG_CHAR;
		else
			e->kcfg = KCFG_INT;
		return 0;
	}
	if (btf_kind(t) == BTF_KIND_ENUM && strcmp(btf_name(obj->btf, t), "libbpf_tristate") == 0) {
		e->kcfg = KCFG_TRISTATE;
		e->align = e->size;
		return 0;
	}
	if (btf_kind(t) == BTF_KIND_ARRAY) {
		const struct btf_array *a = (const void *)(t + 1);
		const struct btf_type *el = btf_skip_mods(obj->btf, a->type, NULL);

		if (el && btf_kind(el) == BTF_KIND_INT && el->size == 1) {
			e->kcfg = KCFG_CHAR_ARR;
			return 0;
		}
	}
bad:
	return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s': its type is none of bool, enum libbpf_tristate, char, an integer of 1, 2, 4 or 8 bytes, or a char array",
			e->name);
}

/* The names the loader fills itself, besides CONFIG_*; their types are fixed. */
static int kcfg_check_special(struct bsdk_obj *obj, const struct ext *e)
{
	if (strcmp(e->name, "LINUX_KERNEL_VERSION") == 0) {
		if (e->kcfg != KCFG_INT || e->size < 4)
			return obj_fail(obj, BSDK_EBTF, "kconfig extern 'LINUX_KERNEL_VERSION' must be a 32- or 64-bit integer");
	} else if (strncmp(e->name, "LINUX_HAS_", 10) == 0) {
		if (e->kcfg != KCFG_BOOL)
			return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s' must be declared bool", e->name);
	}
	return 0;
}

static int ext_cmp(const void *a, const void *b)
{
	const struct ext *x = a, *y = b;

	/* kconfig ones first, largest alignment first: no padding between */
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->align != y->align)
		return x->align > y->align ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The symbol of an extern, by name: undefined, global or weak. */
static const GElf_Sym *ext_sym(const struct bsdk_obj *obj, const char *name)
{
	for (size_t i = 1; i < obj->file.nsyms; i++) {
		const GElf_Sym *s = &obj->file.syms[i];
		int bind = GELF_ST_BIND(s->st_info);

		if (s->st_shndx == SHN_UNDEF && (bind == STB_GLOBAL || bind == STB_WEAK) &&
		    strcmp(elf_sym_name(&obj->file, s), name) == 0)
			return s;
	}
	return NULL;
}

/* A type the kernel accepts in place of what it cannot take (a 4-byte int,
 * or any int), 0 when the object has none. */
static uint32_t any_int(const struct btf *btf)
{
	uint32_t found = 0;

	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		const struct btf_type *t = btf_type_by_id(btf, id);

		if (t && btf_kind(t) == BTF_KIND_INT) {
			if (t->size == 4)
				return id;
			if (!found)
				found = id;
		}
	}
	return found;
}

static int secinfo_offset_cmp(const void *a, const void *b)
{
	const struct btf_var_secinfo *x = a, *y = b;

	return (x->offset > y->offset) - (x->offset < y->offset);
}

/*
 * The kernel refuses BTF with extern VARs and FUNCs, and DATASECs holding
 * FUNCs, so rewrite them in place, keeping every record's size and type
 * ID: .kconfig gets its layout and allocated variables; .ksyms becomes an
 * anonymous struct of ints (its variables' types become that int, their
 * linkage allocated); extern FUNCs become global ones, whose unnamed
 * parameters the kernel also refuses, so those borrow the function's name.
 */
/* Turn DATASEC sec into an anonymous struct of int members (one per
 * entry, the record keeps its size), or an empty one without an int. */
static void datasec_to_struct(struct btf *btf, uint32_t sec_id, uint32_t int_id)
{
	struct btf_type *sec = (struct btf_type *)btf_type_by_id(btf, sec_id);
	struct btf_member *m = (struct btf_member *)(sec + 1);
	uint32_t isize = int_id ? btf_type_by_id(btf, int_id)->size : 0;
	uint16_t n = int_id ? btf_vlen(sec) : 0;

	for (uint16_t i = 0; i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo vs = *(struct btf_var_secinfo *)&m[i];
		struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, vs.type);

		if (t && btf_kind(t) == BTF_KIND_VAR) {
			if (int_id)
				t->type = int_id;
			((struct btf_var *)(t + 1))->linkage = BTF_VAR_GLOBAL_ALLOCATED;
		}
		if (i < n)
			m[i] = (struct btf_member){ 0, int_id, i * isize * 8 };
	}
	sec->name_off = 0;
	sec->info = EXT_BTF_INFO(BTF_KIND_STRUCT, n);
	sec->size = n * isize;
}

static void externs_fix_btf(struct bsdk_obj *obj, uint32_t kcfg_sec, uint32_t ksym_sec)
{
	struct ext_state *xs = ext_state_of(obj);
	struct btf *btf = obj->btf;
	uint32_t int_id = any_int(btf);

	if (kcfg_sec && xs->kconfig_map != SIZE_MAX) {
		struct btf_type *sec = (struct btf_type *)btf_type_by_id(btf, kcfg_sec);
		struct btf_var_secinfo *vs = (struct btf_var_secinfo *)(sec + 1);
		uint16_t kept = 0;

		/* the used variables get their place in .kconfig; declared but
		 * unused ones leave the section (which the record shrinking
		 * allows: types are found by ID, not by walking the bytes) */
		for (uint16_t i = 0; i < btf_vlen(sec); i++) {
			struct btf_type *var = (struct btf_type *)btf_type_by_id(btf, vs[i].type);

			if (var && btf_kind(var) == BTF_KIND_VAR)
				((struct btf_var *)(var + 1))->linkage = BTF_VAR_GLOBAL_ALLOCATED;
			for (size_t k = 0; var && k < xs->nexts; k++) {
				if (xs->exts[k].btf_id == vs[i].type) {
					vs[kept] = vs[i];
					vs[kept++].offset = xs->exts[k].offset;
					break;
				}
			}
		}
		sec->info = EXT_BTF_INFO(BTF_KIND_DATASEC, kept);
		/* the kernel wants them in offset order */
		qsort(vs, kept, sizeof(*vs), secinfo_offset_cmp);
		sec->size = obj->maps[xs->kconfig_map].value_size;
	} else if (kcfg_sec) {
		datasec_to_struct(btf, kcfg_sec, int_id);
	}
	if (ksym_sec)
		datasec_to_struct(btf, ksym_sec, int_id);
	for (uint32_t id = 1; id < btf_type_count(btf); id++) {
		struct btf_type *t = (struct btf_type *)btf_type_by_id(btf, id);
		const struct btf_type *proto;
		struct btf_param *p;

		if (!t || btf_kind(t) != BTF_KIND_FUNC || btf_vlen(t) != BTF_FUNC_EXTERN)
			continue;
		t->info = EXT_BTF_INFO(BTF_KIND_FUNC, BTF_FUNC_GLOBAL);
		proto = btf_type_by_id(btf, t->type);
		if (!proto || btf_kind(proto) != BTF_KIND_FUNC_PROTO)
			continue;
		p = (struct btf_param *)(proto + 1);
		for (uint16_t i = 0; i < btf_vlen(proto); i++)
			if (p[i].type && !p[i].name_off)
				p[i].name_off = t->name_off;
	}
}

/* One DATASEC's externs into xs->exts. */
static int collect_sec(struct bsdk_obj *obj, uint32_t sec_id, bool kconfig)
{
	struct ext_state *xs = ext_state_of(obj);
	const struct btf_type *sec = btf_type_by_id(obj->btf, sec_id);
	const struct btf_var_secinfo *vs = btf_secinfos(sec);

	for (uint16_t i = 0; i < btf_vlen(sec); i++) {
		const struct btf_type *t = btf_type_by_id(obj->btf, vs[i].type);
		struct ext e = { .btf_id = vs[i].type, .kernel_btf_fd = 0 };
		const GElf_Sym *sym;
		int err;

		if (!t || (btf_kind(t) != BTF_KIND_VAR && btf_kind(t) != BTF_KIND_FUNC))
			return obj_fail(obj, BSDK_EBTF, "DATASEC '%s': entry %u is neither a variable nor a function",
					btf_name(obj->btf, sec), i);
		e.name = btf_name(obj->btf, t);
		sym = ext_sym(obj, e.name);
		if (!sym) {
			/* declared and never used: clang keeps the BTF only */
			log_debug("'%s': extern '%s' is declared but not used", obj->name, e.name);
			continue;
		}
		e.weak = GELF_ST_BIND(sym->st_info) == STB_WEAK;
		if (kconfig) {
			if (btf_kind(t) != BTF_KIND_VAR)
				return obj_fail(obj, BSDK_EBTF, "kconfig extern '%s' is a function; __kconfig is for variables", e.name);
			e.kind = EXT_KCONFIG;
			err = kcfg_classify(obj, &e, t->type);
			if (!err)
				err = kcfg_check_special(obj, &e);
			if (err)
				return err;
		} else if (btf_kind(t) == BTF_KIND_FUNC) {
			e.kind = EXT_KFUNC;
			e.type_id = t->type;
		} else {
			const struct btf_type *vt = btf_skip_mods(obj->btf, t->type, &e.type_id);

			e.kind = EXT_KSYM;
			/* extern const void sym __ksym: only its address */
			e.typed = vt != NULL && e.type_id != 0;
		}
		if (array_push(&xs->exts, &xs->nexts, &e, sizeof(e)))
			return -ENOMEM;
	}
	return 0;
}

static int externs_collect(struct bsdk_obj *obj)
{
	uint32_t kcfg_sec = 0, ksym_sec = 0, off = 0;
	struct ext_state *xs;
	struct bsdk_map *map;
	int err = 0;

	xs = obj_state(obj, &ext_key, sizeof(*xs), ext_state_free);
	if (!xs)
		return -errno;
	xs->kconfig_map = SIZE_MAX;
	if (!obj->btf) {
		for (size_t i = 1; i < obj->file.nsyms; i++) {
			const GElf_Sym *s = &obj->file.syms[i];

			if (s->st_shndx == SHN_UNDEF && GELF_ST_BIND(s->st_info) != STB_LOCAL &&
			    *elf_sym_name(&obj->file, s))
				return obj_fail(obj, BSDK_EBTF, "extern '%s': the object has no BTF, which says whether it is __kconfig or __ksym (build with clang -g)",
						elf_sym_name(&obj->file, s));
		}
		return 0;
	}
	kcfg_sec = btf_find(obj->btf, KCONFIG_SEC, BTF_KIND_DATASEC);
	ksym_sec = btf_find(obj->btf, KSYMS_SEC, BTF_KIND_DATASEC);
	if (kcfg_sec)
		err = collect_sec(obj, kcfg_sec, true);
	if (!err && ksym_sec)
		err = collect_sec(obj, ksym_sec, false);
	if (err)
		return err;
	if (xs->nexts)
		qsort(xs->exts, xs->nexts, sizeof(*xs->exts), ext_cmp);
	for (size_t i = 0; i < xs->nexts; i++) {
		struct ext *e = &xs->exts[i];

		if (e->kind != EXT_KCONFIG)
			continue;
		off = (off + e->align - 1) / e->align * e->align;
		e->offset = off;
		off += e->size;
	}
	if (off) {
		map = map_add(obj, KCONFIG_SEC, KCONFIG_SEC, 0, 0);
		if (!map)
			return -errno;
		map->type = BPF_MAP_TYPE_ARRAY;
		map->key_size = sizeof(uint32_t);
		map->value_size = (off + 7) / 8 * 8;
		map->max_entries = 1;
		map->is_global_data = true;
		map->is_rodata = true;		/* frozen after its value is written */
		map->map_flags = BPF_F_RDONLY_PROG;
		map->init_data = calloc(1, map->value_size);
		if (!map->init_data)
			return -ENOMEM;
		xs->kconfig_map = (size_t)(map - obj->maps);
	}
	externs_fix_btf(obj, kcfg_sec, ksym_sec);
	return 0;
}

static const struct ext *ext_find(const struct ext_state *xs, const char *name, size_t *index)
{
	for (size_t i = 0; i < xs->nexts; i++) {
		if (strcmp(xs->exts[i].name, name) == 0) {
			if (index)
				*index = i;
			return &xs->exts[i];
		}
	}
	return NULL;
}

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

static int externs_resolve(struct bsdk_obj *obj)
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

		e->resolved = false;
		e->bad_value = false;
		e->why[0] = e->value[0] = '\0';
		e->kernel_btf_id = 0;
		e->kernel_btf_fd = 0;
		e->fd_idx = 0;
		e->addr = 0;
		switch (e->kind) {
		case EXT_KCONFIG:
			err = resolve_kconfig(obj, e, kcfg, &found[0]);
			break;
		case EXT_KSYM:
			if (e->typed) {
				err = resolve_btf(obj, e, BTF_KIND_VAR);
				break;
			}
			if (kerr) {
				err = ext_unresolved(e, "/proc/kallsyms cannot be read (%s)", bsdk_strerror(kerr));
			} else if (!found[k]) {
				err = ext_unresolved(e, "not found in /proc/kallsyms");
			} else {
				e->addr = addrs[k];
				snprintf(e->value, sizeof(e->value), "%#llx (kallsyms)", (unsigned long long)e->addr);
				if (!e->addr)
					log_warn("'%s': ksym extern '%s': /proc/kallsyms shows address 0 (kernel.kptr_restrict?)",
						 obj->name, e->name);
			}
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

static int externs_load(struct bsdk_obj *obj)
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
			log_debug("'%s': %s extern '%s' = %s", obj->name, kind_names[e->kind], e->name, e->value);
		else if (e->weak && !e->bad_value)
			log_debug("'%s': %s extern '%s': %s; weak, so %s", obj->name, kind_names[e->kind], e->name,
				  e->why, e->kind == EXT_KFUNC ? "its calls are poisoned" : "0");
		else if (e->kind == EXT_KFUNC)
			log_error("%skfunc '%s' %s", lead, e->name, e->why);
		else
			log_error("%s%s extern '%s' %s", lead, kind_names[e->kind], e->name, e->why);
	}
	return failed ? fail(ENOENT) : 0;
}

/* ---- Applying at link --------------------------------------------------- */

static void extern_apply(const struct bsdk_obj *obj, const struct relo *r, struct bpf_insn *insn)
{
	struct ext_state *xs = ext_state_of(obj);
	const struct ext *e = &xs->exts[r->ext];

	if (r->kind == BSDK_RELO_KFUNC) {
		if (e->resolved || !xs->resolved) {
			/* before resolution (at open): a kfunc call, ID unknown */
			insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
			insn->imm = (int32_t)e->kernel_btf_id;
			insn->off = e->fd_idx;
		} else {
			insn->src_reg = 0;
			insn->imm = KFUNC_POISON + (int32_t)r->ext;
			insn->off = 0;
		}
		return;
	}
	/* BSDK_RELO_KSYM: an ld_imm64 */
	if (e->resolved && e->kernel_btf_id) {
		insn[0].src_reg = BPF_PSEUDO_BTF_ID;
		insn[0].imm = (int32_t)e->kernel_btf_id;
		insn[1].imm = e->kernel_btf_fd;
	} else {
		insn[0].src_reg = 0;
		insn[0].imm = (int32_t)(uint32_t)e->addr;
		insn[1].imm = (int32_t)(uint32_t)(e->addr >> 32);
	}
}

static void extern_explain(const struct bsdk_prog *prog, const struct linked *l, long insn)
{
	const struct ext_state *xs = ext_state_of(prog->obj);
	const struct bpf_insn *in;
	int64_t idx;

	if (insn < 0 || (size_t)insn >= l->count)
		return;
	in = &l->insns[insn];
	idx = (int64_t)in->imm - KFUNC_POISON;
	if (in->code != (BPF_JMP | BPF_CALL) || in->src_reg != 0 || idx < 0 ||
	    (uint64_t)idx >= xs->nexts || xs->exts[idx].kind != EXT_KFUNC)
		return;
	log_error("  instruction %ld calls kfunc '%s', which this kernel does not have (%s); it is __weak, so the call must be behind bpf_ksym_exists(%s)",
		  insn, xs->exts[idx].name, xs->exts[idx].why, xs->exts[idx].name);
}

/* A use of an extern (an undefined symbol): a kfunc call, or an ld_imm64
 * of a kconfig variable (its place in .kconfig), a ksym variable or a
 * kfunc's address. externs_collect() found them all. */
static int extern_relo(struct bsdk_obj *obj, size_t sec, size_t n, const struct bpf_insn *insn,
		       struct relo *out)
{
	const struct ext_state *xs = ext_state_of(obj);
	size_t idx;
	const struct ext *e = ext_find(xs, out->sym_name, &idx);

	if (!e)
		return -ENOENT;
	out->ext = idx;
	if (insn->code == (BPF_JMP | BPF_CALL)) {
		if (e->kind != EXT_KFUNC)
			return relo_error(obj, sec, n, "calls '%s', which is a %s variable, not a function", e->name,
					  e->kind == EXT_KCONFIG ? "__kconfig" : "__ksym");
		out->kind = BSDK_RELO_KFUNC;
		return 0;
	}
	if (insn->code != (BPF_LD | BPF_IMM | BPF_DW))
		return relo_error(obj, sec, n, "(extern '%s') is on instruction %zu, which is neither ld_imm64 nor a call (code %#x)",
				  e->name, out->insn, insn->code);
	if ((out->insn + 2) * sizeof(struct bpf_insn) > obj->file.secs[sec].size)
		return relo_error(obj, sec, n, "is on an ld_imm64 cut off by the end of the section");
	if (e->kind == EXT_KCONFIG) {
		out->kind = BSDK_RELO_DATA;
		out->map = xs->kconfig_map;
		out->offset = e->offset;
		return 0;
	}
	out->kind = BSDK_RELO_KSYM;
	return 0;
}

/* The kfuncs of modules: their calls' off indexes fd_array. */
static int extern_prog_attr(struct bsdk_prog *prog, union bpf_attr *attr)
{
	const struct ext_state *xs = ext_state_of(prog->obj);

	if (xs->nfd_array)
		attr->fd_array = (uint64_t)(uintptr_t)xs->fd_array;
	return 0;
}

/* At load: resolve (externs first: they fix the .kconfig map's value). */
static int extern_load(struct bsdk_obj *obj)
{
	struct ext_state *xs = obj_state_find(obj, &ext_key);
	int err = externs_load(obj);

	if (xs)
		xs->resolved = true;
	return err;
}

const struct obj_pass extern_pass = {
	.name = "externs",
	.open = externs_collect,
	.relo_undef = extern_relo,
	.link_relo = extern_apply,
	.load = extern_load,
	.prog_attr = extern_prog_attr,
	.explain = extern_explain,
};

/* ---- The public accessors ----------------------------------------------- */

size_t bsdk_obj_extern_count(const struct bsdk_obj *obj)
{
	struct ext_state *xs = ext_state_of(obj);
	return xs->nexts;
}

int bsdk_obj_extern(const struct bsdk_obj *cobj, size_t i, struct bsdk_extern_info *info)
{
	/* resolving fills a cache in the object, not what it means */
	struct bsdk_obj *obj = (struct bsdk_obj *)cobj;
	struct ext_state *xs = ext_state_of(obj);
	const struct ext *e;

	if (i >= xs->nexts)
		return fail(ERANGE);
	/* resolve once, quietly, if load has not */
	if (!xs->resolved) {
		int err = externs_resolve(obj);

		if (err < 0)
			return fail(-err);
		xs->resolved = true;
	}
	e = &xs->exts[i];
	memset(info, 0, sizeof(*info));
	info->name = e->name;
	info->kind = (enum bsdk_extern_kind)e->kind;
	info->kind_name = kind_names[e->kind];
	info->weak = e->weak;
	info->typed = e->kind == EXT_KSYM ? e->typed : e->kind == EXT_KFUNC;
	info->resolved = e->resolved;
	info->value = e->resolved || (e->weak && !e->bad_value) ? e->value : e->why;
	info->kconfig_offset = e->offset;
	info->size = e->size;
	return 0;
}
