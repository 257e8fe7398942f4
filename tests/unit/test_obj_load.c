// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_load.c - load objects into the running kernel (root, BPF):
 *
 *   - obj_basic with its BTF: the kernel gets func_info for the three
 *     functions (a global __noinline one cannot load without it) and the
 *     line info; the map gets its BTF key and value types. Attached to
 *     sys_enter_getpid, it counts our own getpid() calls in a hash map, in
 *     .data (through a static subprogram) and in .bss.
 *   - obj_reject: the verifier refuses it; the messages carry its reason
 *     and the C file:line of the rejected dereference.
 *   - both as the core alone loads them (no pass, as in libbpfsdk-core.a):
 *     no BTF in the kernel, each '.maps' map where its symbol is, and a
 *     rejection told with the verifier's reason and the end of its log;
 *     the C line is the .BTF.ext pass's (ext/btf/btf_ext_pass.c), so not there.
 *
 * Skipped where bpf() is not permitted.
 */
#include <fcntl.h>
#include <linux/bpf.h>

#include "test_obj_craft.h"
#include "object/object.h"
#include "object/pass.h"

static int obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr attr;

	memset(info, 0, len);
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = (uint32_t)fd;
	attr.info.info_len = len;
	attr.info.info = (uint64_t)(uintptr_t)info;
	return (int)syscall(__NR_bpf, BPF_OBJ_GET_INFO_BY_FD, &attr, sizeof(attr));
}

static int map_lookup(int fd, const void *key, void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.value = (uint64_t)(uintptr_t)value;
	return (int)syscall(__NR_bpf, BPF_MAP_LOOKUP_ELEM, &attr, sizeof(attr));
}

static int map_update(int fd, const void *key, const void *value)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)fd;
	attr.key = (uint64_t)(uintptr_t)key;
	attr.value = (uint64_t)(uintptr_t)value;
	return (int)syscall(__NR_bpf, BPF_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

static struct bsdk_obj *open_built(const char *name)
{
	struct img im = img_read(name);
	struct bsdk_obj *obj = bsdk_obj_open_mem(im.buf, im.size, name);

	free(im.buf);
	return obj;
}

static void test_basic(void)
{
	enum { CALLS = 5 };
	struct bsdk_obj *obj = open_built("obj_basic");
	struct bsdk_prog *p = obj ? bsdk_obj_prog_find(obj, "on_getpid") : NULL;
	uint32_t pid = (uint32_t)getpid(), zero = 0;
	struct bpf_prog_info pinfo;
	struct bpf_map_info minfo;
	struct bsdk_link *link;
	uint64_t count = 0, total = 0, calls = 0;
	int err;

	check(p != NULL, "obj_basic opens");
	if (!p)
		return;
	check_i64(bsdk_obj_set_global(obj, "target_pid", &pid, sizeof(pid)), 0,
		  "set target_pid to our pid");
	cap_start();
	err = bsdk_obj_load(obj);
	bsdk_set_log(NULL, NULL);
	check_i64(err, 0, "obj_basic loads (a global subprogram needs func_info)");
	check_i64(cap.errors + cap.warnings, 0, "with no error or warning");
	if (err) {
		check_diag("%s", cap.all);
		bsdk_obj_close(obj);
		return;
	}
	check(obj_info(bsdk_prog_fd(p), &pinfo, sizeof(pinfo)) == 0, "program info");
	check(pinfo.btf_id != 0, "the program has the object's BTF");
	check_u64(pinfo.nr_func_info, 3, "the kernel got 3 func_info records");
	check_u64(pinfo.nr_line_info, bsdk_prog_line_info_count(p),
		  "the kernel got every line_info record");
	check(obj_info(bsdk_map_fd(bsdk_obj_map_find(obj, "counts")), &minfo, sizeof(minfo)) == 0 &&
	      minfo.btf_key_type_id && minfo.btf_value_type_id,
	      "map 'counts' has BTF key and value types");

	/* the program only increments: the entry comes from here */
	check_i64(map_update(bsdk_map_fd(bsdk_obj_map_find(obj, "counts")), &pid, &count), 0,
		  "counts[pid] = 0");
	link = bsdk_prog_attach(p);
	check(link != NULL, "attach to tracepoint syscalls/sys_enter_getpid");
	if (link) {
		for (int i = 0; i < CALLS; i++)
			syscall(__NR_getpid);
		bsdk_link_destroy(link);
		syscall(__NR_getpid);	/* detached: not counted */
	}
	check_i64(map_lookup(bsdk_map_fd(bsdk_obj_map_find(obj, "counts")), &pid, &count), 0,
		  "our pid is in 'counts'");
	check_u64(count, CALLS, "counts[pid]: one per call while attached");
	map_lookup(bsdk_map_fd(bsdk_obj_map_find(obj, ".data")), &zero, &total);
	check_u64(total, 1 + CALLS, ".data total: 1, plus one per call through bump()");
	map_lookup(bsdk_map_fd(bsdk_obj_map_find(obj, ".bss")), &zero, &calls);
	check_u64(calls, CALLS, ".bss calls: one per call");
	bsdk_obj_close(obj);
}

/* The line of tests/bpf/obj_reject.bpf.c that holds marker. */
static int source_line(const char *marker)
{
	FILE *f = fopen("tests/bpf/obj_reject.bpf.c", "r");
	char line[512];
	int n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		n++;
		if (strstr(line, marker)) {
			fclose(f);
			return n;
		}
	}
	if (f)
		fclose(f);
	return -1;
}

static void test_reject(void)
{
	struct bsdk_obj *obj = open_built("obj_reject");
	int line = source_line("REJECTED HERE");
	char where[64];
	int err;

	check(obj != NULL, "obj_reject opens (nothing wrong before the verifier)");
	if (!obj)
		return;
	cap_start();
	err = bsdk_obj_load(obj);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -BSDK_EVERIFIER, "load fails with BSDK_EVERIFIER");
	check(strstr(cap.all, "rejected by the verifier") != NULL, "the log says so");
	check(strstr(cap.all, "invalid mem access") != NULL, "and gives the verifier's reason");
	snprintf(where, sizeof(where), "obj_reject.bpf.c:%d (instruction", line);
	check(line > 0 && strstr(cap.all, where) != NULL,
	      "and names the C line: '%s'", where);
	check(strstr(cap.all, "return *v == 42;") != NULL, "and shows its source");
	check_i64(bsdk_prog_fd(bsdk_obj_prog_next(obj, NULL)), -1, "nothing stays loaded");
	if (!strstr(cap.all, where))
		check_diag("%s", cap.all);
	bsdk_obj_close(obj);
}

/* obj_basic and obj_reject with no pass registered, as the core alone. */
static void test_core_alone(void)
{
	struct bsdk_obj *full = open_built("obj_basic"), *obj;
	size_t npasses = obj_npasses;
	struct bpf_prog_info pinfo;
	struct bpf_map_info minfo;
	int err;

	obj_npasses = 0;
	obj = open_built("obj_basic");
	check(obj && full && obj->nmaps == full->nmaps, "core alone: obj_basic opens, with every map");
	for (size_t i = 0; obj && full && i < obj->nmaps && i < full->nmaps; i++)
		check(obj->maps[i].sec_offset == full->maps[i].sec_offset,
		      "core alone: map '%s' at offset %llu, as with the BTF pass (%llu)", obj->maps[i].name,
		      (unsigned long long)obj->maps[i].sec_offset,
		      (unsigned long long)full->maps[i].sec_offset);
	cap_start();
	err = obj ? bsdk_obj_load(obj) : -1;
	bsdk_set_log(NULL, NULL);
	check_i64(err, 0, "core alone: obj_basic loads, its global subprogram with no func_info");
	check_i64(cap.errors + cap.warnings, 0, "with no error or warning");
	if (!err) {
		struct bsdk_prog *p = bsdk_obj_prog_find(obj, "on_getpid");

		check(obj_info(bsdk_prog_fd(p), &pinfo, sizeof(pinfo)) == 0 && pinfo.btf_id == 0 &&
		      pinfo.nr_func_info == 0, "core alone: the program has no BTF");
		check(obj_info(bsdk_map_fd(bsdk_obj_map_find(obj, "counts")), &minfo, sizeof(minfo)) == 0 &&
		      !minfo.btf_key_type_id && !minfo.btf_value_type_id,
		      "core alone: map 'counts' has no BTF types");
	}
	bsdk_obj_close(obj);
	bsdk_obj_close(full);
	obj = open_built("obj_reject");
	cap_start();
	err = obj ? bsdk_obj_load(obj) : -1;
	bsdk_set_log(NULL, NULL);
	check_i64(err, -BSDK_EVERIFIER, "core alone: obj_reject is rejected");
	check(strstr(cap.all, "invalid mem access") != NULL, "core alone: the verifier's reason is told");
	check(strstr(cap.all, "return *v == 42;") == NULL, "core alone: no C line without the .BTF.ext pass");
	bsdk_obj_close(obj);
	obj_npasses = npasses;
}

/* bsdk_obj_detach_all() destroys the links bsdk_obj_attach_all() made and
 * leaves the caller's own (the policy keeps its list, dropped as links are
 * freed; no field of the core's link says who made it). */
static void test_detach_keeps_own(void)
{
	struct bsdk_obj *obj = open_built("metrics_count");
	struct bsdk_prog *enter = obj ? bsdk_obj_prog_find(obj, "enter_sleep") : NULL;
	struct bsdk_prog *exit = obj ? bsdk_obj_prog_find(obj, "exit_sleep") : NULL;
	struct bsdk_link *own;

	check(enter && exit && bsdk_obj_load(obj) == 0, "metrics_count loads");
	if (!enter || !exit || exit->fd < 0) {
		bsdk_obj_close(obj);
		return;
	}
	own = bsdk_prog_attach(exit);
	check(own != NULL, "the caller attaches exit_sleep, a link of its own");
	check_i64(bsdk_obj_attach_all(obj, 0), 1, "attach_all attaches the other, enter_sleep");
	check_i64(bsdk_obj_detach_all(obj), 1, "detach_all destroys one link: attach_all's");
	check(bsdk_prog_link(exit) == own && bsdk_prog_attached(exit),
	      "the caller's link is still exit_sleep's");
	check(!bsdk_prog_link(enter) && !bsdk_prog_attached(enter), "enter_sleep is detached");
	check_i64(bsdk_obj_detach_all(obj), 0, "a second detach_all finds nothing of its own");
	/* a link attach_all made, destroyed by the caller, is not destroyed again */
	check_i64(bsdk_obj_attach_all(obj, 0), 1, "attach_all attaches enter_sleep again");
	bsdk_link_destroy(bsdk_prog_link(enter));
	check_i64(bsdk_obj_detach_all(obj), 0, "detach_all after the caller destroyed it: none left");
	check(bsdk_prog_link(exit) == own, "the caller's link still stands");
	bsdk_obj_close(obj);
}

int main(void)
{
	if (!craft_bpf_usable()) {
		printf("ok 1 # skip bpf() not permitted here\n1..1\n");
		return 0;
	}
	test_basic();
	test_reject();
	test_core_alone();
	test_detach_keeps_own();
	return check_done();
}
