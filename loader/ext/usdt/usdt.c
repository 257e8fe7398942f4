// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * usdt.c - attach programs to USDT probes: the static tracepoints
 * <sys/sdt.h> compiles into user programs (section "usdt/PATH:PROVIDER:NAME").
 *
 * Each probe site is a nop in the traced binary and an ELF note in its
 * .note.stapsdt section (type 3, owner "stapsdt"):
 *
 *   pc         the nop's address (link-time)
 *   base       the link-time address of .stapsdt.base; when the section's
 *              address in the file differs (prelink moved the binary),
 *              every pc moves by the difference
 *   semaphore  the address of a counter the probe tests before computing
 *              its arguments (0: none); the uprobe PMU raises it while a
 *              probe is attached when given its file offset (ref_ctr_offset,
 *              config bits 32-63)
 *   provider, name, args   NUL-terminated strings; args says where each
 *              argument is at this site: "-4@%edi 8@-8(%rbp) -4@$5"
 *
 * For each site the loader parses args into a spec (usdt_args.c;
 * include/bpf/usdt.bpf.h has the layout and the code that reads it),
 * writes it into the map __bpf_usdt_specs at a new index, and opens a
 * uprobe at the site whose BPF cookie is that index. Kernels without BPF cookies (before 5.15)
 * find the index by instruction pointer in __bpf_usdt_ip_to_spec_id
 * instead, which works for binaries loaded at their link-time address
 * only (not PIE executables or libraries).
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "ext/usdt/usdt.h"
#include "object/pass.h"
#include "hooks/hooks.h"

#define NT_STAPSDT 3

/* Debian's multiarch library directory name of this architecture. */
#if defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#else
#define MULTIARCH "."
#endif
#define SPECS_MAP "__bpf_usdt_specs"
#define IP_MAP "__bpf_usdt_ip_to_spec_id"

/* The object's count of __bpf_usdt_specs entries written: obj_state() of usdt_key. */
static const char usdt_key;

/* ---- The probe notes of a binary ----------------------------------------- */

/* The file offset of address addr, through the PT_LOAD segment holding it. */
static bool vaddr_to_offset(Elf *elf, uint64_t addr, uint64_t *off)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    addr >= ph.p_vaddr && addr - ph.p_vaddr < ph.p_filesz) {
			*off = addr - ph.p_vaddr + ph.p_offset;
			return true;
		}
	}
	return false;
}

/* A NUL-terminated string at *p inside [*p, end): advanced past it. */
static const char *note_str(const char **p, const char *end)
{
	const char *s = *p, *nul = memchr(s, '\0', (size_t)(end - s));

	if (!nul)
		return NULL;
	*p = nul + 1;
	return s;
}

void usdt_sites_free(struct usdt_site *sites, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(sites[i].args);
	free(sites);
}

/* The .note.stapsdt section of elf, and .stapsdt.base's address when there is one. */
static Elf_Scn *notes_find(Elf *elf, size_t shstrndx, uint64_t *base_addr, bool *have_base)
{
	Elf_Scn *scn = NULL, *notes = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *sname;

		if (!gelf_getshdr(scn, &sh))
			continue;
		sname = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!sname)
			continue;
		if (strcmp(sname, ".note.stapsdt") == 0 && sh.sh_type == SHT_NOTE)
			notes = scn;
		else if (strcmp(sname, ".stapsdt.base") == 0) {
			*base_addr = sh.sh_addr;
			*have_base = true;
		}
	}
	return notes;
}

/* Where a binary's probes are looked for, and which. */
struct site_query {
	Elf *elf;
	const char *path, *provider, *name;
	uint64_t base_addr;	/* .stapsdt.base's address, when have_base */
	bool have_base;
};

/* One note of .note.stapsdt (its desc of descsz bytes): 1 and *site filled when it is the
 * probe q looks for, 0 when it is another or no probe note, or an error, logged. */
static int note_site(const struct site_query *q, const GElf_Nhdr *nh, const char *name_bytes,
		     const char *desc, struct usdt_site *site)
{
	const char *end = desc + nh->n_descsz, *p = desc + 24, *prov, *pname, *args;
	uint64_t pc, base, sem;

	if (nh->n_type != NT_STAPSDT || nh->n_namesz != 8 || memcmp(name_bytes, "stapsdt", 8) ||
	    nh->n_descsz < 24 + 3)
		return 0;
	memcpy(&pc, desc, 8);
	memcpy(&base, desc + 8, 8);
	memcpy(&sem, desc + 16, 8);
	prov = note_str(&p, end);
	pname = prov ? note_str(&p, end) : NULL;
	args = pname ? note_str(&p, end) : NULL;
	if (!args)
		return log_fail(BSDK_EFORMAT, "usdt: '%s': a .note.stapsdt note is cut short", q->path);
	if (strcmp(prov, q->provider) || strcmp(pname, q->name))
		return 0;
	/* prelink moved the binary: so did every probe */
	if (q->have_base && base)
		pc += q->base_addr - base;
	if (!vaddr_to_offset(q->elf, pc, &site->offset))
		return log_fail(BSDK_EFORMAT, "usdt: '%s': probe %s:%s at %#llx is in no loaded segment",
				q->path, q->provider, q->name, (unsigned long long)pc);
	if (sem && !vaddr_to_offset(q->elf, sem, &site->ref_ctr_offset))
		return log_fail(BSDK_EFORMAT, "usdt: '%s': the semaphore of %s:%s at %#llx is in no loaded segment",
				q->path, q->provider, q->name, (unsigned long long)sem);
	site->vaddr = pc;
	site->args = strdup(args);
	return site->args ? 1 : fail(ENOMEM);
}

int usdt_sites_find(const char *path, const char *provider, const char *name,
		    struct usdt_site **out, size_t *nout)
{
	struct site_query q = { .path = path, .provider = provider, .name = name };
	struct usdt_site *sites = NULL;
	size_t n = 0;
	Elf_Scn *notes;
	size_t shstrndx;
	GElf_Ehdr eh;
	int fd, err = 0;

	*out = NULL;
	*nout = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return log_fail(errno, "usdt: cannot open '%s': %s", path, bsdk_strerror(errno));
	elf_version(EV_CURRENT);
	q.elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!q.elf || elf_kind(q.elf) != ELF_K_ELF || !gelf_getehdr(q.elf, &eh) ||
	    elf_getshdrstrndx(q.elf, &shstrndx)) {
		err = log_fail(BSDK_EFORMAT, "usdt: '%s' is not an ELF file", path);
		goto out;
	}
	if (gelf_getclass(q.elf) != ELFCLASS64) {
		err = log_fail(BSDK_EFORMAT, "usdt: '%s' is not a 64-bit ELF file", path);
		goto out;
	}
	notes = notes_find(q.elf, shstrndx, &q.base_addr, &q.have_base);
	if (!notes) {
		err = log_fail(BSDK_ENOPROBE, "usdt: '%s' has no USDT probes (no .note.stapsdt section)", path);
		goto out;
	}
	for (Elf_Data *data = elf_getdata(notes, NULL); data && !err; data = elf_getdata(notes, data)) {
		size_t off = 0, next, name_off, desc_off;
		GElf_Nhdr nh;

		while (!err && (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
			struct usdt_site site = { 0 };
			int found = note_site(&q, &nh, (const char *)data->d_buf + name_off,
					      (const char *)data->d_buf + desc_off, &site);

			off = next;
			if (found > 0 && array_push(&sites, &n, &site, sizeof(site))) {
				free(site.args);
				found = fail(ENOMEM);
			}
			err = found < 0 ? found : 0;
		}
	}
	if (!err && n == 0)
		err = log_fail(BSDK_ENOPROBE, "usdt: '%s' has no probe %s:%s", path, provider, name);
	else if (!err && eh.e_type != ET_EXEC)
		sites[0].relocatable = true;
out:
	if (q.elf)
		elf_end(q.elf);
	close(fd);
	if (err) {
		usdt_sites_free(sites, n);
		return err;
	}
	for (size_t i = 1; i < n; i++)
		sites[i].relocatable = sites[0].relocatable;
	*out = sites;
	*nout = n;
	return 0;
}

/* ---- Attaching ------------------------------------------------------------ */

static struct bsdk_map *map_named(struct bsdk_obj *obj, const char *name)
{
	for (size_t i = 0; i < obj->nmaps; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return NULL;
}

/* Where process pid has the file offset of path's site mapped: a PIE executable or a
 * shared library lands at another address in every process, and a kernel without BPF
 * cookies finds the site's spec by that address. The mapping is the file's by path (as
 * /proc/PID/maps names it) or by device and inode. 0 with *ip, or a failure logged. */
static int site_ip_in(const struct bsdk_prog *prog, int pid, const char *path,
		      const struct usdt_site *site, const char *what, uint64_t *ip)
{
	char maps[64], line[PATH_MAX + 128], real[PATH_MAX];
	struct stat st;
	bool have_st = stat(path, &st) == 0, found = false;
	FILE *f;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	snprintf(maps, sizeof(maps), "/proc/%d/maps", pid);
	f = fopen(maps, "re");
	if (!f) {
		int err = errno == ENOENT ? ESRCH : errno;

		return log_fail(err, "program '%s': USDT probe %s: cannot read '%s' to find where process "
				"%d has '%s': %s", prog->fn.name, what, maps, pid, path, bsdk_strerror(err));
	}
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, ino;
		unsigned int maj, min;
		int name_at = 0;

		/* "start-end perms offset major:minor inode   path" */
		if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu %n", &start, &end, &off, &maj, &min, &ino,
			   &name_at) < 6 || site->offset < off || site->offset - off >= end - start)
			continue;
		line[strcspn(line, "\n")] = '\0';
		if ((name_at && strcmp(line + name_at, real) == 0) ||
		    (have_st && ino == st.st_ino && maj == major(st.st_dev) && min == minor(st.st_dev))) {
			*ip = start + (site->offset - off);
			found = true;
		}
	}
	fclose(f);
	if (!found)
		return log_fail(ENOENT, "program '%s': USDT probe %s: process %d has no mapping of '%s' at "
				"offset %#llx, and without BPF cookies (Linux 5.15) its site is found by address "
				"in that process", prog->fn.name, what, pid, path,
				(unsigned long long)site->offset);
	return 0;
}

/* The site's spec into the specs map at the next free index, *id. */
static int site_spec_add(struct bsdk_prog *prog, struct bsdk_map *specs, const struct usdt_site *site,
			 const char *what, uint64_t cookie, uint32_t *id)
{
	struct usdt_spec spec;
	uint32_t *nspecs;
	char err[192];
	int rc;

	rc = usdt_parse_args(site->args, &spec, err, sizeof(err));
	if (rc)
		return log_fail(-rc, "program '%s': USDT probe %s at offset %#llx: %s", prog->fn.name, what,
				(unsigned long long)site->offset, err);
	nspecs = obj_state(prog->obj, &usdt_key, sizeof(*nspecs), free);
	if (!nspecs)
		return -errno;
	if (*nspecs >= specs->max_entries)
		return log_fail(E2BIG, "program '%s': more USDT sites than the %u specs '%s' holds",
				prog->fn.name, specs->max_entries, SPECS_MAP);
	*id = (*nspecs)++;
	spec.usdt_cookie = cookie;
	rc = bpf_map_update(specs->fd, id, &spec, 0);
	if (rc)
		return log_fail(-rc, "program '%s': cannot write USDT spec %u: %s", prog->fn.name, *id, bsdk_strerror(rc));
	return 0;
}

/* No cookies here: the program finds its spec by address, the site's
 * link-time one or, in a PIE or a library, where process pid has it. */
static int site_attach_by_ip(struct bsdk_prog *prog, struct bsdk_map *ips, int pfd,
			     const struct usdt_site *site, uint32_t id, int pid, const char *path,
			     const char *what)
{
	uint64_t ip = site->vaddr;
	int rc;

	if (!ips)
		return log_fail(BSDK_ENOTSUPP, "program '%s': USDT probe %s: this kernel has no BPF cookies (Linux 5.15), and the object has no map '%s' to find a site's spec by address (include <bpf/usdt.bpf.h>)",
				prog->fn.name, what, IP_MAP);
	if (site->relocatable && pid <= 0)
		return log_fail(BSDK_ENOTSUPP, "program '%s': USDT probe %s: this kernel has no BPF cookies (Linux 5.15), and '%s' is not loaded at a fixed address: attach to one process (a pid) to find its sites there",
				prog->fn.name, what, path);
	if (site->relocatable) {
		rc = site_ip_in(prog, pid, path, site, what, &ip);
		if (rc)
			return rc;
	}
	rc = bpf_map_update(ips->fd, &ip, &id, 0);
	if (!rc && ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog->fd) < 0)
		rc = -errno;
	if (rc)
		return log_fail(-rc, "program '%s': cannot attach to USDT probe %s: %s", prog->fn.name, what, bsdk_strerror(rc));
	return 0;
}

/* One site: its spec into the map at a new index, a uprobe whose cookie is
 * the index, the program bound to it. */
static int attach_site(struct bsdk_prog *prog, struct bsdk_link *link, const struct usdt_site *site,
		       int pid, const char *path, const char *what, uint64_t cookie)
{
	struct bsdk_obj *obj = prog->obj;
	struct bsdk_map *specs = map_named(obj, SPECS_MAP), *ips = map_named(obj, IP_MAP);
	struct perf_event_attr pa;
	union bpf_attr attr;
	int type, ret_bit, pfd, fd, rc;
	uint32_t id;

	rc = site_spec_add(prog, specs, site, what, cookie, &id);
	if (rc)
		return rc;

	rc = probe_pmu("uprobe", &type, &ret_bit);
	if (rc == -ENOENT)
		return log_fail(BSDK_ENOTSUPP, "program '%s': this kernel has no uprobe support: cannot attach USDT probe %s",
				prog->fn.name, what);
	if (rc)
		return log_fail(-rc, "program '%s': cannot read the 'uprobe' PMU in /sys/bus/event_source/devices: %s",
				prog->fn.name, bsdk_strerror(rc));
	pa = (struct perf_event_attr){ .size = sizeof(pa), .type = (uint32_t)type,
		/* the semaphore's file offset: the kernel counts attached probes there */
		.config = site->ref_ctr_offset << 32,
		.config1 = (uint64_t)(uintptr_t)path, .config2 = site->offset };
	pfd = sys_perf_event_open(&pa, pid, pid >= 0 ? -1 : 0, -1, PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return log_fail(pfd == -ESRCH ? ESRCH : -pfd, "program '%s': cannot open a uprobe on USDT probe %s (%s+%#llx%s): %s",
				prog->fn.name, what, path, (unsigned long long)site->offset,
				site->ref_ctr_offset ? ", with semaphore" : "", bsdk_strerror(pfd));
	link->perf_fd = pfd;
	memset(&attr, 0, sizeof(attr));
	attr.link_create.prog_fd = prog->fd;
	attr.link_create.target_fd = pfd;
	attr.link_create.attach_type = BPF_PERF_EVENT;
	attr.link_create.perf_event.bpf_cookie = id;
	fd = sys_bpf(BPF_LINK_CREATE, &attr, sizeof(attr));
	if (fd >= 0) {
		link->link_fd = fd;
	} else if (fd != -EINVAL && fd != -EOPNOTSUPP) {
		/* a kernel without perf links says EINVAL; anything else is this call's failure */
		return log_fail(-fd, "program '%s': cannot link to USDT probe %s: %s", prog->fn.name, what,
				bsdk_strerror(fd));
	} else {
		rc = site_attach_by_ip(prog, ips, pfd, site, id, pid, path, what);
		if (rc)
			return rc;
	}
	if (ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0)
		return log_fail(errno, "program '%s': cannot enable the uprobe of USDT probe %s: %s", prog->fn.name, what, bsdk_strerror(errno));
	return 0;
}

/*
 * A bare name that is not in the current directory ("libc.so.6", "bash"),
 * as libbpf finds it: a library in LD_LIBRARY_PATH or the system's library
 * directories, a program in PATH. path is rewritten in place (size bytes);
 * left as it is when nothing matches, for the error to name.
 */
static void resolve_bare_name(char *path, size_t size)
{
	static const char *const lib_dirs[] = {
		"/lib/" MULTIARCH, "/usr/lib/" MULTIARCH, "/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	bool lib = strstr(path, ".so") != NULL;
	const char *env = getenv(lib ? "LD_LIBRARY_PATH" : "PATH");
	char cand[PATH_MAX], dirs[4096];

	if (strchr(path, '/') || access(path, F_OK) == 0)
		return;
	snprintf(dirs, sizeof(dirs), "%s", env ? env : "");
	for (char *save = NULL, *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if (snprintf(cand, sizeof(cand), "%s/%s", d, path) < (int)sizeof(cand) &&
		    access(cand, F_OK) == 0)
			goto found;
	}
	for (size_t i = 0; lib && i < ARRAY_SIZE(lib_dirs); i++) {
		if (snprintf(cand, sizeof(cand), "%s/%s", lib_dirs[i], path) < (int)sizeof(cand) &&
		    access(cand, F_OK) == 0)
			goto found;
	}
	return;
found:
	if (strlen(cand) < size)
		strcpy(path, cand);
}

/* A probe of several sites: the link the caller holds attaches the first;
 * the others' links, made here, are freed with it (usdt_pass). The
 * object's list of them: obj_state() of sites_key. */
struct usdt_sites {
	struct bsdk_link *head;
	struct bsdk_link **more;
	size_t n;
};
struct usdt_links {
	struct usdt_sites *of;
	size_t n;
};
static const char sites_key;

/* At close every link was freed first, and their sites with them. */
static void usdt_links_free(void *state)
{
	struct usdt_links *s = state;

	free(s->of);
	free(s);
}

/* The pass: a link freed takes the links of its other sites with it. */
static void usdt_link_free(struct bsdk_link *link)
{
	struct usdt_links *s = obj_state_find(link->obj, &sites_key);
	struct usdt_sites e;

	for (size_t i = 0; s && i < s->n; i++) {
		if (s->of[i].head != link)
			continue;
		e = s->of[i];
		s->of[i] = s->of[--s->n];
		for (size_t j = 0; j < e.n; j++)
			link_free(e.more[j]);
		free(e.more);
		return;
	}
}

const struct obj_pass usdt_pass = {
	.name = "USDT",
	.link_free = usdt_link_free,
};

/* A link for one more site of head's probe, freed with head; NULL with errno. */
static struct bsdk_link *site_link_new(struct bsdk_link *head)
{
	struct usdt_links *s = obj_state(head->obj, &sites_key, sizeof(*s), usdt_links_free);
	struct usdt_sites *e = NULL, first = { head, NULL, 0 };
	struct bsdk_link *next;

	if (!s)
		return NULL;
	for (size_t i = 0; i < s->n && !e; i++)
		if (s->of[i].head == head)
			e = &s->of[i];
	if (!e && array_push(&s->of, &s->n, &first, sizeof(first)))
		return NULL;
	e = e ? e : &s->of[s->n - 1];
	next = calloc(1, sizeof(*next));
	if (!next || array_push(&e->more, &e->n, &next, sizeof(next))) {
		free(next);
		return fail_ptr(ENOMEM);
	}
	next->obj = head->obj;
	next->link_fd = next->perf_fd = -1;
	return next;
}

/* Every site of provider:name in path; link holds the first, and the
 * others' links are freed with it, so destroying it detaches them all. */
static int usdt_attach(struct bsdk_prog *prog, struct bsdk_link *link, int pid, const char *path,
		       const char *provider, const char *name, uint64_t cookie)
{
	struct bsdk_obj *obj = prog->obj;
	struct usdt_site *sites;
	struct bsdk_link *cur = link;
	char what[300];
	size_t n;
	int err;

	if (!map_named(obj, SPECS_MAP))
		return log_fail(BSDK_ESECTION, "program '%s': a USDT program needs the map '%s': #include <bpf/usdt.bpf.h> and read the arguments with bpf_usdt_arg()",
				prog->fn.name, SPECS_MAP);
	snprintf(what, sizeof(what), "%s:%s", provider, name);
	err = usdt_sites_find(path, provider, name, &sites, &n);
	if (err)
		return err;
	for (size_t i = 0; i < n && !err; i++) {
		if (i) {
			cur = site_link_new(link);
			if (!cur) {
				err = -errno;
				break;
			}
		}
		err = attach_site(prog, cur, &sites[i], pid, path, what, cookie);
	}
	if (!err)
		log_info("program '%s': attached to USDT probe %s in '%s' at %zu site%s", prog->fn.name,
			 what, path, n, n == 1 ? "" : "s");
	usdt_sites_free(sites, n);
	return err;
}

/* "PATH:PROVIDER:NAME", split from the right: a path may hold ':'. */
static int split_target(const struct bsdk_prog *prog, char *path, size_t size,
			const char **provider, const char **name)
{
	char *c2, *c1;

	if (strlen(prog->target) >= size)
		return log_fail(BSDK_ESECTION, "program '%s': USDT target too long", prog->fn.name);
	strcpy(path, prog->target);
	c2 = strrchr(path, ':');
	if (c2)
		*c2 = '\0';
	c1 = c2 ? strrchr(path, ':') : NULL;
	if (!c1 || c1 == path || !c1[1] || !c2[1])
		return log_fail(BSDK_ESECTION, "program '%s': section '%s' is not usdt/PATH:PROVIDER:NAME",
				prog->fn.name, prog->section);
	*c1 = '\0';
	*provider = c1 + 1;
	*name = c2 + 1;
	return 0;
}

static int attach_usdt(struct bsdk_prog *prog, struct bsdk_link *link)
{
	const char *provider, *name;
	char path[PATH_MAX];
	int err;

	if (!*prog->target)
		return log_fail(BSDK_ESECTION, "program '%s': section '%s' names no binary (usdt/PATH:PROVIDER:NAME); attach it with bsdk_prog_attach_usdt()",
				prog->fn.name, prog->section);
	err = split_target(prog, path, sizeof(path), &provider, &name);
	if (err)
		return err;
	resolve_bare_name(path, sizeof(path));
	return usdt_attach(prog, link, -1, path, provider, name, 0);
}

/* usdt/PATH:PROVIDER:NAME: a uprobe at each site; the section table's row
 * (ext/passes.c adds it). */
const struct attach_method attach_by_usdt = { "usdt", "uprobe", attach_usdt };
static const struct attach_kind usdt_rows[] = {
	KIND("usdt", BPF_PROG_TYPE_KPROBE, 0, "usdt", &attach_by_usdt, TARGET_OPTIONAL),
};
const struct attach_kinds usdt_kinds = { usdt_rows, 1, "usdt[/PATH:PROVIDER:NAME]" };

struct bsdk_link *bsdk_prog_attach_usdt(struct bsdk_prog *prog, int pid, const char *path,
					const char *provider, const char *name, uint64_t cookie)
{
	struct bsdk_link *link;
	int err;

	if (prog->kind->method != &attach_by_usdt) {
		log_error("program '%s': section '%s' is not a USDT program", prog->fn.name, prog->section);
		return fail_ptr(EINVAL);
	}
	if (!path || !*path || !provider || !*provider || !name || !*name || pid < -1) {
		log_error("program '%s': a USDT probe needs a binary, a provider and a name%s",
			  prog->fn.name, pid < -1 ? ", and a pid >= -1" : "");
		return fail_ptr(EINVAL);
	}
	if (prog->fd < 0) {
		log_error("program '%s': not loaded", prog->fn.name);
		return fail_ptr(EBADF);
	}
	link = link_new(prog);
	if (!link)
		return NULL;
	err = usdt_attach(prog, link, pid, path, provider, name, cookie);
	if (err) {
		link_free(link);
		return fail_ptr(-err);
	}
	link_add(prog, link);
	return link;
}
