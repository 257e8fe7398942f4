/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * The SDK headers live in include/bpf/, as libbpf's do, so that one
 * spelling builds from a clone (-Iinclude) and from an install. This file
 * only turns the old spelling into a message that says what to change.
 */
#error "bpfsdk: write #include <bpf/bpf_helpers.h> instead of \"bpf_helpers.h\" (the SDK headers moved to include/bpf/; keep -Iinclude)"
