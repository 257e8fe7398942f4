// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_globals.c - global variables through bsdk_obj_global_ptr()
 * (tests/bpf/globals.bpf.c): written before load as the initial value,
 * then, after load, read and written in the mmapped maps with no system
 * call: the program's counter is seen, a value user space stores is what
 * the program reads next, and .rodata is mapped read-only.
 *
 * Skipped where bpf() is not permitted.
 */
#include <linux/bpf.h>

#include "test_obj_craft.h"

static uint32_t kernel_map_flags(int fd)
{
	struct bpf_map_info info;

	return craft_map_info(fd, &info) ? 0 : info.map_flags;
}

/* The permissions of the mapping that holds addr in /proc/self/maps, e.g. "r--s". */
static const char *mapping_perms(const volatile void *addr)
{
	static char perms[8];
	char line[512];
	FILE *f = fopen("/proc/self/maps", "r");

	strcpy(perms, "none");
	while (f && fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		char p[8];

		if (sscanf(line, "%lx-%lx %7s", &lo, &hi, p) == 3 &&
		    (uintptr_t)addr >= lo && (uintptr_t)addr < hi) {
			snprintf(perms, sizeof(perms), "%s", p);
			break;
		}
	}
	if (f)
		fclose(f);
	return perms;
}

static void getppid_n(int n)
{
	for (int i = 0; i < n; i++)
		syscall(__NR_getppid);
}

int main(void)
{
	struct bsdk_obj *obj;
	struct bsdk_link *link;
	volatile uint64_t *hits, *cookie, *seen;
	const volatile uint64_t *tag;
	uint32_t *pid;
	size_t size = 0;

	obj = craft_open_for_kernel("globals");
	if (!obj)
		return check_done();

	/* before load: the initial values */
	pid = bsdk_obj_global_ptr(obj, "target_pid", &size);
	check(pid != NULL && size == 4, "before load: target_pid, 4 bytes (%zu)", size);
	cookie = bsdk_obj_global_ptr(obj, "cookie", &size);
	check(cookie && size == 8 && *cookie == 0xc0ffee, "before load: cookie holds its initial 0xc0ffee");
	errno = 0;
	check(bsdk_obj_global_ptr(obj, "no_such", NULL) == NULL && errno == ENOENT,
	      "an unknown name: NULL, ENOENT");
	size = 0;
	check(bsdk_map_global_data(bsdk_obj_map_find(obj, ".bss"), &size) != NULL,
	      "the .bss map's data before load");
	check_u64(size, 16, "is 16 bytes (hits, seen_cookie)");
	errno = 0;
	check(bsdk_obj_global_ptr(obj, "LICENSE", NULL) == NULL && errno == ENOENT,
	      "a symbol outside the data sections: NULL, ENOENT");
	if (!pid || !cookie)
		return check_done();
	*pid = (uint32_t)getpid();	/* what bsdk_obj_set_global() does, in place */

	if (!check_i64(bsdk_obj_load(obj), 0, "load")) {
		bsdk_obj_close(obj);
		return check_done();
	}
	check(kernel_map_flags(bsdk_map_fd(bsdk_obj_map_find(obj, ".bss"))) & BPF_F_MMAPABLE,
	      "the kernel created .bss with BPF_F_MMAPABLE");
	check(kernel_map_flags(bsdk_map_fd(bsdk_obj_map_find(obj, ".rodata"))) & BPF_F_MMAPABLE,
	      "and .rodata");

	hits = bsdk_obj_global_ptr(obj, "hits", NULL);
	seen = bsdk_obj_global_ptr(obj, "seen_cookie", NULL);
	cookie = bsdk_obj_global_ptr(obj, "cookie", NULL);
	tag = bsdk_obj_global_ptr(obj, "rodata_tag", NULL);
	pid = bsdk_obj_global_ptr(obj, "target_pid", NULL);
	if (!check(hits && seen && cookie && tag && pid, "after load: a pointer to each global"))
		return check_done();
	check_u64(*pid, (uint64_t)getpid(), "after load: .rodata holds the pid written before load");
	check_u64(*tag, 0x5eed, "after load: and its other constant");
	check_u64(*hits, 0, "after load: .bss starts at zero");

	link = bsdk_prog_attach(bsdk_obj_prog_find(obj, "count_getppid"));
	if (!check(link != NULL, "attach to sys_enter_getppid"))
		return check_done();
	getppid_n(5);
	check_u64(*hits, 5, "5 getppid() calls: hits reads 5 through the pointer");
	check_u64(*seen, 0xc0ffee + 0x5eed, "the program saw the initial cookie");
	*cookie = 0xabcdef;
	getppid_n(2);
	check_u64(*hits, 7, "2 more: hits reads 7");
	check_u64(*seen, 0xabcdef + 0x5eed, "the program read the cookie stored through the pointer");
	bsdk_link_destroy(link);

	/* .rodata is frozen and mapped read-only, .bss read-write */
	check_str(mapping_perms(pid), "r--s", ".rodata is mapped read-only and shared");
	check_str(mapping_perms(hits), "rw-s", ".bss is mapped read-write and shared");
	bsdk_obj_close(obj);
	return check_done();
}
