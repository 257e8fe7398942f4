/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * exit-port - end the test VM with a status qemu passes on.
 *
 * qemu's isa-debug-exit device (-device isa-debug-exit,iobase=0xf4,iosize=4)
 * stops the emulator when the guest writes a byte to its port; qemu then
 * exits with (byte << 1) | 1. tests/vm/run decodes that back. The guest
 * needs ioperm(), which the kernel provides with CONFIG_X86_IOPL_IOPERM.
 *
 * Usage: exit-port STATUS   (0..127). Only returns, with exit 1, when the
 * port cannot be reached; the caller then falls back to the console marker.
 *
 * Built statically by tests/vm/run: the VM has no libc of its own for it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/io.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	char *end;
	long status;

	if (argc != 2) {
		fprintf(stderr, "usage: exit-port STATUS\n");
		return 2;
	}
	errno = 0;
	status = strtol(argv[1], &end, 10);
	if (errno || *end || end == argv[1] || status < 0 || status > 127) {
		fprintf(stderr, "error: status '%s' is not a number from 0 to 127\n", argv[1]);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) != 0) {
		fprintf(stderr, "error: cannot reach port 0x%x: %s\n",
			DEBUG_EXIT_PORT, strerror(errno));
		return 1;
	}
	outb((unsigned char)status, DEBUG_EXIT_PORT);
	/* Without the device the write goes nowhere and we get here. */
	fprintf(stderr, "error: port 0x%x did not stop the machine (no isa-debug-exit device?)\n",
		DEBUG_EXIT_PORT);
	return 1;
}
