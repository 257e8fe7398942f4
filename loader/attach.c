// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * attach.c - connect a loaded program to the hook its section names.
 *
 * Tracepoints, kprobes and uprobes are perf events: open the event, then
 * bind the program to it - with a BPF link (BPF_LINK_CREATE, kernel 5.15+)
 * where the kernel has them, else with the older PERF_EVENT_IOC_SET_BPF.
 * kprobes and uprobes are opened through their PMUs ("kprobe", "uprobe"
 * under /sys/bus/event_source/devices), which need no tracefs writes and
 * vanish with the fd. Raw tracepoints have their own bpf() command.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "internal.h"

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

static int read_long(const char *path, long *val)
{
	char buf[64], *end;
	int err = read_file(path, buf, sizeof(buf));

	if (err < 0)
		return err;
	errno = 0;
	*val = strtol(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

/* Bind prog to the perf event pfd; link takes ownership of pfd. */
static int bind_perf_event(struct bsdk_prog *prog, struct bsdk_link *link, int pfd)
{
	union bpf_attr attr;
	int fd;

	link->perf_fd = pfd;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog->fd;
	attr.link_create.target_fd = pfd;
	attr.link_create.attach_type = BPF_PERF_EVENT;
	fd = sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd >= 0) {
		link->link_fd = fd;
	} else if (ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog->fd) < 0) {
		return log_fail(errno, "program '%s': cannot attach to its perf event: %s", prog->fn.name, bsdk_strerror(errno));
	}
	if (ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return log_fail(errno, "program '%s': cannot enable its perf event: %s", prog->fn.name, bsdk_strerror(errno));
	return 0;
}

int attach_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link)
{
	struct perf_event_attr attr;
	char path[PATH_MAX];
	long id = -1;
	int pfd, err = -ENOENT;

	/* "CAT/NAME": both parts, no way out of the events directory. */
	if (!strchr(prog->target, '/') || strstr(prog->target, ".."))
		return log_fail(BSDK_ESECTION, "program '%s': tracepoint '%s' is not of the form CATEGORY/NAME",
				prog->fn.name, prog->target);
	for (size_t i = 0; i < ARRAY_SIZE(tracefs_roots) && err; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/id", tracefs_roots[i], prog->target);
		err = read_long(path, &id);
	}
	if (err && access("/sys/kernel/tracing/events", F_OK) &&
	    access("/sys/kernel/debug/tracing/events", F_OK))
		return log_fail(BSDK_ENOPROBE, "program '%s': tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)",
				prog->fn.name);
	if (err)
		return log_fail(BSDK_ENOPROBE, "program '%s': tracepoint '%s' does not exist on this kernel (see %s/events)",
				prog->fn.name, prog->target, tracefs_roots[0]);

	attr = (struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr), .config = (uint64_t)id };
	/* One event on CPU 0 is enough: the program runs on every CPU. */
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open tracepoint '%s': %s",
				prog->fn.name, prog->target, bsdk_strerror(pfd));
	return bind_perf_event(prog, link, pfd);
}

int attach_raw_tracepoint(struct bsdk_prog *prog, struct bsdk_link *link)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uint64_t)(uintptr_t)prog->target;
	attr.raw_tracepoint.prog_fd = prog->fd;
	fd = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr, sizeof(attr));
	if (fd == -ENOENT)
		return log_fail(BSDK_ENOPROBE, "program '%s': raw tracepoint '%s' does not exist on this kernel",
				prog->fn.name, prog->target);
	if (fd < 0)
		return log_fail(-fd, "program '%s': cannot attach to raw tracepoint '%s': %s",
				prog->fn.name, prog->target, bsdk_strerror(fd));
	link->link_fd = fd;
	return 0;
}

/* The PMU type number and the config bit that makes a return probe. */
static int probe_pmu(const char *pmu, int *type, int *ret_bit)
{
	char path[128], buf[64];
	long val;
	int err;

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	err = read_long(path, &val);
	if (err)
		return err;
	*type = (int)val;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/retprobe", pmu);
	err = read_file(path, buf, sizeof(buf));
	if (err < 0)
		return err;
	if (sscanf(buf, "config:%d", ret_bit) != 1 || *ret_bit < 0 || *ret_bit > 63)
		return -EINVAL;
	return 0;
}

static bool pmu_exists(const char *pmu)
{
	int type, bit;

	return probe_pmu(pmu, &type, &bit) == 0;
}

bool bsdk_prog_attach_supported(const struct bsdk_prog *prog)
{
	if (prog->kind->attach == attach_kprobe)
		return pmu_exists("kprobe");
	if (prog->kind->attach == attach_uprobe)
		return pmu_exists("uprobe");
	return true;
}

/* Open a kprobe or uprobe perf event. name and config2 mean the function
 * and offset (kprobe) or the file and its file offset (uprobe). */
static int open_probe(struct bsdk_prog *prog, const char *pmu, const char *name, uint64_t config2)
{
	struct perf_event_attr attr;
	int type, ret_bit, pfd, err;

	err = probe_pmu(pmu, &type, &ret_bit);
	if (err)
		return log_fail(BSDK_ENOTSUPP, "program '%s': this kernel has no %s support (no '%s' PMU in /sys/bus/event_source/devices): cannot attach '%s'",
				prog->fn.name, pmu, pmu, prog->section);
	attr = (struct perf_event_attr){ .size = sizeof(attr),
		.type = (uint32_t)type,
		.config = prog->kind->retprobe ? 1ull << ret_bit : 0,
		.config1 = (uint64_t)(uintptr_t)name, .config2 = config2 };
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd == -ENOENT || pfd == -EINVAL || pfd == -ENXIO)
		return log_fail(BSDK_ENOPROBE, "program '%s': %s target '%s' not found%s",
				prog->fn.name, pmu, prog->target,
				strcmp(pmu, "kprobe") == 0 ?
				" (is it in /proc/kallsyms, and not inlined or blacklisted?)" : "");
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open %s '%s': %s",
				prog->fn.name, pmu, prog->target, bsdk_strerror(pfd));
	return pfd;
}

/* Split "NAME" or "NAME+OFFSET" (the end of a kprobe or uprobe target) into
 * name, of size bytes, and *off. */
static int split_name_offset(const struct bsdk_prog *prog, const char *s,
			     char *name, size_t size, unsigned long long *off)
{
	const char *plus = strchr(s, '+');
	size_t len = plus ? (size_t)(plus - s) : strlen(s);
	char *end;

	if (len == 0 || len >= size)
		return log_fail(BSDK_ESECTION, "program '%s': %s target '%s': the name is empty or too long",
				prog->fn.name, prog->kind->type_name, prog->target);
	memcpy(name, s, len);
	name[len] = '\0';
	*off = plus ? strtoull(plus + 1, &end, 0) : 0;
	if (plus && *end)
		return log_fail(BSDK_ESECTION, "program '%s': %s offset '%s' is not a number",
				prog->fn.name, prog->kind->type_name, plus + 1);
	return 0;
}

/* "FUNC" or "FUNC+OFFSET" */
int attach_kprobe(struct bsdk_prog *prog, struct bsdk_link *link)
{
	char func[256];
	unsigned long long off;
	int pfd = split_name_offset(prog, prog->target, func, sizeof(func), &off);

	if (pfd)
		return pfd;
	pfd = open_probe(prog, "kprobe", func, off);
	return pfd < 0 ? pfd : bind_perf_event(prog, link, pfd);
}

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

/* "PATH:SYMBOL[+OFFSET]" or "PATH:OFFSET" */
int attach_uprobe(struct bsdk_prog *prog, struct bsdk_link *link)
{
	char path[PATH_MAX], symbol[256];
	const char *colon = strrchr(prog->target, ':');
	unsigned long long add;
	uint64_t offset;
	char *end;
	int pfd, err;

	if (!colon || colon == prog->target || !colon[1] ||
	    (size_t)(colon - prog->target) >= sizeof(path))
		return log_fail(BSDK_ESECTION, "program '%s': uprobe target '%s' is not PATH:SYMBOL[+OFFSET]", prog->fn.name, prog->target);
	memcpy(path, prog->target, (size_t)(colon - prog->target));
	path[colon - prog->target] = '\0';
	err = split_name_offset(prog, colon + 1, symbol, sizeof(symbol), &add);
	if (err)
		return err;
	offset = strtoull(symbol, &end, 0);
	if (*end) {	/* not a number: a symbol to look up */
		err = elf_symbol_offset(path, symbol, &offset);
		if (err)
			return log_fail(err == -ESRCH || err == -ENOENT ?
					BSDK_ENOPROBE : -err,
					"program '%s': uprobe: cannot find function '%s' in '%s': %s",
					prog->fn.name, symbol, path,
					err == -ESRCH ? "no such function symbol" : bsdk_strerror(err));
	}
	pfd = open_probe(prog, "uprobe", path, offset + add);
	return pfd < 0 ? pfd : bind_perf_event(prog, link, pfd);
}
