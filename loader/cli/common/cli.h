/* SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause */
/*
 * cli.h - what the bpfsdk commands share: messages, option parsing,
 * number parsing, the table and JSON writers, where bpf_printk() writes,
 * the hooks a map's senders are on, and names of kernel enums. What only
 * `run` uses is in cli/run/run.h.
 */
#ifndef BPFSDK_CLI_H
#define BPFSDK_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, the same for every subcommand. */
enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,	/* the object, the kernel or the system said no */
	EXIT_USAGE = 2,		/* the command line is wrong */
};

/* ---- main.c, messages.c: subcommands and messages */

struct cli_cmd {
	const char *name;
	const char *summary;	/* one line for `bpfsdk --help` */
	/* The manual of `bpfsdk help NAME`: usage, then, when options is set, the OPTIONS
	 * section printed from its rows and usage_end. */
	const char *usage;
	const struct bsdk_opt *options;
	const char *usage_end;
	int (*main)(int argc, char **argv);	/* argv[0] is the name */
};

extern const struct cli_cmd cmd_inspect;
extern const struct cli_cmd cmd_run;
extern const struct cli_cmd cmd_gen;

/* -v given before the command; each command adds its own. */
extern int cli_verbosity;

/* Print "error: MSG" on one line to stderr. */
__attribute__((format(printf, 1, 2)))
void cli_error(const char *fmt, ...);

/* The same, unless the library already reported an error since the last
 * cli_lib_errors_reset(): the library's message says more, and every
 * failure gets exactly one error line. */
__attribute__((format(printf, 1, 2)))
void cli_error_unless_logged(const char *fmt, ...);
void cli_lib_errors_reset(void);

/* "error: MSG (try 'bpfsdk CMD --help')"; returns EXIT_USAGE. */
__attribute__((format(printf, 2, 3)))
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* Route the library's messages through the CLI and choose how much it says:
 * 0 warnings and errors, 1 (-v) what it does, 2 or more (-vv) every step. */
void cli_log_init(int verbosity);

/* While on, the library's errors are shown as warnings and not counted:
 * for calls whose failure the command survives. */
void cli_log_demote_errors(bool on);

/* ---- options.c: a small getopt_long that speaks in git-style errors, on the library's
 * option rows (struct bsdk_opt, bpfsdk.h): a row's name, short_name and type (BSDK_OPT_FLAG:
 * no value; BSDK_OPT_STRING: one) say how it is read, its id (> 0) what cli_opt_next() returns,
 * its arg and help what --help prints. */

struct bsdk_opt;

struct cli_opts {
	const char *cmd;	/* for "try 'bpfsdk CMD --help'" */
	const struct bsdk_opt *options;	/* ends with a row whose name is NULL */
	int argc;
	char **argv;
	int next;		/* next argv index to look at */
	const char *shorts;	/* rest of a "-abc" group, or NULL */
	bool only_args;		/* after "--" */
};

enum {
	OPT_DONE = 0,		/* no more arguments */
	OPT_ARG = -1,		/* a positional argument, in *value */
	OPT_ERROR = -2,		/* a usage error, already printed */
};

/* Start parsing argv[1..argc-1] (argv[0] is the command name). */
void cli_opts_init(struct cli_opts *o, const char *cmd,
		   const struct bsdk_opt *options, int argc, char **argv);

/* The next option's id with its value in *value (NULL when the option
 * takes none), OPT_ARG with a positional argument in *value, OPT_DONE at
 * the end, or OPT_ERROR after printing the error. */
int cli_opt_next(struct cli_opts *o, const char **value);

/* The OPTIONS section of a manual, from the rows: "    -s, --set NAME=VALUE" and the row's
 * help under it, indented by 8; rows without help named on the next one's line. */
void cli_print_options(FILE *f, const struct bsdk_opt *options);
/* Print cmd's manual to stdout: its usage, and the OPTIONS from its rows with usage_end. */
void cli_print_usage(const struct cli_cmd *cmd);

/* Parse an unsigned decimal or 0x-prefixed hexadecimal number, the whole
 * string. false when it is not one or does not fit into 64 bits. */
bool cli_parse_u64(const char *s, uint64_t *value);

/* ---- table.c: text tables with a header line and aligned columns */

struct table;

/* align: one character per column, 'l' or 'r'. NULL on ENOMEM. */
struct table *table_new(const char *const *headers, size_t ncols,
			const char *align);
/* Append a cell to the last row, starting a new row after ncols cells;
 * text_clean() is applied to it. false on ENOMEM. */
__attribute__((format(printf, 2, 3)))
bool table_cell(struct table *t, const char *fmt, ...);
size_t table_rows(const struct table *t);
/* Print with indent spaces in front of each line; cells padded to their
 * column's width with two spaces between columns. -ENOMEM, having printed
 * nothing, when memory ran out here or in a table_cell() before. */
int table_print(const struct table *t, FILE *f, int indent);
void table_free(struct table *t);

/* Names and strings in text output come from the object file: replace
 * control bytes (below 0x20, and 0x7f) with '?', so that a hostile object
 * cannot move the cursor or recolour the terminal. In place: */
void text_clean(char *s);
/* Or: s itself when it is clean, else a cleaned copy in buf (truncated to
 * size - 1 bytes). */
const char *text_printable(const char *s, char *buf, size_t size);

/* ---- json.c: a writer for one pretty-printed JSON document */

#define JSON_MAX_DEPTH 16

struct json {
	FILE *f;
	int depth;
	bool has_items[JSON_MAX_DEPTH];	/* a value was written at this level */
	bool after_key;			/* the next value follows "key": */
};

void json_init(struct json *j, FILE *f);
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);
/* The key of the next value in the current object. */
void json_key(struct json *j, const char *key);
/* s is written as a JSON string: quotes, backslashes and control
 * characters escaped, bytes that are not valid UTF-8 replaced by U+FFFD,
 * so that the document stays valid whatever an object file holds. NULL is
 * written as null. */
void json_string(struct json *j, const char *s);
void json_uint(struct json *j, uint64_t v);
void json_bool(struct json *j, bool v);
/* A key and its value, in one call. */
void json_kv_string(struct json *j, const char *key, const char *s);
void json_kv_uint(struct json *j, const char *key, uint64_t v);
void json_kv_bool(struct json *j, const char *key, bool v);
/* End the document with a newline. */
void json_finish(struct json *j);
/* s as a JSON string, quotes included, in a malloc'ed copy; NULL on ENOMEM. */
char *json_quote(const char *s);

/* ---- trace_pipe.c: where bpf_printk() writes */

struct bsdk_prog;

/* Whether prog calls bpf_trace_printk() or bpf_trace_vprintk() (bpf_printk()). */
bool cli_prog_prints(const struct bsdk_prog *prog);
/* The kernel's trace pipe, where their lines go: tracefs's, or debugfs's on older systems. */
const char *cli_trace_pipe_path(void);

/* ---- modes.c: programs on different kinds of hook that send one map's records */

struct bsdk_map;
/* How many places (a system call, a tracepoint category, a kind of hook) the programs that
 * send map's records are on - those attached, with attached_only - and in buf, when two or
 * more, the programs by place: "kill_exit, tkill_exit (syscalls); sig_trace (signal)".
 * A negative errno when the programs cannot be read. */
int record_modes(const struct bsdk_map *map, bool attached_only, char *buf, size_t size);

/* ---- bpf_names.c: names of the kernel's enums, as bpftool prints them */

/* "perf_event_array" for BPF_MAP_TYPE_PERF_EVENT_ARRAY; NULL if unknown. */
const char *bpf_map_type_str(int type);
/* "bpf_perf_event_output" for 25 (enum bpf_func_id), as far as the UAPI
 * header this is built against knows; NULL otherwise. */
const char *bpf_helper_str(int id);

#endif /* BPFSDK_CLI_H */
