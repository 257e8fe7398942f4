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
#include <dirent.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <linux/magic.h>
#include <unistd.h>

#include "attach/attach.h"

static const char *const tracefs_roots[] = {
	"/sys/kernel/tracing",
	"/sys/kernel/debug/tracing",
};

/* Whether tracefs is mounted at one of the roots: asked of the file
 * system, since a user who may not enter the directory cannot see into it. */
static bool tracefs_mounted(void)
{
	struct statfs st;

	for (size_t i = 0; i < ARRAY_SIZE(tracefs_roots); i++)
		if (statfs(tracefs_roots[i], &st) == 0 && (unsigned long)st.f_type == TRACEFS_MAGIC)
			return true;
	return false;
}

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

/* Of the categories under events that have the event name, the one
 * closest to cat, into out (NAME_MAX + 1 bytes); 0 or -ENOENT. */
static int category_suggest(const char *events, const char *cat, const char *name, char *out)
{
	char path[PATH_MAX], (*cands)[NAME_MAX + 1] = NULL;
	const char **names = NULL;
	const char *near;
	size_t n = 0, cap = 0;
	struct dirent *e;
	DIR *d = opendir(events);
	int err = -ENOENT;

	while (d && (e = readdir(d))) {
		int len = snprintf(path, sizeof(path), "%s/%s/%s", events, e->d_name, name);

		if (e->d_name[0] == '.' || len < 0 || (size_t)len >= sizeof(path) || access(path, F_OK))
			continue;
		if (n == cap) {
			void *c = realloc(cands, (cap = cap ? 2 * cap : 16) * sizeof(*cands));

			if (!c)
				break;
			cands = c;
		}
		snprintf(cands[n++], NAME_MAX + 1, "%s", e->d_name);
	}
	if (d)
		closedir(d);
	names = n ? calloc(n, sizeof(*names)) : NULL;
	for (size_t i = 0; names && i < n; i++)
		names[i] = cands[i];
	near = names ? bsdk_name_closest(cat, names, n) : NULL;
	if (near) {
		snprintf(out, NAME_MAX + 1, "%s", near);
		err = 0;
	}
	free(names);
	free(cands);
	return err;
}

int tracepoint_suggest(const char *target, char *out, size_t size)
{
	const char *slash = strchr(target, '/'), *root = NULL;
	char dir[PATH_MAX], cat[NAME_MAX + 1], name[NAME_MAX + 1], near[NAME_MAX + 1];

	for (size_t i = 0; i < ARRAY_SIZE(tracefs_roots) && !root; i++) {
		snprintf(dir, sizeof(dir), "%s/events", tracefs_roots[i]);
		root = access(dir, F_OK) == 0 ? tracefs_roots[i] : NULL;
	}
	if (!root || !slash || (size_t)(slash - target) > NAME_MAX || strlen(slash + 1) > NAME_MAX)
		return -ENOENT;
	snprintf(cat, sizeof(cat), "%.*s", (int)(slash - target), target);
	snprintf(name, sizeof(name), "%s", slash + 1);
	snprintf(dir, sizeof(dir), "%s/events/%s", root, cat);
	if (access(dir, F_OK)) {	/* the category is the typo */
		snprintf(dir, sizeof(dir), "%s/events", root);
		if (category_suggest(dir, cat, name, near) == 0) {
			snprintf(out, size, "%s/%s", near, name);
			return 0;
		}
		if (name_closest_in_dir(dir, cat, near, sizeof(near)))
			return -ENOENT;
		memcpy(cat, near, sizeof(cat));
		snprintf(dir, sizeof(dir), "%s/events/%s", root, cat);
	}
	if (name_closest_in_dir(dir, name, near, sizeof(near)))
		return -ENOENT;
	snprintf(out, size, "%s/%s", cat, near);
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
		if (err == -EACCES || err == -EPERM)
			/* mounted, but its mode (0700 root) keeps this user out */
			return log_fail(EACCES, "program '%s': tracepoint '%s': %s/events is not readable by this user: reading tracefs takes CAP_DAC_READ_SEARCH (or root; a raw_tp/ or tp_btf/ program needs no tracefs)",
					prog->fn.name, prog->target, tracefs_roots[i]);
		if (err && err != -ENOENT)
			return log_fail(-err, "program '%s': tracepoint '%s': cannot read %s: %s%s",
					prog->fn.name, prog->target, path, bsdk_strerror(err),
					err == -EMFILE ? " (" FD_LIMIT_HINT ")" : "");
	}
	if (err && !tracefs_mounted())
		return log_fail(BSDK_ENOPROBE, "program '%s': tracefs is not mounted (mount -t tracefs tracefs /sys/kernel/tracing)",
				prog->fn.name);
	if (err) {
		char near[2 * NAME_MAX + 2];

		if (tracepoint_suggest(prog->target, near, sizeof(near)) == 0)
			return log_fail(BSDK_ENOPROBE, "program '%s': tracepoint '%s' does not exist on this kernel; did you mean '%s'?",
					prog->fn.name, prog->target, near);
		return log_fail(BSDK_ENOPROBE, "program '%s': tracepoint '%s' does not exist on this kernel (see %s/events)",
				prog->fn.name, prog->target, tracefs_roots[0]);
	}

	attr = (struct perf_event_attr){ .type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr), .config = (uint64_t)id };
	/* One event on CPU 0 is enough: the program runs on every CPU. */
	pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open tracepoint '%s': %s%s",
				prog->fn.name, prog->target, bsdk_strerror(pfd), perf_open_hint(pfd));
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
int probe_pmu(const char *pmu, int *type, int *ret_bit)
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

/* Only a PMU that is not there says "no support": one that cannot be read
 * (no memory, no file descriptor left) is tried, and its error told. */
static bool pmu_exists(const char *pmu)
{
	int type, bit;

	return probe_pmu(pmu, &type, &bit) != -ENOENT;
}

bool bsdk_prog_attach_supported(const struct bsdk_prog *prog)
{
	if (prog->kind->method == ATTACH_KPROBE || prog->kind->method == ATTACH_KSYSCALL)
		return pmu_exists("kprobe");
	if (prog->kind->method == ATTACH_UPROBE || prog->kind->method == ATTACH_USDT)
		return pmu_exists("uprobe");
	return true;
}

/* Open a kprobe or uprobe perf event. name and config2 mean the function
 * and offset (kprobe) or the file and its file offset (uprobe); pid -1
 * probes every process. what names the target in messages. */
static int open_probe(struct bsdk_prog *prog, const char *pmu, bool retprobe, int pid,
		      const char *name, uint64_t config2, const char *what)
{
	struct perf_event_attr attr;
	int type, ret_bit, pfd, err;

	err = probe_pmu(pmu, &type, &ret_bit);
	if (err == -ENOENT)
		return log_fail(BSDK_ENOTSUPP, "program '%s': this kernel has no %s support (no '%s' PMU in /sys/bus/event_source/devices): cannot attach '%s'",
				prog->fn.name, pmu, pmu, prog->section);
	if (err)
		return log_fail(-err, "program '%s': cannot read the '%s' PMU in /sys/bus/event_source/devices: %s",
				prog->fn.name, pmu, bsdk_strerror(err));
	attr = (struct perf_event_attr){ .size = sizeof(attr),
		.type = (uint32_t)type,
		.config = retprobe ? 1ull << ret_bit : 0,
		.config1 = (uint64_t)(uintptr_t)name, .config2 = config2 };
	/* A probe of one process follows it on any CPU; of all, on CPU 0 is
	 * enough: the program runs on every CPU. */
	pfd = sys_perf_event_open(&attr, pid, pid >= 0 ? -1 : 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd == -ENOENT || pfd == -EINVAL || pfd == -ENXIO)
		return log_fail(BSDK_ENOPROBE, "program '%s': %s target '%s' not found%s",
				prog->fn.name, pmu, what,
				strcmp(pmu, "kprobe") == 0 ?
				" (is it in /proc/kallsyms, and not inlined or blacklisted?)" : "");
	if (pfd == -ESRCH)
		return log_fail(ESRCH, "program '%s': %s '%s': no process %d",
				prog->fn.name, pmu, what, pid);
	if (pfd < 0)
		return log_fail(-pfd, "program '%s': cannot open %s '%s': %s%s",
				prog->fn.name, pmu, what, bsdk_strerror(pfd), perf_open_hint(pfd));
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
	errno = 0;
	*off = plus ? strtoull(plus + 1, &end, 0) : 0;
	/* strtoull takes "", blanks and a sign: "f+" is no offset 0 */
	if (plus && (*end || errno || !(plus[1] >= '0' && plus[1] <= '9')))
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
	pfd = open_probe(prog, "kprobe", prog->kind->retprobe, -1, func, off, prog->target);
	return pfd < 0 ? pfd : bind_perf_event(prog, link, pfd);
}

/* The prefix of the symbols that enter system calls on this architecture
 * when the kernel has syscall wrappers (the pt_regs-taking stubs of
 * ARCH_HAS_SYSCALL_WRAPPER); without them the symbol is sys_NAME. */
static const char *syscall_prefix(void)
{
#if defined(__x86_64__)
	return "__x64_sys_";
#elif defined(__i386__)
	return "__ia32_sys_";
#elif defined(__aarch64__)
	return "__arm64_sys_";
#elif defined(__s390x__)
	return "__s390x_sys_";
#elif defined(__riscv)
	return "__riscv_sys_";
#else
	return "sys_";
#endif
}

/* Whether the kernel has syscall wrappers: a kprobe on the wrapper of
 * bpf(2), which every BPF-capable kernel has, can be opened. Asked once. */
static bool syscall_wrappers(void)
{
	static int cached = -1;
	int known = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
	char name[64];
	int type, ret_bit;

	if (known >= 0)
		return known;
	snprintf(name, sizeof(name), "%sbpf", syscall_prefix());
	known = strcmp(syscall_prefix(), "sys_") != 0;
	if (known && probe_pmu("kprobe", &type, &ret_bit) == 0) {
		struct perf_event_attr attr = { .size = sizeof(attr),
			.type = (uint32_t)type,
			.config1 = (uint64_t)(uintptr_t)name };
		int pfd = sys_perf_event_open(&attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

		known = pfd >= 0;
		if (pfd >= 0)
			close(pfd);
	}
	__atomic_store_n(&cached, known, __ATOMIC_RELEASE);	/* whole: threads may ask at once */
	return known;
}

/* "NAME": a kprobe on the system call's entry symbol. The program sees the
 * wrapper's registers: with wrappers, its first argument is the pt_regs of
 * the system call (what BPF_KSYSCALL unpacks). */
int kprobe_symbol(const struct bsdk_prog *prog, char *func, size_t size)
{
	const char *t = prog->target;
	size_t len = strcspn(t, "+");

	if (prog->kind->method == ATTACH_KSYSCALL) {
		if (t[len] || strchr(t, '/') ||
		    (size_t)snprintf(func, size, "%s%s", syscall_wrappers() ? syscall_prefix() : "sys_",
				     t) >= size)
			return fail(BSDK_ESECTION);
		return 0;
	}
	if (len == 0 || len >= size)
		return fail(BSDK_ESECTION);
	memcpy(func, t, len);
	func[len] = '\0';
	return 0;
}

int attach_ksyscall(struct bsdk_prog *prog, struct bsdk_link *link)
{
	char func[256];
	int pfd;

	if (kprobe_symbol(prog, func, sizeof(func)))
		return log_fail(BSDK_ESECTION, "program '%s': '%s' is not a system call name",
				prog->fn.name, prog->target);
	pfd = open_probe(prog, "kprobe", prog->kind->retprobe, -1, func, 0, func);
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

	if (prog->kind->prog_type != BPF_PROG_TYPE_KPROBE || prog->kind->method != ATTACH_UPROBE) {
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

struct bsdk_link *bsdk_prog_attach_perf_event(struct bsdk_prog *prog, int perf_fd)
{
	struct bsdk_link *link;
	int err, fd;

	if (prog->kind->prog_type != BPF_PROG_TYPE_PERF_EVENT &&
	    prog->kind->prog_type != BPF_PROG_TYPE_KPROBE &&
	    prog->kind->prog_type != BPF_PROG_TYPE_TRACEPOINT) {
		log_error("program '%s': a %s program cannot attach to a perf event",
			  prog->fn.name, prog->kind->type_name);
		return fail_ptr(EINVAL);
	}
	if (perf_fd < 0) {
		log_error("program '%s': perf event fd %d is not valid", prog->fn.name, perf_fd);
		return fail_ptr(EBADF);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	/* The link owns what it holds: keep the caller's fd theirs. */
	fd = fcntl(perf_fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		err = log_fail(errno, "program '%s': perf event fd %d: %s", prog->fn.name,
			       perf_fd, bsdk_strerror(errno));
		link_free(link);
		return fail_ptr(-err);
	}
	err = bind_perf_event(prog, link, fd);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	log_info("program '%s': attached to perf event fd %d", prog->fn.name, perf_fd);
	link_add(prog, link);
	return link;
}

/* ---- the methods of the section table (object/prog.c) */

static attach_fn methods[ATTACH_METHODS] = {
	[ATTACH_TRACEPOINT] = attach_tracepoint,
	[ATTACH_RAW_TRACEPOINT] = attach_raw_tracepoint,
	[ATTACH_KPROBE] = attach_kprobe,
	[ATTACH_KSYSCALL] = attach_ksyscall,
	[ATTACH_UPROBE] = attach_uprobe,
	[ATTACH_BTF_TRACING] = attach_btf_tracing,
	[ATTACH_BTF_ITER] = attach_btf_iter,
};

void attach_method_set(enum attach_method method, attach_fn fn)
{
	if (method > ATTACH_NONE && method < ATTACH_METHODS)
		methods[method] = fn;
}

struct bsdk_link *bsdk_prog_attach(struct bsdk_prog *prog)
{
	struct bsdk_link *link;
	int err;

	if (prog->fd >= 0 && prog->kind->method == ATTACH_NONE) {
		log_error("program '%s': section '%s' has no attach point of its own: %s",
			  prog->fn.name, prog->section, prog->kind->manual);
		return fail_ptr(EOPNOTSUPP);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	if (!methods[prog->kind->method]) {
		link_free(link);
		log_error("program '%s': attaching %s programs is not in this build of the library",
			  prog->fn.name, prog->kind->type_name);
		return fail_ptr(EOPNOTSUPP);
	}
	err = methods[prog->kind->method](prog, link);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	log_info("program '%s': attached to %s '%s'", prog->fn.name,
		 prog->kind->type_name, prog->target);
	link_add(prog, link);
	return link;
}


int bsdk_progs_attach(struct bsdk_prog *const *progs, size_t n, struct bsdk_link **links)
{
	if (n && (!progs || !links))
		return fail(EINVAL);
	for (size_t i = 0; i < n; i++) {
		if (!progs[i])
			return fail(EINVAL);
		/* In the caller's order: it knows which program must see events first. */
		links[i] = bsdk_prog_attach(progs[i]);
		if (!links[i])
			return -errno;	/* said by bsdk_prog_attach() */
	}
	return 0;
}
