// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * syms.c - addresses to function names, for stack traces: the kernel's
 * from /proc/kallsyms, a process's from the ELF symbol tables of the files
 * it has mapped executable (/proc/PID/maps).
 *
 * An address in a process is turned into a file offset through its mapping
 * (addr - start + offset), then into the address the ELF file's symbols use
 * through the PT_LOAD segment that holds that offset: this works for
 * position-independent executables and shared libraries alike, wherever
 * they were loaded. Files and processes are read once, on first use.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <unistd.h>

#include "base/base.h"

struct sym {
	uint64_t addr, size;	/* size 0: up to the next symbol */
	const char *name;	/* in the table's string arena */
};

struct symtab {
	char *path;		/* NULL for the kernel */
	char *label;		/* "[basename]": for addresses without a symbol */
	struct sym *syms;
	size_t n;
	char *strings;		/* the names, NUL-separated */
	size_t strings_len;
	GElf_Phdr *loads;	/* PT_LOAD segments, to map offsets to addresses */
	size_t nloads;
};

struct mapping {
	uint64_t start, end, offset;
	struct symtab *file;
};

struct proc {
	int pid;
	bool gone;		/* no /proc/PID/maps */
	struct mapping *maps;
	size_t n;
};

struct bsdk_syms {
	struct symtab *kernel;
	struct symtab **files;
	size_t nfiles;
	struct proc *procs;
	size_t nprocs;
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
	t->syms[t->n++] = (struct sym){ addr, size, (const char *)(uintptr_t)t->strings_len };
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
	free(t->path);
	free(t->label);
	free(t->syms);
	free(t->strings);
	free(t->loads);
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

/* The function symbols and PT_LOAD segments of the ELF file at path. */
static struct symtab *file_load(const char *path)
{
	struct symtab *t = calloc(1, sizeof(*t));
	size_t cap = 0, scap = 0, nphdr, lcap = 0;
	const char *base = strrchr(path, '/');
	Elf_Scn *scn = NULL;
	Elf *elf = NULL;
	int fd;

	if (!t)
		return NULL;
	t->path = strdup(path);
	if (!t->path || asprintf(&t->label, "[%s]", base ? base + 1 : path) < 0) {
		t->label = NULL;
		goto fail;
	}
	/* A file we cannot read still names its frames by its label. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return t;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || elf_getphdrnum(elf, &nphdr))
		goto done;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (grow(&t->loads, &lcap, t->nloads, sizeof(*t->loads)))
			goto done;
		t->loads[t->nloads++] = ph;
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || !sym.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && *name &&
			    symtab_add(t, &cap, &scap, sym.st_value, sym.st_size, name))
				goto done;
		}
	}
done:
	symtab_finish(t);
	if (elf)
		elf_end(elf);
	close(fd);
	return t;
fail:
	symtab_free(t);
	return NULL;
}

static struct symtab *file_get(struct bsdk_syms *s, const char *path)
{
	struct symtab *t, **bigger;

	for (size_t i = 0; i < s->nfiles; i++)
		if (strcmp(s->files[i]->path, path) == 0)
			return s->files[i];
	t = file_load(path);
	if (!t)
		return NULL;
	bigger = realloc(s->files, (s->nfiles + 1) * sizeof(*s->files));
	if (!bigger) {
		symtab_free(t);
		return NULL;
	}
	s->files = bigger;
	s->files[s->nfiles++] = t;
	return t;
}

static struct proc *proc_get(struct bsdk_syms *s, int pid)
{
	char path[64], line[4096 + 128];
	struct proc *p, *bigger;
	size_t cap = 0;
	FILE *f;

	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].pid == pid)
			return &s->procs[i];
	bigger = realloc(s->procs, (s->nprocs + 1) * sizeof(*s->procs));
	if (!bigger)
		return NULL;
	s->procs = bigger;
	p = &s->procs[s->nprocs++];
	*p = (struct proc){ .pid = pid };
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	f = fopen(path, "re");
	if (!f) {
		p->gone = true;
		return p;
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end, offset;
		char perms[8];
		int name_at = 0;
		struct symtab *file;

		/* "start-end perms offset dev inode   path" */
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &start, &end, perms, &offset,
			   &name_at) < 4 || !name_at || perms[2] != 'x' || line[name_at] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		file = file_get(s, line + name_at);
		if (!file || grow(&p->maps, &cap, p->n, sizeof(*p->maps)))
			continue;
		p->maps[p->n++] = (struct mapping){ start, end, offset, file };
	}
	fclose(f);
	return p;
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
	const struct sym *sym;
	struct proc *p;

	if (pid == 0) {
		if (!s->kernel && !(s->kernel = kernel_load()))
			return NULL;
		sym = symtab_find(s->kernel, addr);
		if (!sym) {
			errno = ENOENT;
			return NULL;
		}
		if (offset)
			*offset = addr - sym->addr;
		return sym->name;
	}
	p = proc_get(s, pid);
	if (!p)
		return NULL;
	if (p->gone) {
		errno = ESRCH;
		return NULL;
	}
	for (size_t i = 0; i < p->n; i++) {
		const struct mapping *m = &p->maps[i];
		uint64_t file_off, vaddr;

		if (addr < m->start || addr >= m->end)
			continue;
		file_off = addr - m->start + m->offset;
		for (size_t j = 0; j < m->file->nloads; j++) {
			const GElf_Phdr *ph = &m->file->loads[j];

			if (file_off < ph->p_offset || file_off - ph->p_offset >= ph->p_filesz)
				continue;
			vaddr = file_off - ph->p_offset + ph->p_vaddr;
			sym = symtab_find(m->file, vaddr);
			if (sym) {
				if (offset)
					*offset = vaddr - sym->addr;
				return sym->name;
			}
			break;
		}
		if (offset)
			*offset = file_off;
		return m->file->label;
	}
	errno = ENOENT;
	return NULL;
}

void bsdk_syms_free(struct bsdk_syms *s)
{
	if (!s)
		return;
	symtab_free(s->kernel);
	for (size_t i = 0; i < s->nfiles; i++)
		symtab_free(s->files[i]);
	free(s->files);
	for (size_t i = 0; i < s->nprocs; i++)
		free(s->procs[i].maps);
	free(s->procs);
	free(s);
}
