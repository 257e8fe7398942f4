// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_obj_inspect.c - what the object model shows of good objects, with
 * no bpf() call: programs, the linked program's relocations (the
 * subprograms appended where the linker says), helpers, BTF info counts,
 * maps of every origin, licenses, global variables.
 */
#include <linux/bpf.h>

#include "test_obj_craft.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static struct bsdk_obj *open_img(const struct img *im, const char *name)
{
	struct bsdk_obj *obj = bsdk_obj_open_mem(im->buf, im->size, name);

	if (!obj) {
		printf("not ok - open %s: %s\n1..1\n", name, bsdk_strerror(errno));
		exit(1);
	}
	return obj;
}

/* Instructions of ELF function symbol name. */
static size_t sym_insns(const struct img *im, const char *name)
{
	return img_sym(im, name, NULL)->st_size / 8;
}

static void test_basic(void)
{
	/* In the order the linker applies them: the program's own, then
	 * those of the subprograms it appended. */
	static const struct {
		enum bsdk_relo_kind kind;
		const char *symbol, *map;
	} want[] = {
		{ BSDK_RELO_DATA, "target_pid", ".rodata" },
		{ BSDK_RELO_MAP, "counts", "counts" },
		{ BSDK_RELO_DATA, "total", ".data" },
		{ BSDK_RELO_CALL, "bump", NULL },
		{ BSDK_RELO_MAP, "events", "events" },
		{ BSDK_RELO_CALL, "global_add", NULL },
		{ BSDK_RELO_DATA, "calls", ".bss" },
	};
	struct img im = img_read("obj_basic");
	struct bsdk_obj *obj = open_img(&im, "obj_basic");
	struct bsdk_prog *p = bsdk_obj_prog_next(obj, NULL);
	size_t own = sym_insns(&im, "on_getpid"), bump = sym_insns(&im, "bump");
	const uint8_t *code = img_data(&im, img_sec(&im, "tracepoint/", NULL));
	struct bsdk_relo_info r;
	struct bsdk_map *m;

	check_str(bsdk_obj_license(obj), "GPL", "obj_basic: license");
	check(bsdk_obj_gpl_compatible(obj), "obj_basic: GPL is GPL-compatible");
	check(bsdk_obj_has_btf(obj), "obj_basic: has BTF");
	check(p && !bsdk_obj_prog_next(obj, p), "obj_basic: one program");
	check_str(bsdk_prog_name(p), "on_getpid", "program name");
	check_str(bsdk_prog_section(p), "tracepoint/syscalls/sys_enter_getpid", "section");
	check_str(bsdk_prog_type_name(p), "tracepoint", "type name");
	check_i64(bsdk_prog_type(p), BPF_PROG_TYPE_TRACEPOINT, "type");
	check_str(bsdk_prog_attach_target(p), "syscalls/sys_enter_getpid", "attach target");
	check_u64(bsdk_prog_insn_count(p), own, "own instructions = its symbol's size / 8");
	check_u64(bsdk_prog_linked_insn_count(p), own + bump + sym_insns(&im, "global_add"),
		  "linked: on_getpid + bump + global_add");
	check_u64(bsdk_prog_func_info_count(p), 3, "func_info: one per function");
	check(bsdk_prog_line_info_count(p) > 3, "line_info: several (%zu)",
	      bsdk_prog_line_info_count(p));

	check_u64(bsdk_prog_relo_count(p), ARRAY_SIZE(want), "relocations");
	for (size_t i = 0; i < ARRAY_SIZE(want) && i < bsdk_prog_relo_count(p); i++) {
		check_i64(bsdk_prog_relo(p, i, &r), 0, "relocation %zu: read", i);
		check_i64(r.kind, want[i].kind, "relocation %zu: kind %s", i, r.kind_name);
		check_str(r.symbol, want[i].symbol, "relocation %zu: symbol", i);
		check_str(r.map ? bsdk_map_name(r.map) : NULL, want[i].map,
			  "relocation %zu: map", i);
		if (r.insn < own)	/* in the program's own code */
			check_u64(code[r.insn * 8], r.kind == BSDK_RELO_CALL ? 0x85 : 0x18,
				  "relocation %zu: on the call / ld_imm64 at %zu", i, r.insn);
		else
			check(r.insn < own + bump, "relocation %zu: inside bump, appended at %zu",
			      i, own);
	}
	bsdk_prog_relo(p, 3, &r);
	check_u64(r.target, own, "bump lands right after the program");
	bsdk_prog_relo(p, 5, &r);
	check_u64(r.target, own + bump, "global_add lands after bump");
	check_i64(bsdk_prog_relo(p, ARRAY_SIZE(want), &r), -ERANGE, "relocation past the end");

	check_u64(bsdk_prog_helper_count(p), 3, "three helpers");
	check_i64(bsdk_prog_helper_id(p, 0), BPF_FUNC_map_lookup_elem, "helper 0");
	check_i64(bsdk_prog_helper_id(p, 1), BPF_FUNC_get_current_pid_tgid, "helper 1");
	check_i64(bsdk_prog_helper_id(p, 2), BPF_FUNC_perf_event_output, "helper 2");
	check_i64(bsdk_prog_helper_id(p, 3), -ERANGE, "helper past the end");
	check_str(bsdk_helper_gpl_only(BPF_FUNC_perf_event_output), "bpf_perf_event_output",
		  "bpf_perf_event_output is GPL-only");
	check_str(bsdk_helper_gpl_only(BPF_FUNC_probe_read_kernel), "bpf_probe_read_kernel",
		  "bpf_probe_read_kernel is GPL-only");
	check_str(bsdk_helper_gpl_only(BPF_FUNC_get_current_pid_tgid), NULL,
		  "bpf_get_current_pid_tgid is for any license");

	m = bsdk_obj_map_find(obj, "counts");
	check(m && bsdk_map_type(m) == BPF_MAP_TYPE_HASH && bsdk_map_key_size(m) == 4 &&
	      bsdk_map_value_size(m) == 8 && bsdk_map_max_entries(m) == 16 &&
	      !strcmp(bsdk_map_origin(m), ".maps") && bsdk_map_pinning(m) == 0,
	      "map 'counts': hash, 4 -> 8, 16 entries, from .maps");
	m = bsdk_obj_map_find(obj, "events");
	check(m && bsdk_map_type(m) == BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	      "map 'events': perf event array");
	m = bsdk_obj_map_find(obj, ".rodata");
	check(m && bsdk_map_type(m) == BPF_MAP_TYPE_ARRAY && bsdk_map_value_size(m) == 4 &&
	      bsdk_map_max_entries(m) == 1 && !strcmp(bsdk_map_origin(m), ".rodata"),
	      "map '.rodata': one 4-byte value");
	check(bsdk_obj_map_find(obj, ".data") && bsdk_obj_map_find(obj, ".bss"),
	      "maps '.data' and '.bss'");
	check(bsdk_obj_map_find(obj, "nope") == NULL && errno == ENOENT, "no map 'nope'");

	check_i64(bsdk_obj_global_size(obj, "target_pid"), 4, "global 'target_pid' size");
	check_i64(bsdk_obj_global_size(obj, "calls"), 8, "global 'calls' size");
	cap_start();
	check_i64(bsdk_obj_set_global(obj, "target_pid", &(uint32_t){ 7 }, 4), 0,
		  "set 'target_pid'");
	check_i64(bsdk_obj_set_global(obj, "target_pid", &(uint64_t){ 7 }, 8), -EINVAL,
		  "set 'target_pid' with 8 bytes");
	check_i64(bsdk_obj_set_global(obj, "nope", &(uint32_t){ 7 }, 4), -ENOENT,
		  "set an unknown global");
	check_i64(cap.errors, 2, "each refusal says why");
	bsdk_set_log(NULL, NULL);

	bsdk_obj_close(obj);
	free(im.buf);
}

static void test_legacy(void)
{
	struct img im = img_read("obj_legacy");
	struct bsdk_obj *obj = open_img(&im, "obj_legacy");
	struct bsdk_prog *p = bsdk_obj_prog_find(obj, "on_sys_enter");
	struct bsdk_map *m = bsdk_obj_map_find(obj, "legacy_counts");
	struct bsdk_relo_info r;

	check(bsdk_obj_gpl_compatible(obj), "obj_legacy: 'Dual BSD/GPL' is GPL-compatible");
	check(p != NULL, "obj_legacy: program 'on_sys_enter'");
	if (!p)
		return;
	check_str(bsdk_prog_type_name(p), "raw_tracepoint", "raw tracepoint program");
	check_str(bsdk_prog_attach_target(p), "sys_enter", "raw tracepoint target");
	check_u64(bsdk_prog_linked_insn_count(p), bsdk_prog_insn_count(p),
		  "no subprograms: linked = own");
	check(m && !strcmp(bsdk_map_origin(m), "maps") && bsdk_map_type(m) == BPF_MAP_TYPE_ARRAY &&
	      bsdk_map_value_size(m) == 8, "legacy map 'legacy_counts' from 'maps'");
	check_u64(bsdk_prog_relo_count(p), 2, "two map relocations");
	check(bsdk_prog_relo(p, 0, &r) == 0 && r.kind == BSDK_RELO_MAP && r.map == m,
	      "the first names 'legacy_counts'");
	bsdk_obj_close(obj);

	/* a license the kernel does not count as GPL */
	memcpy(img_data(&im, img_sec(&im, "license", NULL)), "MIT\0", 4);
	obj = open_img(&im, "obj_legacy, MIT");
	check_str(bsdk_obj_license(obj), "MIT", "license 'MIT'");
	check(!bsdk_obj_gpl_compatible(obj), "'MIT' is not GPL-compatible");
	bsdk_obj_close(obj);
	free(im.buf);
}

static void test_pin_attr(void)
{
	struct img im = img_read("obj_pin");
	struct bsdk_obj *obj = open_img(&im, "obj_pin");

	check_u64(bsdk_map_pinning(bsdk_obj_map_find(obj, "bsdk_test_pinned")), 1,
		  "obj_pin: pinning by name");
	bsdk_obj_close(obj);
	free(im.buf);
}

int main(void)
{
	test_basic();
	test_legacy();
	test_pin_attr();
	return check_done();
}
