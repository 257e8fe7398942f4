// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * ksyscall.c - a kprobe on a system call named as such (ksyscall/NAME,
 * kretsyscall/NAME): the symbol that enters it differs by architecture
 * and by whether the kernel has syscall wrappers, so it is found here and
 * then probed as any kprobe (attach/attach.c).
 */
#include <stdio.h>
#include <unistd.h>

#include "hooks/hooks.h"

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

	if (prog->kind->method == &attach_by_ksyscall) {
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
