// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_attach_rawtp_w.c - a raw_tp.w/ program (tests/bpf/attach_rawtp_w.bpf.c)
 * loads as BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, attaches to the writable
 * tracepoint bpf_test_finish, and what it writes reaches the kernel: a test
 * run of a socket filter returns the error the program stored, and after
 * the link is destroyed it returns success again; the same program
 * attached through bsdk_progs_attach(), and what that refuses.
 *
 * Skipped where bpf() is not permitted.
 */
#include <unistd.h>
#include <linux/bpf.h>

#include "test_obj_craft.h"

static int run_filter(struct bsdk_prog *filter, uint32_t *retval)
{
	unsigned char pkt[64] = { [12] = 0x08, [13] = 0x00, [14] = 0x45 };
	struct bsdk_test_run_opts o = {
		.sz = sizeof(o), .data_in = pkt, .data_size_in = sizeof(pkt),
	};
	int err = bsdk_prog_test_run(filter, &o);

	*retval = o.retval;
	return err;
}

/* bsdk_progs_attach(): links[i] for progs[i], in order; at the first failure
 * (the socket filter has no attach point of its own) the links made so far
 * stay with the caller. */
static void test_progs_attach(struct bsdk_prog *writer, struct bsdk_prog *filter)
{
	struct bsdk_prog *progs[2] = { writer, filter };
	struct bsdk_link *links[2] = { NULL };
	uint32_t retval = 0;

	check_i64(bsdk_progs_attach(progs, 1, links), 0, "progs_attach: one program");
	if (check(links[0] != NULL, "its link in links[0]"))
		check_i64(run_filter(filter, &retval), -ENOTTY, "and it is attached");
	bsdk_link_destroy(links[0]);
	links[0] = NULL;
	check_i64(bsdk_progs_attach(progs, 2, links), -EOPNOTSUPP,
		  "progs_attach: the second cannot attach");
	check(links[0] != NULL && links[1] == NULL, "the first stays attached, for the caller");
	bsdk_link_destroy(links[0]);
	check_i64(bsdk_progs_attach(NULL, 1, links), -EINVAL, "progs_attach: no array");
	check_i64(bsdk_progs_attach((struct bsdk_prog *[]){ NULL }, 1, links), -EINVAL,
		  "progs_attach: a NULL program");
	check_i64(bsdk_progs_attach(NULL, 0, NULL), 0, "progs_attach: nothing to attach");
}

int main(void)
{
	struct bsdk_prog *filter, *writer;
	struct bsdk_link *link;
	struct bsdk_obj *obj;
	uint32_t pid = (uint32_t)getpid(), retval = 0;
	int err;

	obj = craft_open_for_kernel("attach_rawtp_w");
	if (!obj)
		return check_done();
	filter = bsdk_obj_prog_find(obj, "keep");
	writer = bsdk_obj_prog_find(obj, "set_err");
	if (!check(filter && writer, "the object's two programs"))
		return check_done();
	check_i64(bsdk_prog_type(writer), BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, "raw_tp.w type");
	check_str(bsdk_prog_attach_target(writer), "bpf_test_finish", "target");
	check_i64(bsdk_obj_set_global(obj, "target_pid", &pid, sizeof(pid)), 0, "set target_pid");
	if (!check_i64(bsdk_obj_load(obj), 0, "load")) {
		bsdk_obj_close(obj);
		return check_done();
	}

	check_i64(run_filter(filter, &retval), 0, "a test run before the attach succeeds");
	check_u64(retval, 1, "the filter's return value");

	link = bsdk_prog_attach(writer);
	if (check(link != NULL, "attach raw_tp.w/bpf_test_finish")) {
		err = run_filter(filter, &retval);
		check_i64(err, -ENOTTY, "the error the program wrote into the tracepoint's buffer");
		bsdk_link_destroy(link);
	}
	check_i64(run_filter(filter, &retval), 0, "after the link is gone, success again");
	test_progs_attach(writer, filter);
	bsdk_obj_close(obj);
	return check_done();
}
