// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
/*
 * prog.c - find the programs of an object and load them.
 *
 * A program is a global function in an executable section other than .text;
 * the section name says what kind of program it is and where it attaches.
 * One table maps a section name prefix to the program type and to the
 * function that attaches it: to support a new hook, add a row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static const struct attach_kind attach_kinds[] = {
	{ "tracepoint/",     BPF_PROG_TYPE_TRACEPOINT,     "tracepoint",     attach_tracepoint,     false, true,  0 },
	{ "tp/",             BPF_PROG_TYPE_TRACEPOINT,     "tracepoint",     attach_tracepoint,     false, true,  0 },
	{ "raw_tracepoint/", BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_tracepoint", attach_raw_tracepoint, false, true,  0 },
	{ "raw_tp/",         BPF_PROG_TYPE_RAW_TRACEPOINT, "raw_tracepoint", attach_raw_tracepoint, false, true,  0 },
	{ "kprobe/",         BPF_PROG_TYPE_KPROBE,         "kprobe",         attach_kprobe,         false, true,  0 },
	{ "kretprobe/",      BPF_PROG_TYPE_KPROBE,         "kprobe",         attach_kprobe,         false, true,  1 },
	{ "uprobe/",         BPF_PROG_TYPE_KPROBE,         "uprobe",         attach_uprobe,         false, true,  0 },
	{ "uretprobe/",      BPF_PROG_TYPE_KPROBE,         "uprobe",         attach_uprobe,         false, true,  1 },
	{ "perf_event",      BPF_PROG_TYPE_PERF_EVENT,     "perf_event",     NULL,                  true,  false, 0 },
};

const struct attach_kind *attach_kind_find(const char *section)
{
	for (size_t i = 0; i < ARRAY_SIZE(attach_kinds); i++) {
		const struct attach_kind *k = &attach_kinds[i];
		size_t len = strlen(k->prefix);

		if (k->exact ? strcmp(section, k->prefix) == 0 :
			       strncmp(section, k->prefix, len) == 0)
			return k;
	}
	return NULL;
}

const char *attach_kind_prefixes(void)
{
	return "tracepoint/CAT/NAME, tp/, raw_tracepoint/NAME, raw_tp/, "
	       "kprobe/FUNC, kretprobe/FUNC, uprobe/PATH:SYMBOL[+OFF], "
	       "uretprobe/, perf_event";
}

static int prog_add(struct bsdk_obj *obj, size_t sec, size_t first,
		    size_t count, const char *name)
{
	const char *section = obj->secs[sec].name;
	const struct attach_kind *kind = attach_kind_find(section);
	struct bsdk_prog *progs, *prog;

	if (!kind) {
		log_error("'%s': section '%s' (program '%s'): unknown section name; accepted prefixes: %s",
			  obj->name, section, name, attach_kind_prefixes());
		return fail(BSDK_ESECTION);
	}
	if (kind->needs_target && section[strlen(kind->prefix)] == '\0') {
		log_error("'%s': section '%s': says what kind of probe but not where to attach it",
			  obj->name, section);
		return fail(BSDK_ESECTION);
	}
	progs = realloc(obj->progs, (obj->nprogs + 1) * sizeof(*progs));
	if (!progs)
		return fail(ENOMEM);
	obj->progs = progs;
	prog = &progs[obj->nprogs++];
	memset(prog, 0, sizeof(*prog));
	prog->obj = obj;
	prog->fn.sec = sec;
	prog->fn.first = first;
	prog->fn.count = count;
	prog->fn.name = name;
	prog->section = section;
	prog->kind = kind;
	prog->target = kind->exact ? "" : section + strlen(kind->prefix);
	prog->autoload = true;
	prog->fd = -1;
	return 0;
}

/* A function symbol's instructions: checked to lie inside its section. */
static int func_range(const struct bsdk_obj *obj, const GElf_Sym *sym,
		      size_t *first, size_t *count)
{
	const struct elf_sec *s = &obj->secs[sym->st_shndx];

	if (sym->st_value % sizeof(struct bpf_insn) ||
	    sym->st_size % sizeof(struct bpf_insn) || sym->st_size == 0 ||
	    range_outside(sym->st_value, sym->st_size, s->size)) {
		log_error("'%s': function '%s' in '%s': offset %llu, size %llu do not describe whole instructions inside the section",
			  obj->name, elf_sym_name(obj, sym), s->name,
			  (unsigned long long)sym->st_value,
			  (unsigned long long)sym->st_size);
		return fail(BSDK_EFORMAT);
	}
	*first = sym->st_value / sizeof(struct bpf_insn);
	*count = sym->st_size / sizeof(struct bpf_insn);
	return 0;
}

static int subprog_cmp(const void *a, const void *b)
{
	const struct func *fa = a, *fb = b;

	return (fa->first > fb->first) - (fa->first < fb->first);
}

int progs_collect(struct bsdk_obj *obj)
{
	int err;

	elf_sec_by_name(obj, ".text", &obj->text_sec);
	for (size_t sec = 1; sec < obj->nsecs; sec++) {
		size_t nfuncs = 0;

		if (!elf_sec_is_prog(obj, sec))
			continue;
		if (obj->secs[sec].size % sizeof(struct bpf_insn)) {
			log_error("'%s': section '%s': size %zu is not a multiple of the 8-byte instruction size",
				  obj->name, obj->secs[sec].name, obj->secs[sec].size);
			return fail(BSDK_EFORMAT);
		}
		for (size_t i = 0; i < obj->nsyms; i++) {
			const GElf_Sym *sym = &obj->syms[i];
			size_t first, count;

			if (sym->st_shndx != sec ||
			    GELF_ST_TYPE(sym->st_info) != STT_FUNC)
				continue;
			err = func_range(obj, sym, &first, &count);
			if (err)
				return err;
			nfuncs++;
			if (sec == obj->text_sec) {
				struct func *subs = realloc(obj->subprogs,
					(obj->nsubprogs + 1) * sizeof(*subs));

				if (!subs)
					return fail(ENOMEM);
				obj->subprogs = subs;
				subs[obj->nsubprogs++] = (struct func){
					sec, first, count, elf_sym_name(obj, sym) };
			} else if (GELF_ST_BIND(sym->st_info) == STB_GLOBAL) {
				err = prog_add(obj, sec, first, count,
					       elf_sym_name(obj, sym));
				if (err)
					return err;
			}
		}
		/* Hand-written assembly may have no symbol: the whole section
		 * is one program named after it. */
		if (nfuncs == 0 && sec != obj->text_sec) {
			err = prog_add(obj, sec, 0, obj->secs[sec].size /
				       sizeof(struct bpf_insn), obj->secs[sec].name);
			if (err)
				return err;
		}
	}
	qsort(obj->subprogs, obj->nsubprogs, sizeof(*obj->subprogs), subprog_cmp);
	for (size_t i = 1; i < obj->nsubprogs; i++) {
		if (obj->subprogs[i].first < obj->subprogs[i - 1].first +
					     obj->subprogs[i - 1].count) {
			log_error("'%s': functions '%s' and '%s' overlap in .text",
				  obj->name, obj->subprogs[i - 1].name,
				  obj->subprogs[i].name);
			return fail(BSDK_EFORMAT);
		}
	}
	return 0;
}

/* Send the verifier's log: its last lines at error level, since the
 * reason for a rejection is at the end; all of it at debug level (-v -v). */
static void log_verifier(const struct bsdk_prog *prog, char *log)
{
	enum { TAIL_LINES = 20 };
	size_t nlines = 0, skip;
	char *line, *save = NULL;

	for (const char *p = log; *p; p++)
		nlines += *p == '\n';
	skip = nlines > TAIL_LINES ? nlines - TAIL_LINES : 0;
	log_error("program '%s' (section '%s'): rejected by the verifier; %s:",
		  prog->fn.name, prog->section,
		  skip ? "the end of its log" : "its log");
	for (line = strtok_r(log, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (skip) {
			skip--;
			log_debug("  %s", line);
		} else {
			log_error("  %s", line);
		}
	}
}

/* Load once without a log (cheap); on failure load again with a log
 * buffer that grows until the whole log fits, to show why. */
int prog_load(struct bsdk_prog *prog)
{
	struct bsdk_obj *obj = prog->obj;
	size_t log_size = 64 * 1024;
	struct bpf_insn *insns;
	union bpf_attr attr;
	size_t count;
	char *log = NULL;
	int fd, err;

	err = relos_link_prog(prog, &insns, &count);
	if (err) {
		if (err == -E2BIG)
			log_error("program '%s': more than %d instructions with its subprograms",
				  prog->fn.name, BPF_COMPLEXITY_LIMIT_INSNS);
		return err;
	}

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = prog->kind->prog_type;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = (uint32_t)count;
	attr.license = (uint64_t)(uintptr_t)obj->license;
	attr.kern_version = obj->kversion;
	/* kernel names are 15 characters; the full name stays ours */
	snprintf(attr.prog_name, sizeof(attr.prog_name), "%.15s", prog->fn.name);
	for (char *c = attr.prog_name; *c; c++)
		if (!(*c == '_' || (*c >= '0' && *c <= '9') ||
		      (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
			*c = '_';

	fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
	while (fd < 0 && log_size <= 256u * 1024 * 1024) {
		char *grown = realloc(log, log_size);

		if (!grown) {
			fd = -ENOMEM;
			break;
		}
		log = grown;
		log[0] = '\0';
		attr.log_level = 1;
		attr.log_buf = (uint64_t)(uintptr_t)log;
		attr.log_size = (uint32_t)log_size;
		fd = sys_bpf(BPF_PROG_LOAD, &attr, sizeof(attr));
		if (fd != -ENOSPC)
			break;
		log_size *= 4;	/* the log did not fit: try a bigger one */
	}
	free(insns);

	if (fd < 0) {
		if (log && log[0]) {
			log_verifier(prog, log);
			fd = fd == -EACCES || fd == -EINVAL ? -BSDK_EVERIFIER : fd;
		} else {
			log_error("program '%s' (section '%s'): the kernel refused to load it: %s",
				  prog->fn.name, prog->section, bsdk_strerror(fd));
		}
		free(log);
		errno = -fd;
		return fd;
	}
	free(log);
	prog->fd = fd;
	log_info("program '%s': loaded (%s, %zu instructions), fd %d",
		 prog->fn.name, prog->kind->type_name, count, fd);
	return 0;
}
