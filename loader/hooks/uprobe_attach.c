// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * uprobe_attach.c - probes in user space programs: a perf event of the "uprobe"
 * PMU on a file at a file offset, found from the symbol the section or
 * the caller names through the program header that maps it, and bound to
 * the program as the core binds a kprobe (attach/attach.c). Sections
 * "uprobe/PATH:FUNC[+OFFSET]" are attached by the method table; a bare
 * "uprobe" by bsdk_prog_attach_uprobe(). ext/usdt/usdt.c puts its probes on
 * the same PMU.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "hooks/hooks.h"

/* The file offset of symbol in the ELF file at path, found through the
 * program header that maps its address. */
static int elf_symbol_offset(const char *path, const char *symbol, uint64_t *offset)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = -ESRCH;
	uint64_t addr = 0;
	Elf_Scn *scn = NULL;
	size_t nphdr;
	Elf *elf;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		err = -BSDK_EFORMAT;
		goto out;
	}
	while ((scn = elf_nextscn(elf, scn)) && !addr) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) ||
		    (sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
		    sh.sh_entsize == 0)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
			    sym.st_shndx == SHN_UNDEF || sym.st_value == 0)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && strcmp(name, symbol) == 0) {
				addr = sym.st_value;
				break;
			}
		}
	}
	if (!addr || elf_getphdrnum(elf, &nphdr))
		goto out;
	for (size_t i = 0; i < nphdr; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X))
			continue;
		if (addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_memsz) {
			*offset = addr - ph.p_vaddr + ph.p_offset;
			err = 0;
			break;
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* Open a uprobe on path at func + offset (func NULL: offset is a file
 * offset) in process pid (-1: all) and bind prog to it. */
static int uprobe_attach_at(struct bsdk_prog *prog, struct bsdk_link *link, bool retprobe,
			    int pid, const char *path, const char *func, uint64_t offset)
{
	char what[PATH_MAX + 300];
	uint64_t at = 0;
	int pfd, err;

	if (func) {
		err = elf_symbol_offset(path, func, &at);
		if (err)
			return log_fail(err == -ESRCH || err == -ENOENT ?
					BSDK_ENOPROBE : -err,
					"program '%s': uprobe: cannot find function '%s' in '%s': %s",
					prog->fn.name, func, path,
					err == -ESRCH ? "no such function symbol" : bsdk_strerror(err));
	}
	snprintf(what, sizeof(what), "%s:%s+%#llx", path, func ? func : "",
		 (unsigned long long)offset);
	pfd = open_probe(prog, "uprobe", retprobe, pid, path, at + offset, what);
	return pfd < 0 ? pfd : bind_perf_event(prog, link, pfd);
}

bool uprobe_target_complete(const char *target)
{
	const char *colon = strrchr(target, ':');

	return colon && colon != target && colon[1];
}

/* "PATH:SYMBOL[+OFFSET]" or "PATH:OFFSET" */
int attach_uprobe(struct bsdk_prog *prog, struct bsdk_link *link)
{
	char path[PATH_MAX], symbol[256];
	const char *colon = strrchr(prog->target, ':');
	unsigned long long add;
	uint64_t offset;
	char *end;
	int err;

	if (!uprobe_target_complete(prog->target))
		return log_fail(BSDK_ESECTION, "program '%s': section '%s' names no binary (uprobe/PATH:FUNCTION[+OFFSET]); attach it with bsdk_prog_attach_uprobe()",
				prog->fn.name, prog->section);
	if ((size_t)(colon - prog->target) >= sizeof(path))
		return log_fail(BSDK_ESECTION, "program '%s': uprobe target '%s' is not PATH:SYMBOL[+OFFSET]", prog->fn.name, prog->target);
	memcpy(path, prog->target, (size_t)(colon - prog->target));
	path[colon - prog->target] = '\0';
	err = split_name_offset(prog, colon + 1, symbol, sizeof(symbol), &add);
	if (err)
		return err;
	offset = strtoull(symbol, &end, 0);
	if (*end)	/* not a number: a symbol to look up */
		return uprobe_attach_at(prog, link, prog->kind->retprobe, -1, path, symbol, add);
	return uprobe_attach_at(prog, link, prog->kind->retprobe, -1, path, NULL, offset + add);
}

struct bsdk_link *bsdk_prog_attach_uprobe(struct bsdk_prog *prog, bool retprobe, int pid,
					  const char *path, const char *func, uint64_t offset)
{
	struct bsdk_link *link;
	int err;

	if (prog->kind->prog_type != BPF_PROG_TYPE_KPROBE || prog->kind->method != &attach_by_uprobe) {
		log_error("program '%s': section '%s' is not a uprobe", prog->fn.name, prog->section);
		return fail_ptr(EINVAL);
	}
	if (!path || !*path || pid < -1) {
		log_error("program '%s': a uprobe needs the path of a binary%s", prog->fn.name,
			  pid < -1 ? " and a pid >= -1" : "");
		return fail_ptr(EINVAL);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	err = uprobe_attach_at(prog, link, retprobe, pid, path, func, offset);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	log_info("program '%s': attached to %s '%s:%s+%#llx'", prog->fn.name,
		 retprobe ? "uretprobe" : "uprobe", path, func ? func : "",
		 (unsigned long long)offset);
	link_add(prog, link);
	return link;
}
