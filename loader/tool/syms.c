// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * syms.c - addresses to function names, for stack traces: the kernel's
 * from /proc/kallsyms, a process's through libdw's dwfl.
 *
 * For a process, dwfl reads /proc/PID/maps once (dwfl_linux_proc_report)
 * and reports each mapped file as a module; a module's symbols are read on
 * its first lookup, from the file itself or from its separate debug info,
 * found as the standard callbacks find it: by build-id under
 * /usr/lib/debug/.build-id/, or by the file's .gnu_debuglink name (its CRC
 * checked) beside the file, in .debug/ and under /usr/lib/debug. Where that
 * debug info has DWARF, an address also has a source file and line, and
 * the functions inlined there (its scopes, dwarf_getscopes(), each inlined
 * call's DW_AT_call_file and DW_AT_call_line giving its caller's line).
 *
 * dwfl_module_addrinfo() walks a module's whole symbol table for every
 * address; a profile names thousands, so each module's functions are sorted
 * once (kept in the module's user data slot) and searched by halves.
 *
 * One Dwfl per process is kept, at most MAX_PROCS of them (the least
 * recently used is dropped); the names handed out are copied into a table
 * of their own, so that they outlive a dropped Dwfl, as promised.
 */
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <unistd.h>

#include "base/base.h"

#define MAX_PROCS 32

struct sym {
	uint64_t addr, size;	/* size 0: up to the next symbol */
	const char *name;	/* in the table's string arena */
	unsigned char bind;	/* STB_*: which of two names at one address */
	bool kept;		/* name is already the cache's own copy */
};

/* Functions sorted by address: the kernel's from /proc/kallsyms (their
 * names in strings), a module's (their names in its Dwfl, strings NULL). */
struct symtab {
	struct sym *syms;
	size_t n;
	char *strings;		/* the names, NUL-separated */
	size_t strings_len;
	const char *label;	/* a module's "[FILE]", kept once made */
};

struct proc {
	int pid;
	int err;		/* why it could not be read (ESRCH: gone), or 0 */
	Dwfl *dwfl;
	uint64_t used;		/* the lookup count at its last use: for dropping */
};

/* The strings returned: each once, for the life of the cache. */
struct names {
	char **slots;		/* open addressing, a power of two of them */
	size_t cap, n;
};

struct bsdk_syms {
	struct symtab *kernel;
	struct proc procs[MAX_PROCS];
	size_t nprocs;
	uint64_t lookups;
	struct names names;
};

/* Grow *arr (of *cap elements of size bytes) to hold n + 1: doubling. */
static int grow(void *arrp, size_t *cap, size_t n, size_t size)
{
	void *arr, *bigger;
	size_t want;

	if (n < *cap)
		return 0;
	want = *cap ? *cap * 2 : 64;
	memcpy(&arr, arrp, sizeof(arr));
	bigger = realloc(arr, want * size);
	if (!bigger)
		return fail(ENOMEM);
	memcpy(arrp, &bigger, sizeof(bigger));
	*cap = want;
	return 0;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Append a symbol; its name is copied into the table's arena, and the
 * pointers are fixed once the arena stops moving (symtab_finish). */
static int symtab_add(struct symtab *t, size_t *cap, size_t *scap, uint64_t addr,
		      uint64_t size, const char *name)
{
	size_t len = strlen(name) + 1;

	if (grow(&t->syms, cap, t->n, sizeof(*t->syms)))
		return -ENOMEM;
	while (t->strings_len + len > *scap) {
		size_t want = *scap ? *scap * 2 : 4096;
		char *bigger = realloc(t->strings, want);

		if (!bigger)
			return fail(ENOMEM);
		t->strings = bigger;
		*scap = want;
	}
	memcpy(t->strings + t->strings_len, name, len);
	/* An offset for now, stored in the pointer's place. */
	t->syms[t->n++] = (struct sym){ addr, size, (const char *)(uintptr_t)t->strings_len, STB_GLOBAL, true };
	t->strings_len += len;
	return 0;
}

static void symtab_finish(struct symtab *t)
{
	for (size_t i = 0; i < t->n; i++)
		t->syms[i].name = t->strings + (uintptr_t)t->syms[i].name;
	qsort(t->syms, t->n, sizeof(*t->syms), sym_cmp);
}

static void symtab_free(struct symtab *t)
{
	if (!t)
		return;
	free(t->syms);
	free(t->strings);
	free(t);
}

/* The symbol that holds addr: the last one at or below it, when addr is
 * inside its size (or it has none). */
static const struct sym *symtab_find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	if (t->syms[lo - 1].size && addr - t->syms[lo - 1].addr >= t->syms[lo - 1].size)
		return NULL;
	return &t->syms[lo - 1];
}

static struct symtab *kernel_load(void)
{
	struct symtab *t = calloc(1, sizeof(*t));
	size_t cap = 0, scap = 0;
	char line[512];
	FILE *f;

	if (!t)
		return NULL;
	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		free(t);
		return NULL;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[256];

		/* "ffffffff81000000 T _stext", maybe "\t[module]" after */
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		if (symtab_add(t, &cap, &scap, addr, 0, name)) {
			fclose(f);
			symtab_free(t);
			return NULL;
		}
	}
	fclose(f);
	symtab_finish(t);
	return t;
}

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ull;	/* FNV-1a */

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int names_grow(struct names *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	char **slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i < t->cap; i++) {
		size_t j;

		if (!t->slots[i])
			continue;
		for (j = hash(t->slots[i], strlen(t->slots[i])) & (cap - 1); slots[j];
		     j = (j + 1) & (cap - 1))
			;
		slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = slots;
	t->cap = cap;
	return 0;
}

/* The kept copy of the len bytes at s (a NUL added); NULL when out of memory. */
static const char *name_keep(struct names *t, const char *s, size_t len)
{
	size_t i;

	if (2 * (t->n + 1) > t->cap && names_grow(t))
		return fail_ptr(ENOMEM);
	for (i = hash(s, len) & (t->cap - 1); t->slots[i]; i = (i + 1) & (t->cap - 1))
		if (strncmp(t->slots[i], s, len) == 0 && t->slots[i][len] == '\0')
			return t->slots[i];
	t->slots[i] = strndup(s, len);
	if (!t->slots[i])
		return fail_ptr(ENOMEM);
	t->n++;
	return t->slots[i];
}

static void names_free(struct names *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i]);
	free(t->slots);
}

/* Of two functions at one address, the name a reader knows: fewer leading
 * underscores (getpid, not __getpid), then global over weak over local. */
static int better_name(const char *a, unsigned char abind, const char *b, unsigned char bbind)
{
	size_t ua = strspn(a, "_"), ub = strspn(b, "_");
	int ra = abind == STB_GLOBAL ? 0 : abind == STB_WEAK ? 1 : 2;
	int rb = bbind == STB_GLOBAL ? 0 : bbind == STB_WEAK ? 1 : 2;

	return ua != ub ? ua < ub : ra < rb;
}

/* The functions of mod, sorted; NULL when out of memory. */
static struct symtab *module_syms_read(Dwfl_Module *mod)
{
	struct symtab *t = calloc(1, sizeof(*t));
	int n = dwfl_module_getsymtab(mod);
	size_t cap = 0, j = 0;

	if (!t)
		return NULL;
	for (int i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		const char *name = dwfl_module_getsym_info(mod, i, &sym, &addr, NULL, NULL, NULL);
		int type = GELF_ST_TYPE(sym.st_info);

		if (!name || !*name || !addr || sym.st_shndx == SHN_UNDEF ||
		    (type != STT_FUNC && type != STT_GNU_IFUNC))
			continue;
		if (grow(&t->syms, &cap, t->n, sizeof(*t->syms))) {
			symtab_free(t);
			return NULL;
		}
		t->syms[t->n++] = (struct sym){ addr, sym.st_size, name, GELF_ST_BIND(sym.st_info), false };
	}
	/* One name per address (.symtab and .dynsym repeat them, aliases
	 * share them): the best one kept. */
	qsort(t->syms, t->n, sizeof(*t->syms), sym_cmp);
	for (size_t i = 0; i < t->n; i++) {
		const struct sym *cur = &t->syms[i];

		if (j && t->syms[j - 1].addr == cur->addr) {
			if (better_name(cur->name, cur->bind, t->syms[j - 1].name, t->syms[j - 1].bind))
				t->syms[j - 1] = *cur;
		} else {
			t->syms[j++] = *cur;
		}
	}
	t->n = j;
	return t;
}

/* The module's sorted functions, read on first use. */
static struct symtab *module_syms(Dwfl_Module *mod)
{
	void **slot;

	dwfl_module_info(mod, &slot, NULL, NULL, NULL, NULL, NULL, NULL);
	if (!*slot)
		*slot = module_syms_read(mod);
	return *slot;
}

static int module_syms_free(Dwfl_Module *mod, void **slot, const char *name, Dwarf_Addr start,
			    void *arg)
{
	(void)mod, (void)name, (void)start, (void)arg;
	symtab_free(*slot);
	*slot = NULL;
	return DWARF_CB_OK;
}

static void proc_end(struct proc *p)
{
	if (!p->dwfl)
		return;
	dwfl_getmodules(p->dwfl, module_syms_free, NULL, 0);
	dwfl_end(p->dwfl);
	p->dwfl = NULL;
}

static char *debuginfo_path;	/* NULL: the standard places */

static const Dwfl_Callbacks proc_callbacks = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

/* Read process pid's mappings into p (p->err set when that fails). */
static void proc_read(struct proc *p, int pid)
{
	int err;

	*p = (struct proc){ .pid = pid };
	p->dwfl = dwfl_begin(&proc_callbacks);
	if (!p->dwfl) {
		p->err = ENOMEM;
		return;
	}
	dwfl_report_begin(p->dwfl);
	err = dwfl_linux_proc_report(p->dwfl, pid);
	if (dwfl_report_end(p->dwfl, NULL, NULL) != 0 && !err)
		err = ENOMEM;
	if (err) {
		/* ENOENT: no /proc/PID/maps, the process is gone */
		p->err = err == ENOENT ? ESRCH : err > 0 ? err : EIO;
		dwfl_end(p->dwfl);
		p->dwfl = NULL;
	}
}

/* Process pid's entry, read on first use; when the cache is full, the
 * least recently used is dropped for it. */
static struct proc *proc_get(struct bsdk_syms *s, int pid)
{
	struct proc *p = NULL;

	s->lookups++;
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid) {
			s->procs[i].used = s->lookups;
			return &s->procs[i];
		}
	if (s->nprocs < MAX_PROCS) {
		p = &s->procs[s->nprocs++];
	} else {
		p = &s->procs[0];
		for (size_t i = 1; i < s->nprocs; i++)
			if (s->procs[i].used < p->used)
				p = &s->procs[i];
		proc_end(p);
	}
	proc_read(p, pid);
	p->used = s->lookups;
	return p;
}

/* The module of process pid that maps addr; NULL with errno. */
static Dwfl_Module *module_at(struct bsdk_syms *s, int pid, uint64_t addr)
{
	struct proc *p = proc_get(s, pid);
	Dwfl_Module *mod;

	if (p->err)
		return fail_ptr(p->err);
	mod = dwfl_addrmodule(p->dwfl, addr);
	return mod ? mod : fail_ptr(ENOENT);
}

/* "[FILE]": the base name of the module's file, for an address in it
 * without a symbol. */
static const char *module_label(struct bsdk_syms *s, Dwfl_Module *mod, struct symtab *t,
				uint64_t addr, uint64_t *offset)
{
	Dwarf_Addr start;
	const char *path = dwfl_module_info(mod, NULL, &start, NULL, NULL, NULL, NULL, NULL);
	const char *base = path ? strrchr(path, '/') : NULL;
	char label[256];

	if (offset)
		*offset = addr - start;
	if (!t->label) {
		snprintf(label, sizeof(label), "[%s]", base ? base + 1 : path ? path : "unknown");
		t->label = name_keep(&s->names, label, strlen(label));
	}
	return t->label;
}

static const char *kernel_lookup(struct bsdk_syms *s, uint64_t addr, uint64_t *offset)
{
	const struct sym *sym;

	if (!s->kernel && !(s->kernel = kernel_load()))
		return NULL;
	sym = symtab_find(s->kernel, addr);
	if (!sym)
		return fail_ptr(ENOENT);
	if (offset)
		*offset = addr - sym->addr;
	return sym->name;
}

struct bsdk_syms *bsdk_syms_new(void)
{
	struct bsdk_syms *s = calloc(1, sizeof(*s));

	if (!s)
		errno = ENOMEM;
	return s;
}

const char *bsdk_syms_lookup(struct bsdk_syms *s, int pid, uint64_t addr, uint64_t *offset)
{
	struct symtab *t;
	struct sym *sym;
	Dwfl_Module *mod;

	if (pid == 0)
		return kernel_lookup(s, addr, offset);
	mod = module_at(s, pid, addr);
	if (!mod)
		return NULL;
	t = module_syms(mod);
	if (!t)
		return fail_ptr(ENOMEM);
	sym = (struct sym *)symtab_find(t, addr);
	if (!sym)
		return module_label(s, mod, t, addr, offset);
	if (offset)
		*offset = addr - sym->addr;
	/* The Dwfl may be dropped before syms: hand out a copy of our own. */
	if (!sym->kept) {
		const char *name = name_keep(&s->names, sym->name, strlen(sym->name));

		if (!name)
			return NULL;
		sym->name = name;
		sym->kept = true;
	}
	return sym->name;
}

/* The compile unit holding addr, and the bias of its addresses: found
 * through .debug_aranges, else through each unit's own ranges (clang writes
 * no .debug_aranges unless asked, and then libdw's lookup finds nothing). */
static Dwarf_Die *cu_at(Dwfl_Module *mod, uint64_t addr, Dwarf_Addr *bias)
{
	Dwarf_Die *cu = dwfl_module_addrdie(mod, addr, bias);

	if (cu)
		return cu;
	while ((cu = dwfl_module_nextcu(mod, cu, bias)))
		if (dwarf_haspc(cu, addr - *bias) > 0)
			return cu;
	return NULL;
}

int bsdk_syms_source(struct bsdk_syms *s, int pid, uint64_t addr, const char **file, int *line)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	Dwarf_Line *l;
	Dwarf_Die *cu;
	const char *src;

	if (pid == 0)
		return -ENOENT;
	mod = module_at(s, pid, addr);
	if (!mod)
		return -errno;
	cu = cu_at(mod, addr, &bias);
	l = cu ? dwarf_getsrc_die(cu, addr - bias) : NULL;
	src = l ? dwarf_linesrc(l, NULL, NULL) : NULL;
	if (!src || !*src || dwarf_lineno(l, line) || *line <= 0)
		return -ENOENT;
	*file = name_keep(&s->names, src, strlen(src));
	return *file ? 0 : -ENOMEM;
}

/* A DIE's name, through DW_AT_abstract_origin for an inlined instance. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

/* Where an inlined call is: its caller's file and line. */
static void call_site(Dwarf_Die *cu, Dwarf_Die *inlined, const char **file, int *line)
{
	Dwarf_Word fidx, l;
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_formudata(dwarf_attr(inlined, DW_AT_call_file, &attr), &fidx) ||
	    dwarf_formudata(dwarf_attr(inlined, DW_AT_call_line, &attr), &l) ||
	    dwarf_getsrcfiles(cu, &files, &nfiles) || fidx >= nfiles || l > INT32_MAX)
		return;
	*file = dwarf_filesrc(files, fidx, NULL, NULL);
	*line = (int)l;
}

int bsdk_syms_inlined(struct bsdk_syms *s, int pid, uint64_t addr, struct bsdk_sym_frame *frames,
		      int max)
{
	Dwarf_Die *cu, *scopes = NULL, inner;
	const char *file = NULL;
	int nscopes, n = 0, line = 0;
	Dwfl_Module *mod;
	Dwarf_Addr bias;

	if (pid == 0 || max <= 0)
		return pid ? fail(EINVAL) : -ENOENT;
	mod = module_at(s, pid, addr);
	if (!mod)
		return -errno;
	/* dwarf_getscopes() follows an inlined function to its abstract
	 * definition; the innermost scope's own parents are the functions
	 * it was inlined into (as eu-addr2line -i does). */
	cu = cu_at(mod, addr, &bias);
	nscopes = cu ? dwarf_getscopes(cu, addr - bias, &scopes) : -1;
	if (nscopes > 0) {
		inner = scopes[0];
		free(scopes);
		scopes = NULL;
		nscopes = dwarf_getscopes_die(&inner, &scopes);
	}
	if (nscopes <= 0) {
		free(scopes);
		return -ENOENT;
	}
	if (bsdk_syms_source(s, pid, addr, &file, &line))
		file = NULL, line = 0;
	for (int i = 0; i < nscopes && n < max; i++) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name;

		if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
			continue;
		name = die_name(&scopes[i]);
		frames[n].name = name ? name_keep(&s->names, name, strlen(name)) : NULL;
		frames[n].file = file;
		frames[n++].line = line;
		if (tag == DW_TAG_subprogram)
			break;
		call_site(cu, &scopes[i], &file, &line);
		if (file && !(file = name_keep(&s->names, file, strlen(file))))
			line = 0;
	}
	free(scopes);
	return n ? n : -ENOENT;
}

void bsdk_syms_free(struct bsdk_syms *s)
{
	if (!s)
		return;
	symtab_free(s->kernel);
	for (size_t i = 0; i < s->nprocs; i++)
		proc_end(&s->procs[i]);
	names_free(&s->names);
	free(s);
}
