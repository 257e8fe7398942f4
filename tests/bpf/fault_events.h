/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * fault_events.h - the record every fault_*.bpf.c object sends to
 * tests/drivers/fault_flow.c: the sender's pid and a sequence number from
 * 1, so that the driver can tell 100 records from 100 copies of one.
 */
#ifndef FAULT_EVENTS_H
#define FAULT_EVENTS_H

struct fault_event {
	__u32 pid;
	__u32 seq;
	__u64 value;	/* per object: the kernel version, a global, ... */
};

#endif
