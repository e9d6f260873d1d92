/* opts.h - the option scanner and help table of every slabsim command.
 * One table per command drives both the parser and the option list of
 * its --help, so the two cannot drift apart. */
#ifndef SS_OPTS_H
#define SS_OPTS_H

#include <stdint.h>
#include <stdio.h>

struct ss_opt {
	const char *name;  /* long name without "--"; NULL: the positional arguments */
	const char *alias; /* short form such as "-o", or NULL */
	const char *arg;   /* value's name in help, NULL: a flag without value */
	const char *help;  /* lines separated by '\n'; NULL: not listed in help */
	/* prints lines known only at run time (a registry) after help's */
	void (*more_help)(FILE *out, int col);
};

struct ss_opt_set {
	const char *cmd; /* "run", "gen audit": messages start "slabsim run: " */
	const struct ss_opt *opts;
	int nr;
	void (*usage)(FILE *out); /* the whole --help text */
};

/* A number macro as a string, for help text quoting a default. */
#define SS_OPT_STR_(x) #x
#define SS_OPT_STR(x) SS_OPT_STR_(x)

/* What take() and ss_opt_scan() return besides 0 and -1 (reported). */
enum {
	SS_OPT_HELP = 1,    /* scan: --help was given, usage() printed it */
	SS_OPT_BAD_VALUE = 2, /* take: report "bad value 'X' for --name" */
};

/* Stores one value of option id (value NULL for a flag); called once per
 * occurrence, in command-line order.  Returns 0, SS_OPT_BAD_VALUE, or -1
 * after reporting the error itself; either error stops the scan. */
typedef int (*ss_opt_take_fn)(void *ctx, int id, const char *value);

/* A take function for commands that keep plain strings: ctx is a
 * `const char *val[nr]`; val[id] is the last value, "" for a flag. */
int ss_opt_keep(void *ctx, int id, const char *value);

/* Prints "slabsim CMD: <message>" and the hint "(try 'slabsim CMD --help')"
 * to stderr.  Returns -1 so callers can `return ss_opt_usage_err(...)`. */
int ss_opt_usage_err(const struct ss_opt_set *set, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same for "bad value 'VALUE' for --NAME". */
int ss_opt_bad_value(const struct ss_opt_set *set, int id, const char *value);

/* value as an integer min..max into *out; a NULL value (option not
 * given) leaves *out alone.  Returns 0, or -1 after "bad value 'X' for
 * --NAME (want an integer MIN..MAX)". */
int ss_opt_u64(const struct ss_opt_set *set, int id, const char *value,
	       uint64_t min, uint64_t max, uint64_t *out);
int ss_opt_uint(const struct ss_opt_set *set, int id, const char *value,
		unsigned min, unsigned max, unsigned *out);

/* Scans argv[1..argc-1]: "--name value", "--name=value", "ALIAS value",
 * flags, and positional arguments (anywhere, and every argument after
 * "--"; "-" is one).  Stops at --help: prints set->usage to stdout and
 * returns SS_OPT_HELP.  Returns 0, or -1 after a usage error on stderr.
 * Exit codes: SS_OPT_HELP -> 0, -1 -> 2 (ss_opt_exit). */
int ss_opt_scan(const struct ss_opt_set *set, int argc, char **argv,
		ss_opt_take_fn take, void *ctx);

/* The exit code of a scan that did not return 0: 0 after --help, else 2. */
static inline int ss_opt_exit(int rc)
{
	return rc == SS_OPT_HELP ? 0 : 2;
}

/* ---- option files: a command's options a line at a time ----
 * Each line of the file is split as ss_split_words() does (quotes, '#'
 * comments) and handed to line() as argv[1 ..] (argv[0] is set->cmd),
 * with its number; lines without words are skipped.  The words stay valid
 * until ss_opt_lines_release(), so the options scanned may point into
 * them.  Returns 0, or -1 after a usage error naming FILE:LINE (or what
 * line() returned: -1 once it reported its error). */
struct ss_opt_lines {
	char **lines;
	unsigned n;
};
typedef int (*ss_opt_line_fn)(void *ctx, int argc, char **argv, unsigned long lineno);
int ss_opt_read_lines(const struct ss_opt_set *set, const char *path, struct ss_opt_lines *keep,
		      ss_opt_line_fn line, void *ctx);
void ss_opt_lines_release(struct ss_opt_lines *keep);

/* One entry per listed option, "  -o, --output TRACE  help", the help in
 * one column (past it a long name puts its help on the next line). */
void ss_opt_help(FILE *out, const struct ss_opt_set *set);

#endif
