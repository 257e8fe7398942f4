#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
"""perf_ring_seeds.py DIR [OBJ...] - seeds for fuzz_perf_ring: well-formed
rings in the target's input format (tests/fuzz/fuzz_perf_ring.c), with
samples, a lost record and a sample that wraps, for both ring kinds; and
each OBJ's bytes as the contents of a ring, for the odd headers."""
import os
import struct
import sys

PERF_RECORD_LOST, PERF_RECORD_SAMPLE = 2, 9


def header(size_code, tail, ahead):
    return bytes([size_code]) + struct.pack("<QQ", tail, ahead)


def perf_sample(payload):
    raw = struct.pack("<I", len(payload)) + payload
    raw += bytes(-(len(raw) + 8) % 8)
    return struct.pack("<IHH", PERF_RECORD_SAMPLE, 0, 8 + len(raw)) + raw


def perf_lost(n):
    return struct.pack("<IHHQQ", PERF_RECORD_LOST, 0, 24, 1, n)


def bpf_record(payload):
    return struct.pack("<II", len(payload), 0) + payload + bytes(-len(payload) % 8)


def ring_at(records, size, tail):
    """records written from tail on, wrapping at size"""
    ring = bytearray(size)
    for i, b in enumerate(records):
        ring[(tail + i) % size] = b
    return bytes(ring)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    seeds = {}
    recs = perf_sample(b"hello") + perf_lost(3) + perf_sample(bytes(range(40)))
    seeds["perf-simple"] = header(0, 0, len(recs)) + ring_at(recs, 256, 0)
    # a sample that starts 16 bytes before the end of a 256-byte ring
    wrap = perf_sample(bytes(range(100)))
    seeds["perf-wrap"] = header(0, 240, len(wrap)) + ring_at(wrap, 256, 240)
    brecs = bpf_record(b"one") + bpf_record(bytes(60))
    seeds["bpf-simple"] = header(0, 0, len(brecs)) + ring_at(brecs, 256, 0)
    seeds["bpf-wrap"] = header(0, 232, len(brecs)) + ring_at(brecs, 256, 232)
    for name, data in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    for obj in sys.argv[2:]:
        with open(obj, "rb") as f:
            data = f.read(4096)
        with open(os.path.join(out, "obj-" + os.path.basename(obj)), "wb") as f:
            f.write(header(1, 0, len(data)) + data)


if __name__ == "__main__":
    main()
