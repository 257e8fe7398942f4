// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * skel_bootstrap - a main() written the way libbpf-bootstrap's are, on the
 * skeleton the build generates from tests/bpf/skel_bootstrap.bpf.o, for
 * tests/bats/cli_gen.bats: open -> set .rodata -> load -> ring buffer ->
 * attach with `if (err)` -> poll -> detach -> final drain -> destroy.
 *
 *   skel_bootstrap          trace its own getpgid() calls
 *   skel_bootstrap --none   load only the program that cannot attach:
 *                           attach must fail
 *
 * It calls getpgid(101) and polls until that record comes, then
 * getpgid(102) and getpgid(103) without polling, detaches, calls
 * getpgid(200), and drains: the drain must bring 102 and 103 (the maps
 * outlive the detach) and never 200 (nothing is attached any more). Each
 * record is printed as "PHASE ARG".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>

/* The record, as the BPF side has it; before the skeleton, which checks its layout. */
struct bootstrap_event {
	__u32 tgid;
	__u32 arg;
};

#include "tests/skel_bootstrap.skel.h"

static const char *phase = "poll";

static void on_event(void *ctx, int cpu, const void *data, uint32_t size)
{
	const struct bootstrap_event *e = data;
	int *count = ctx;

	if (size < sizeof(*e))
		return;
	printf("%s %u\n", phase, e->arg);
	(*count)++;
}

int main(int argc, char **argv)
{
	struct skel_bootstrap_bpf *skel;
	struct bsdk_ringbuf *rb = NULL;
	int err, count = 0;

	skel = skel_bootstrap_bpf__open();
	if (!skel) {
		fprintf(stderr, "failed to open the BPF skeleton\n");
		return 1;
	}
	skel->rodata->target_tgid = (__u32)getpid();
	if (argc > 1 && strcmp(argv[1], "--none") == 0)
		bsdk_prog_set_autoload(skel->progs.on_getpgid, false);

	err = skel_bootstrap_bpf__load(skel);
	if (err) {
		fprintf(stderr, "failed to load the BPF skeleton: %d\n", err);
		goto cleanup;
	}
	rb = bsdk_ringbuf_new(bsdk_map_fd(skel->maps.events), &(struct bsdk_ringbuf_opts){
		.sz = sizeof(struct bsdk_ringbuf_opts), .on_sample = on_event, .ctx = &count });
	if (!rb) {
		err = -errno;
		fprintf(stderr, "failed to create the ring buffer: %d\n", err);
		goto cleanup;
	}

	err = skel_bootstrap_bpf__attach(skel);
	if (err) {
		fprintf(stderr, "failed to attach the BPF skeleton: %d (%s)\n", err, bsdk_strerror(err));
		goto cleanup;
	}
	printf("attached %d\n", bsdk_obj_attached_count(skel->obj));

	syscall(SYS_getpgid, 101);
	for (int i = 0; i < 50 && count == 0; i++) {
		err = bsdk_ringbuf_poll(rb, 100);
		if (err < 0) {
			fprintf(stderr, "error polling the ring buffer: %d\n", err);
			goto cleanup;
		}
	}
	syscall(SYS_getpgid, 102);
	syscall(SYS_getpgid, 103);

	skel_bootstrap_bpf__detach(skel);
	printf("attached after detach %d\n", bsdk_obj_attached_count(skel->obj));
	syscall(SYS_getpgid, 200);
	phase = "drain";
	err = bsdk_ringbuf_drain(rb, stdout);
	if (err)
		fprintf(stderr, "error draining the ring buffer: %d\n", err);
	printf("records %d\n", count);

cleanup:
	bsdk_ringbuf_free(rb);
	skel_bootstrap_bpf__destroy(skel);
	return err ? 1 : 0;
}
