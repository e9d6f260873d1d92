/* gen_opts.h - the option scanner and help table shared by `slabsim gen W`. */
#ifndef SS_GEN_OPTS_H
#define SS_GEN_OPTS_H

#include <stdio.h>

struct ss_gen_opt {
	const char *name;  /* long name without "--" */
	const char *alias; /* short form such as "-o", or NULL */
	const char *arg;   /* value's name in help, NULL: a flag without value */
	const char *help;  /* continuation lines indented to column 22 */
};

struct ss_gen_opt_set {
	const char *cmd; /* "smack": messages start "slabsim gen smack17k: " */
	const struct ss_gen_opt *opts;
	int nr;
};

/* Stores one option's value; a non-zero return has already reported the
 * error and stops the scan. */
typedef int (*ss_gen_opt_take_fn)(void *ctx, int id, const char *value);

/* Prints "slabsim gen CMD: <message>" and the --help hint to stderr.
 * Returns -1 so callers can `return ss_gen_opt_usage_err(...)`. */
int ss_gen_opt_usage_err(const char *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Scans argv[1..argc-1]: "--name value", "--name=value", "ALIAS value" and
 * flags.  Sets seen[id] = 1 for every option met; stores a value with
 * take(ctx, id, value), or when take is NULL in val[id] (the last one
 * wins).  Returns 0, or -1 after a usage error on stderr. */
int ss_gen_opt_scan(const struct ss_gen_opt_set *set, int argc, char **argv,
		    const char **val, int *seen, ss_gen_opt_take_fn take, void *ctx);

/* One line per option: "  -o, --output TRACE  help". */
void ss_gen_opt_help(FILE *out, const struct ss_gen_opt_set *set);

#endif
