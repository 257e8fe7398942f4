// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * btf_load.c - an object's .BTF into the kernel (BPF_BTF_LOAD), made fit
 * for the running kernel first: the kinds it lacks are found by probing,
 * once per process, and rewritten by btf_sanitize() (btf.c).
 */
#include <unistd.h>

#include "base/base.h"
#include "format/btf.h"

/* ---- .BTF into the kernel. Kinds newer than the running kernel make it
 * refuse the whole blob, so each is probed once with a tiny BTF of its
 * own, and records of missing kinds are rewritten into old kinds that
 * keep every type ID: the kernel needs the IDs, not the exact types. */

#define INT_S32 BTF_INFO_ENC(BTF_KIND_INT, 0, 0), 4, (BTF_INT_SIGNED << 24 | 32)

/* One tiny BTF per feature: n words of type records; names 1 is "x" and 3
 * is ".d" in probe_strs. */
static const char probe_strs[] = "\0x\0.d";
static const struct {
	uint32_t n;
	uint32_t t[14];
} probes[FEAT_COUNT] = {
	[FEAT_GLOBAL_FUNC] = { 6, { 0, BTF_INFO_ENC(BTF_KIND_FUNC_PROTO, 0, 0), 0,
				    1, BTF_INFO_ENC(BTF_KIND_FUNC, BTF_FUNC_GLOBAL, 0), 1 } },
	[FEAT_DATASEC] = { 14, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_VAR, 0, 0), 1, 1,
				 3, BTF_INFO_ENC(BTF_KIND_DATASEC, 1, 0), 4, 2, 0, 4 } },
	[FEAT_FLOAT] = { 3, { 1, BTF_INFO_ENC(BTF_KIND_FLOAT, 0, 0), 4 } },
	[FEAT_DECL_TAG] = { 12, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_VAR, 0, 0), 1, 0,
				  1, BTF_INFO_ENC(BTF_KIND_DECL_TAG, 0, 0), 2, (uint32_t)-1 } },
	[FEAT_TYPE_TAG] = { 10, { 1, INT_S32, 1, BTF_INFO_ENC(BTF_KIND_TYPE_TAG, 0, 0),
				  1, 0, BTF_INFO_ENC(BTF_KIND_PTR, 0, 0), 2 } },
	[FEAT_ENUM64] = { 6, { 1, BTF_INFO_ENC(BTF_KIND_ENUM64, 1, 0), 8, 1, 1, 0 } },
};

/* BPF_BTF_LOAD raw; with a log buffer when log is not NULL. fd or -errno. */
static int btf_load_raw(const void *raw, size_t size, char *log, size_t log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (uint64_t)(uintptr_t)raw;
	attr.btf_size = (uint32_t)size;
	if (log) {
		log[0] = '\0';
		attr.btf_log_buf = (uint64_t)(uintptr_t)log;
		attr.btf_log_size = (uint32_t)log_size;
		attr.btf_log_level = 1;
	}
	return sys_bpf(BPF_BTF_LOAD, &attr, sizeof(attr));
}

static bool feature_probe(enum btf_feature f)
{
	struct btf_header h = {
		.magic = BTF_MAGIC, .version = BTF_VERSION,
		.hdr_len = sizeof(h), .type_len = probes[f].n * 4,
		.str_off = probes[f].n * 4, .str_len = sizeof(probe_strs),
	};
	char blob[sizeof(h) + sizeof(probes[f].t) + sizeof(probe_strs)];
	int fd;

	memcpy(blob, &h, sizeof(h));
	memcpy(blob + sizeof(h), probes[f].t, h.type_len);
	memcpy(blob + sizeof(h) + h.type_len, probe_strs, sizeof(probe_strs));
	fd = btf_load_raw(blob, sizeof(h) + h.type_len + h.str_len, NULL, 0);
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

int btf_load_kernel(const struct btf *btf, const char *obj)
{
	static int cached = -1;	/* the kernel does not change under us */
	int missing = __atomic_load_n(&cached, __ATOMIC_ACQUIRE);
	char log[4096];
	size_t size;
	void *raw;
	int fd;

	if (missing < 0) {
		/* whole before it is shared: another thread may load meanwhile */
		missing = 0;
		for (int f = 0; f < FEAT_COUNT; f++)
			if (!feature_probe(f))
				missing |= 1 << f;
		log_debug("BTF kinds this kernel lacks: mask %#x", missing);
		__atomic_store_n(&cached, missing, __ATOMIC_RELEASE);
	}
	raw = btf_sanitize(btf, (unsigned int)missing, &size);
	fd = raw ? btf_load_raw(raw, size, NULL, 0) : -ENOMEM;
	if (fd < 0 && raw) {
		int with_log = btf_load_raw(raw, size, log, sizeof(log));
		char *save = NULL;

		if (with_log >= 0)
			close(with_log);
		for (char *line = strtok_r(log, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save))
			log_debug("  BTF: %s", line);
	}
	if (fd < 0)
		log_warn("'%s': the kernel refused the object's BTF (%s%s); loading without it, so verifier messages show no source lines",
			 obj, bsdk_strerror(fd), fd == -EPERM ? ": it takes CAP_BPF" : "");
	free(raw);
	return fd < 0 ? -1 : fd;
}

