// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * test_prog_test_run.c - bsdk_prog_test_run() on tests/bpf/test_run.bpf.c:
 * a socket filter run on a made-up packet (return value, data out, context
 * in and out, repeat counted by the program itself), a raw tracepoint run
 * on made-up arguments, and the errors: a type the kernel cannot run, input
 * a type refuses, an output buffer too small, a program not loaded.
 *
 * Skipped where bpf() is not permitted.
 */
#include <linux/bpf.h>

#include "test_obj_craft.h"

static struct bsdk_prog *prog(struct bsdk_obj *obj, const char *name)
{
	struct bsdk_prog *p = bsdk_obj_prog_find(obj, name);

	if (!p) {
		printf("not ok - the test object has no program '%s'\n", name);
		exit(1);
	}
	return p;
}

int main(void)
{
	unsigned char pkt[64], out[64], small[16];
	struct __sk_buff ctx_in, ctx_out;
	struct bsdk_test_run_opts o;
	struct bsdk_obj *obj;
	volatile uint64_t *runs;
	uint64_t args[2] = { 4, 2 };
	int err;

	obj = craft_open_for_kernel("test_run");
	if (!obj)
		return check_done();

	cap_start();
	o = (struct bsdk_test_run_opts){ .sz = sizeof(o) };
	err = bsdk_prog_test_run(prog(obj, "filter"), &o);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EBADF, "before load: -EBADF");
	check(strstr(cap.first, "not loaded") != NULL, "saying so: %s", cap.first);

	if (!check_i64(bsdk_obj_load(obj), 0, "load test_run")) {
		bsdk_obj_close(obj);
		return check_done();
	}
	runs = bsdk_obj_global_ptr(obj, "runs", NULL);

	/* an IPv4-looking packet: Ethernet header, then 50 bytes starting 0x45 */
	for (size_t i = 0; i < sizeof(pkt); i++)
		pkt[i] = (unsigned char)(i * 7);
	pkt[12] = 0x08;
	pkt[13] = 0x00;
	pkt[14] = 0x45;
	memset(&ctx_in, 0, sizeof(ctx_in));
	ctx_in.cb[1] = 21;
	memset(&ctx_out, 0, sizeof(ctx_out));
	memset(out, 0, sizeof(out));
	o = (struct bsdk_test_run_opts){
		.sz = sizeof(o),
		.data_in = pkt, .data_size_in = sizeof(pkt),
		.data_out = out, .data_size_out = sizeof(out),
		.ctx_in = &ctx_in, .ctx_size_in = sizeof(ctx_in),
		.ctx_out = &ctx_out, .ctx_size_out = sizeof(ctx_out),
		.repeat = 10,
	};
	err = bsdk_prog_test_run(prog(obj, "filter"), &o);
	check_i64(err, 0, "socket filter: test run");
	check_u64(o.retval, 50 * 256 + 0x45, "socket filter: returned len 50 * 256 + first byte 0x45");
	check_u64(o.data_size_out, sizeof(pkt), "socket filter: the whole packet comes back");
	/* a socket filter sees the packet from the network header on; the kernel gives the
	 * Ethernet header back zeroed */
	check_mem(out + 14, pkt + 14, sizeof(pkt) - 14, "socket filter: the payload unchanged");
	check_mem(out, (unsigned char[14]){ 0 }, 14, "socket filter: the Ethernet header zeroed");
	check_u64(o.ctx_size_out, sizeof(ctx_out), "socket filter: a __sk_buff comes back");
	check_u64(ctx_out.cb[0], 21 * 2 + 0x45, "socket filter: cb[0] = cb[1] * 2 + 0x45, written by the program");
	check_u64(ctx_out.cb[1], 21, "socket filter: cb[1] as given");
	check(runs != NULL, "the program's run counter");
	if (runs)
		check_u64(*runs, 10, "socket filter: repeat 10 ran it 10 times");
	check(o.duration < 1000000000u, "socket filter: a duration is reported (%u ns)", o.duration);

	cap_start();
	o.data_out = small;
	o.data_size_out = sizeof(small);
	o.repeat = 1;
	err = bsdk_prog_test_run(prog(obj, "filter"), &o);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -ENOSPC, "socket filter: a 16-byte data_out is -ENOSPC");
	check_u64(o.data_size_out, sizeof(pkt), "socket filter: data_size_out says 64 were needed");
	check(strstr(cap.first, "does not fit") != NULL, "saying so: %s", cap.first);

	o = (struct bsdk_test_run_opts){ .sz = sizeof(o), .ctx_in = args, .ctx_size_in = sizeof(args) };
	err = bsdk_prog_test_run(prog(obj, "raw"), &o);
	check_i64(err, 0, "raw_tp: test run");
	check_u64(o.retval, 42, "raw_tp: returned args[0] * 10 + args[1] = 42");

	cap_start();
	o.repeat = 5;
	err = bsdk_prog_test_run(prog(obj, "raw"), &o);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EINVAL, "raw_tp: repeat is refused by the kernel (-EINVAL)");
	check(strstr(cap.first, "program 'raw'") && strstr(cap.first, "repeat 5"),
	      "with a message naming the program and the repeat: %s", cap.first);

	cap_start();
	o = (struct bsdk_test_run_opts){ .sz = sizeof(o) };
	err = bsdk_prog_test_run(prog(obj, "tracepoint"), &o);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EOPNOTSUPP, "tracepoint: -EOPNOTSUPP");
	check(strstr(cap.first, "cannot test-run tracepoint programs") != NULL, "saying so: %s", cap.first);

	cap_start();
	o = (struct bsdk_test_run_opts){ .sz = 8 };
	err = bsdk_prog_test_run(prog(obj, "raw"), &o);
	bsdk_set_log(NULL, NULL);
	check_i64(err, -EINVAL, "opts.sz too small: -EINVAL");
	bsdk_obj_close(obj);
	return check_done();
}
