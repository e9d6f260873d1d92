/* gen_opts.c - the option scanner and help table shared by `slabsim gen W`. */
#include "opts.h"

#include <stdarg.h>
#include <string.h>

int ss_gen_opt_usage_err(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "slabsim gen %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(try 'slabsim gen %s --help')\n", cmd);
	return -1;
}

/* a[0..n) is "--name" or an alias; -1 when no option has that name. */
static int find_opt(const struct ss_gen_opt_set *set, const char *a, size_t n)
{
	for (int i = 0; i < set->nr; i++) {
		const struct ss_gen_opt *o = &set->opts[i];

		if (n > 2 && a[0] == '-' && a[1] == '-' && strlen(o->name) == n - 2 &&
		    !strncmp(a + 2, o->name, n - 2))
			return i;
		if (o->alias && strlen(o->alias) == n && !strncmp(a, o->alias, n))
			return i;
	}
	return -1;
}

static int take_value(const char **val, ss_gen_opt_take_fn take, void *ctx,
		      int id, const char *v)
{
	if (take)
		return take(ctx, id, v);
	val[id] = v;
	return 0;
}

int ss_gen_opt_scan(const struct ss_gen_opt_set *set, int argc, char **argv,
		    const char **val, int *seen, ss_gen_opt_take_fn take, void *ctx)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		/* only a long option carries "=value"; "-o=x" is unknown */
		size_t n = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
		int id = a[0] == '-' ? find_opt(set, a, n) : -1;
		const struct ss_gen_opt *o;
		const char *v;

		if (id < 0)
			return a[0] == '-' ?
				ss_gen_opt_usage_err(set->cmd, "unknown option '%s'", a) :
				ss_gen_opt_usage_err(set->cmd, "unexpected argument '%s'", a);
		o = &set->opts[id];
		seen[id] = 1;
		if (!o->arg) {
			if (a[n])
				return ss_gen_opt_usage_err(set->cmd, "--%s takes no value",
							    o->name);
			continue;
		}
		if (a[n])
			v = a + n + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else
			return ss_gen_opt_usage_err(set->cmd, "%s needs a value (%s)",
						    a, o->arg);
		if (take_value(val, take, ctx, id, v))
			return -1;
	}
	return 0;
}

void ss_gen_opt_help(FILE *out, const struct ss_gen_opt_set *set)
{
	for (int i = 0; i < set->nr; i++) {
		const struct ss_gen_opt *o = &set->opts[i];
		char left[40];

		snprintf(left, sizeof(left), "%s%s--%s%s%s",
			 o->alias ? o->alias : "", o->alias ? ", " : "", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(out, "  %-20s%s\n", left, o->help);
	}
}
