// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * prog_test_run.c - BPF_PROG_TEST_RUN: run a loaded program on input user space
 * made up, and read back what it returned and wrote. This is how BPF code
 * gets unit tests: a packet for a socket filter, a context for a raw
 * tracepoint, no real event needed.
 */
#include "object/object.h"

/* The first version of the options: everything up to duration. */
#define TEST_RUN_OPTS_MIN (offsetof(struct bsdk_test_run_opts, duration) + sizeof(uint32_t))

/* The kernel's ENOTSUPP (include/linux/errno.h): no test_run for this type. */
#define KERNEL_ENOTSUPP 524

int bsdk_prog_test_run(const struct bsdk_prog *prog, struct bsdk_test_run_opts *opts)
{
	struct bsdk_test_run_opts o;
	union bpf_attr attr;
	int err;

	if (!opts)
		return log_fail(EINVAL, "program '%s': test run without options", prog->fn.name);
	err = opts_copy(&o, sizeof(o), opts, opts->sz, TEST_RUN_OPTS_MIN, "test run");
	if (err)
		return err;
	if (prog->fd < 0)
		return log_fail(EBADF, "program '%s': not loaded, cannot test-run it", prog->fn.name);

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = (uint32_t)prog->fd;
	attr.test.data_in = (uint64_t)(uintptr_t)o.data_in;
	attr.test.data_size_in = o.data_in ? o.data_size_in : 0;
	attr.test.data_out = (uint64_t)(uintptr_t)o.data_out;
	attr.test.data_size_out = o.data_out ? o.data_size_out : 0;
	attr.test.ctx_in = (uint64_t)(uintptr_t)o.ctx_in;
	attr.test.ctx_size_in = o.ctx_in ? o.ctx_size_in : 0;
	attr.test.ctx_out = (uint64_t)(uintptr_t)o.ctx_out;
	attr.test.ctx_size_out = o.ctx_out ? o.ctx_size_out : 0;
	attr.test.repeat = o.repeat;
	attr.test.flags = o.flags;
	attr.test.cpu = o.cpu;
	err = sys_bpf(BPF_PROG_TEST_RUN, &attr, sizeof(attr));

	/* The kernel reports the output sizes also with ENOSPC: say how much was needed. */
	o.data_size_out = attr.test.data_size_out;
	o.ctx_size_out = attr.test.ctx_size_out;
	o.retval = attr.test.retval;
	o.duration = attr.test.duration;
	memcpy(opts, &o, opts->sz < sizeof(o) ? opts->sz : sizeof(o));

	if (err == -KERNEL_ENOTSUPP || err == -EOPNOTSUPP)
		return log_fail(EOPNOTSUPP, "program '%s': the kernel cannot test-run %s programs",
				prog->fn.name, prog->kind->type_name);
	if (err == -ENOSPC)
		return log_fail(ENOSPC, "program '%s': the test run's output (%u bytes of data, %u of context) does not fit the buffers given",
				prog->fn.name, attr.test.data_size_out, attr.test.ctx_size_out);
	if (err)
		return log_fail(-err, "program '%s': the kernel refused to test-run it (%s program, %u bytes of data, %u of context, repeat %u): %s",
				prog->fn.name, prog->kind->type_name, attr.test.data_size_in,
				attr.test.ctx_size_in, o.repeat, bsdk_strerror(err));
	log_debug("program '%s': test run returned %u, %u ns per run", prog->fn.name,
		  o.retval, o.duration);
	return 0;
}
