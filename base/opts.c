/* opts.c - the option scanner and help table of every slabsim command. */
#include "opts.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/* The widest "-o, --output TRACE" that keeps its help on the same line;
 * a wider one puts the help on the next line, in the same column. */
#define LEFT_MAX 20

int ss_opt_keep(void *ctx, int id, const char *value)
{
	const char **val = ctx;

	val[id] = value ? value : "";
	return 0;
}

int ss_opt_usage_err(const struct ss_opt_set *set, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "slabsim %s: ", set->cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(try 'slabsim %s --help')\n", set->cmd);
	return -1;
}

int ss_opt_bad_value(const struct ss_opt_set *set, int id, const char *value)
{
	return ss_opt_usage_err(set, "bad value '%s' for --%s", value,
				set->opts[id].name);
}

int ss_opt_u64(const struct ss_opt_set *set, int id, const char *value,
	       uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (!value)
		return 0;
	if (ss_parse_u64(value, max, &v) || v < min)
		return ss_opt_usage_err(set, "bad value '%s' for --%s (want an integer %"
					PRIu64 "..%" PRIu64 ")", value,
					set->opts[id].name, min, max);
	*out = v;
	return 0;
}

int ss_opt_uint(const struct ss_opt_set *set, int id, const char *value,
		unsigned min, unsigned max, unsigned *out)
{
	uint64_t v = *out;

	if (ss_opt_u64(set, id, value, min, max, &v))
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* a[0..n) is "--name" or an alias; -1 when no option has that name.
 * No abbreviations: a prefix of a name is unknown. */
static int find_opt(const struct ss_opt_set *set, const char *a, size_t n)
{
	for (int i = 0; i < set->nr; i++) {
		const struct ss_opt *o = &set->opts[i];

		if (o->name && n > 2 && a[0] == '-' && a[1] == '-' &&
		    strlen(o->name) == n - 2 && !strncmp(a + 2, o->name, n - 2))
			return i;
		if (o->alias && strlen(o->alias) == n && !strncmp(a, o->alias, n))
			return i;
	}
	return -1;
}

/* The entry of the positional arguments; -1 if the command takes none. */
static int find_positional(const struct ss_opt_set *set)
{
	for (int i = 0; i < set->nr; i++)
		if (!set->opts[i].name)
			return i;
	return -1;
}

static int take_one(const struct ss_opt_set *set, ss_opt_take_fn take,
		    void *ctx, int id, const char *v)
{
	int r = take(ctx, id, v);

	if (r == SS_OPT_BAD_VALUE)
		return set->opts[id].name ? ss_opt_bad_value(set, id, v) :
			ss_opt_usage_err(set, "bad argument '%s'", v);
	return r ? -1 : 0;
}

static int positional(const struct ss_opt_set *set, ss_opt_take_fn take,
		      void *ctx, const char *a)
{
	int id = find_positional(set);

	if (id < 0)
		return ss_opt_usage_err(set, "unexpected argument '%s'", a);
	return take_one(set, take, ctx, id, a);
}

int ss_opt_scan(const struct ss_opt_set *set, int argc, char **argv,
		ss_opt_take_fn take, void *ctx)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		/* only a long option carries "=value"; "-o=x" is unknown */
		size_t n = eq && a[1] == '-' ? (size_t)(eq - a) : strlen(a);
		const struct ss_opt *o;
		const char *v;
		int id;

		if (!strcmp(a, "--"))
			break;
		if (a[0] != '-' || !a[1]) { /* "-" is stdin or stdout */
			if (positional(set, take, ctx, a))
				return -1;
			continue;
		}
		id = find_opt(set, a, n);
		if (id < 0)
			return ss_opt_usage_err(set, "unknown option '%s'", a);
		o = &set->opts[id];
		if (!o->arg && a[n])
			return ss_opt_usage_err(set, "--%s takes no value", o->name);
		if (!strcmp(o->name, "help")) {
			if (set->usage)
				set->usage(stdout);
			return SS_OPT_HELP;
		}
		if (!o->arg)
			v = NULL;
		else if (a[n])
			v = a + n + 1;
		else if (i + 1 < argc)
			v = argv[++i]; /* even one that looks like an option */
		else
			return ss_opt_usage_err(set, "%s needs a value (%s)", a, o->arg);
		if (take_one(set, take, ctx, id, v))
			return -1;
	}
	for (i++; i < argc; i++)
		if (positional(set, take, ctx, argv[i]))
			return -1;
	return 0;
}

/* "-o, --output TRACE", "--pipes" or "WORKLOAD=TRACE" (a positional). */
static int left_part(const struct ss_opt *o, char *buf, size_t size)
{
	return snprintf(buf, size, "%s%s%s%s%s%s", o->alias ? o->alias : "",
			o->alias ? ", " : "", o->name ? "--" : "",
			o->name ? o->name : "", o->name && o->arg ? " " : "",
			o->arg ? o->arg : "");
}

/* The help column: two spaces past the widest left part that fits. */
static int help_column(const struct ss_opt_set *set)
{
	char left[128];
	int widest = 0;

	for (int i = 0; i < set->nr; i++) {
		int w = left_part(&set->opts[i], left, sizeof(left));

		if (set->opts[i].help && w <= LEFT_MAX && w > widest)
			widest = w;
	}
	return 2 + widest + 2;
}

void ss_opt_help(FILE *out, const struct ss_opt_set *set)
{
	int col = help_column(set);
	char left[128];

	for (int i = 0; i < set->nr; i++) {
		const struct ss_opt *o = &set->opts[i];
		int w;

		if (!o->help)
			continue;
		w = left_part(o, left, sizeof(left));
		if (w > col - 4)
			fprintf(out, "  %s\n%*s", left, col, "");
		else
			fprintf(out, "  %-*s", col - 2, left);
		for (const char *h = o->help; *h; h++) {
			fputc(*h, out);
			if (*h == '\n')
				fprintf(out, "%*s", col, "");
		}
		fputc('\n', out);
		if (o->more_help)
			o->more_help(out, col);
	}
}

/* Keep line (a copy) in keep: the copy, or NULL when out of memory. */
static char *keep_line(struct ss_opt_lines *keep, const char *line)
{
	char *copy = strdup(line), **lines;

	if (!copy || !(lines = realloc(keep->lines, (keep->n + 1) * sizeof(*lines)))) {
		free(copy);
		return NULL;
	}
	keep->lines = lines;
	keep->lines[keep->n++] = copy;
	return copy;
}

int ss_opt_read_lines(const struct ss_opt_set *set, const char *path, struct ss_opt_lines *keep,
		      ss_opt_line_fn line, void *ctx)
{
	FILE *fp = fopen(path, "r");
	char buf[8192], *words[128], *argv[130];
	unsigned long lineno = 0;
	int rc = 0;

	if (!fp)
		return ss_opt_usage_err(set, "%s: %s", path, strerror(errno));
	while (!rc && fgets(buf, sizeof(buf), fp)) {
		char *copy;
		int n;

		lineno++;
		if (!strchr(buf, '\n') && !feof(fp)) {
			rc = ss_opt_usage_err(set, "%s:%lu: line too long", path, lineno);
			break;
		}
		if (!(copy = keep_line(keep, buf))) {
			rc = ss_opt_usage_err(set, "out of memory");
			break;
		}
		n = ss_split_words(copy, words, 128);
		if (n < 0) {
			rc = ss_opt_usage_err(set, "%s:%lu: unterminated quote or too many words",
					      path, lineno);
			break;
		}
		if (!n)
			continue;
		argv[0] = (char *)set->cmd;
		memcpy(argv + 1, words, (size_t)n * sizeof(*words));
		argv[n + 1] = NULL;
		rc = line(ctx, n + 1, argv, lineno);
	}
	if (!rc && ferror(fp))
		rc = ss_opt_usage_err(set, "%s: read error", path);
	fclose(fp);
	return rc;
}

void ss_opt_lines_release(struct ss_opt_lines *keep)
{
	for (unsigned i = 0; i < keep->n; i++)
		free(keep->lines[i]);
	free(keep->lines);
	keep->lines = NULL;
	keep->n = 0;
}
