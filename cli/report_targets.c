/* report_targets.c - inferred target parameters for `slabsim report`
 * (report_targets.h). */
#include "report_targets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

static int push(struct ss_report_inferred **out, unsigned *n, const char *target,
		const char *key, const char *value, const char *evidence)
{
	struct ss_report_inferred *v = realloc(*out, (*n + 1) * sizeof(*v));

	if (!v)
		return -1;
	*out = v;
	v += (*n)++;
	snprintf(v->target, sizeof(v->target), "%s", target);
	snprintf(v->key, sizeof(v->key), "%s", key);
	snprintf(v->value, sizeof(v->value), "%s", value);
	snprintf(v->evidence, sizeof(v->evidence), "%s", evidence);
	return 0;
}

static bool listed(const struct ss_report_inferred *v, unsigned n, const char *target)
{
	for (unsigned i = 0; i < n; i++)
		if (!strcmp(v[i].target, target))
			return true;
	return false;
}

/* The "target" column of the summary rows. */
static int target_col(const struct ss_report_results *res)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], "target"))
			return (int)i;
	return -1;
}

int ss_report_find_inferred(const struct ss_report_results *res, struct ss_report_inferred **out,
		    unsigned *n, struct ss_error *err)
{
	int col = target_col(res);
	/* Targets already looked at in this call, inferred keys or not. */
	const char *seen[64];
	unsigned nseen = 0;

	for (size_t k = 0; col >= 0 && k < res->nruns; k++) {
		const char *name = res->runs[k].row[col];
		struct ss_target t;
		struct ss_error terr;
		bool dup = listed(*out, *n, name);

		for (unsigned j = 0; j < nseen && !dup; j++)
			dup = !strcmp(seen[j], name);
		if (dup)
			continue;
		if (nseen < sizeof(seen) / sizeof(seen[0]))
			seen[nseen++] = name;
		if (ss_target_load(name, &t, &terr)) {
			if (push(out, n, name, "?", "?",
				 "target file not found by name: its inferred parameters are not listed"))
				return ss_errorf(err, "out of memory");
			continue;
		}
		for (unsigned i = 0; i < t.ninferred; i++) {
			char value[32];

			if (ss_target_key_value(&t, t.inferred[i].key, value, sizeof(value)))
				snprintf(value, sizeof(value), "?");
			if (push(out, n, name, t.inferred[i].key, value, t.inferred[i].evidence))
				return ss_errorf(err, "out of memory");
		}
	}
	return 0;
}
