/* estimate.c - `--estimate NAME=V` for a workload's estimated constants. */
#include "estimate.h"

#include <string.h>

#include "parse.h"

#define MAX_VALUE 1000000000ull /* far above any cycle figure */

int ss_estimate_apply(const struct ss_estimate *t, size_t n, const char *arg,
		      struct ss_error *err)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : 0;

	if (!eq || !len)
		return ss_errorf(err, "--estimate '%s': want NAME=VALUE", arg);
	for (size_t i = 0; i < n; i++) {
		if (strlen(t[i].name) != len || strncmp(t[i].name, arg, len))
			continue;
		uint64_t v;

		if (ss_parse_u64(eq + 1, MAX_VALUE, &v) || v < t[i].min)
			return ss_errorf(err, "--estimate %s: '%s' is not a whole number %llu..%llu",
					 t[i].name, eq + 1, (unsigned long long)t[i].min, MAX_VALUE);
		*t[i].value = v;
		return 0;
	}
	return ss_errorf(err, "--estimate '%.*s': no such estimate", (int)len, arg);
}

int ss_estimate_keep(struct ss_estimate_args *a, const char *v,
		     struct ss_error *err)
{
	if (a->n == SS_MAX_ESTIMATE_ARGS)
		return ss_errorf(err, "more than %d --estimate options", SS_MAX_ESTIMATE_ARGS);
	a->v[a->n++] = v;
	return 0;
}

int ss_estimate_apply_all(const struct ss_estimate *t, size_t n,
			  const struct ss_estimate_args *a, struct ss_error *err)
{
	for (unsigned i = 0; i < a->n; i++)
		if (ss_estimate_apply(t, n, a->v[i], err))
			return -1;
	return 0;
}

void ss_estimate_list(FILE *out, const struct ss_estimate *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? ", " : "", t[i].name);
}
