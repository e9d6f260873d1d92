/* run_settings.c - each run's kernel.txt, and the header lines made of
 * them (run_settings.h). */
#include "run_settings.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

int ss_report_settings_load(const char *rundir, struct ss_report_settings *s, struct ss_error *err)
{
	char path[4200], line[2048];
	unsigned long ln = 0;
	FILE *fp;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/kernel.txt", rundir);
	if (!(fp = fopen(path, "r")))
		return errno == ENOENT ? 0 : ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		char *eq;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (!(eq = strchr(line, '=')) || eq == line) {
			fclose(fp);
			ss_report_settings_free(s);
			return ss_error_at(err, path, ln, "not KEY=VALUE");
		}
		if (s->n == RS_MAX_KEYS)
			continue; /* keys this reader does not know are not read */
		*eq = '\0';
		if (!(s->key[s->n] = strdup(line)) || !(s->value[s->n] = strdup(eq + 1))) {
			free(s->key[s->n]);
			fclose(fp);
			ss_report_settings_free(s);
			return ss_errorf(err, "out of memory");
		}
		s->n++;
	}
	fclose(fp);
	return 0;
}

const char *ss_report_setting(const struct ss_report_settings *s, const char *key)
{
	for (unsigned i = 0; s && i < s->n; i++)
		if (!strcmp(s->key[i], key))
			return s->value[i];
	return NULL;
}

void ss_report_settings_free(struct ss_report_settings *s)
{
	for (unsigned i = 0; i < s->n; i++) {
		free(s->key[i]);
		free(s->value[i]);
	}
	s->n = 0;
}

int ss_report_settings_load_all(const char *dir, const struct ss_report_results *res,
			 struct ss_report_settings **out, struct ss_error *err)
{
	struct ss_report_settings *all = calloc(res->nruns + 1, sizeof(*all));
	char rundir[4200];

	if (!all)
		return ss_errorf(err, "out of memory");
	for (size_t k = 0; k < res->nruns; k++) {
		snprintf(rundir, sizeof(rundir), "%s/runs/%s__%s", dir, res->runs[k].variant,
			 res->runs[k].model);
		if (ss_report_settings_load(rundir, &all[k], err)) {
			ss_report_settings_free_all(all, k);
			return -1;
		}
	}
	*out = all;
	return 0;
}

void ss_report_settings_free_all(struct ss_report_settings *s, size_t n)
{
	for (size_t k = 0; s && k < n; k++)
		ss_report_settings_free(&s[k]);
	free(s);
}

#define VALUE_MAX 1400

void ss_report_settings_line(FILE *fp, const char *label, const struct ss_report_results *res,
		      const struct ss_report_settings *all, ss_report_setting_fn value)
{
	char (*v)[VALUE_MAX] = calloc(res->nruns + 1, sizeof(*v));
	bool *known = calloc(res->nruns + 1, sizeof(*known)), *done = calloc(res->nruns + 1, 1);
	size_t first = res->nruns, groups = 0;

	if (!v || !known || !done) {
		fprintf(fp, "- %s: (out of memory)\n", label);
		goto out;
	}
	for (size_t k = 0; k < res->nruns; k++) {
		known[k] = value(res, k, all ? &all[k] : NULL, v[k], VALUE_MAX);
		if (known[k] && first == res->nruns)
			first = k;
	}
	if (first == res->nruns)
		goto out;
	for (size_t k = first; k < res->nruns; k++) {
		if (!known[k] || done[k])
			continue;
		groups++;
		for (size_t j = k; j < res->nruns; j++)
			if (known[j] && !strcmp(v[j], v[k]))
				done[j] = true;
	}
	if (groups == 1) {
		fprintf(fp, "- %s: %s\n", label, v[first]);
		goto out;
	}
	memset(done, 0, res->nruns + 1);
	fprintf(fp, "- %s: differs between runs:", label);
	groups = 0;
	for (size_t k = first; k < res->nruns; k++) {
		bool one = true;

		if (!known[k] || done[k])
			continue;
		fprintf(fp, "%s %s (", groups++ ? ";" : "", v[k]);
		for (size_t j = k; j < res->nruns; j++)
			if (known[j] && !strcmp(v[j], v[k])) {
				done[j] = true;
				fprintf(fp, "%s%s__%s", one ? "" : ", ", res->runs[j].variant,
					res->runs[j].model);
				one = false;
			}
		fputc(')', fp);
	}
	fputc('\n', fp);
out:
	free(v);
	free(known);
	free(done);
}

/* ---- the values the headers state ---- */

const char *ss_report_run_column(const struct ss_report_results *res, size_t k, const char *col)
{
	for (unsigned i = 0; i < res->ncols; i++)
		if (!strcmp(res->header[i], col))
			return res->runs[k].row[i];
	return "";
}

bool ss_report_sv_target(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n)
{
	const char *t = ss_report_run_column(res, k, "target");

	(void)s;
	snprintf(buf, n, "%s (kernel era %s)", t, ss_report_run_column(res, k, "era"));
	return *t != '\0';
}

/* The slub_* boot parameters a run took other than the kernel's defaults
 * (mm/slub.c: slub_min_order 0, slub_max_order PAGE_ALLOC_COSTLY_ORDER 3,
 * slub_min_objects 0), ", NAME=V" each. */
static void orders(const struct ss_report_settings *s, char *buf, size_t n)
{
	static const char *const key[] = {"slub_min_order", "slub_max_order", "slub_min_objects"};
	static const char *const dflt[] = {"0", "3", "0"};
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < 3; i++) {
		const char *v = ss_report_setting(s, key[i]);

		if (v && strcmp(v, dflt[i]) && len < n)
			len += (size_t)snprintf(buf + len, n - len, ", %s=%s", key[i], v);
	}
}

bool ss_report_sv_kernel(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n)
{
	const char *a = ss_report_setting(s, "allocator"), *c = ss_report_setting(s, "config");
	const char *v = ss_report_setting(s, "memcg_vectors_replayed");
	const char *rnd = ss_report_setting(s, "random_kmalloc_initial");
	char o[160];

	(void)res;
	(void)k;
	if (!a)
		return false;
	orders(s, o, sizeof(o));
	snprintf(buf, n, "%s, options: %s%s%s%s%s%s%s", a, c && *c ? c : "none beyond the defaults", o,
		 ss_report_setting(s, "nomerge_scope") ? "; no merging of the caches the model creates only: "
						  "the trace's caches are as the kernel merged them" : "",
		 v ? "; the trace's " : "", v ? v : "",
		 v ? " obj_exts vectors replayed, though a kernel without CONFIG_MEMCG makes none" : "",
		 rnd ? "; the random kmalloc copies take the trace's kmallocs only: the snapshot's "
		       "objects stay in kmalloc-N, where its kernel put them" : "");
	return true;
}

bool ss_report_sv_cpus(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		char *buf, size_t n)
{
	const char *cpus = ss_report_run_column(res, k, "cpus"), *topo = ss_report_setting(s, "topology");

	if (!*cpus)
		return false;
	snprintf(buf, n, "%s%s%s%s", cpus, topo ? " (" : "", topo ? topo : "", topo ? ")" : "");
	return true;
}

/* kernel.txt's key, as it is */
static bool key_value(const struct ss_report_settings *s, const char *key, char *buf, size_t n)
{
	const char *v = ss_report_setting(s, key);

	if (v)
		snprintf(buf, n, "%s", v);
	return v != NULL;
}

bool ss_report_sv_costs(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		 char *buf, size_t n)
{
	(void)res;
	(void)k;
	return key_value(s, "costs", buf, n);
}

/* kernel.txt's initial_state, and the caches the run laid out in its own
 * order (initial_relaid) or kept though its rules differ
 * (initial_relaid_not) against the rules of the snapshot's kernel
 * (initial_kernel). */
bool ss_report_sv_initial(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		   char *buf, size_t n)
{
	const char *relaid = ss_report_setting(s, "initial_relaid"), *kept = ss_report_setting(s, "initial_relaid_not");
	const char *kernel = ss_report_setting(s, "initial_kernel");
	size_t len;

	(void)res;
	(void)k;
	if (!key_value(s, "initial_state", buf, n))
		return false;
	len = strlen(buf);
	if (relaid && strcmp(relaid, "0") && len < n)
		len += (size_t)snprintf(buf + len, n - len, "; %s of its caches laid out in this "
					"run's order (its kernel's: %s)", relaid, kernel ? kernel : "?");
	if (kept && strcmp(kept, "0") && len < n)
		snprintf(buf + len, n - len, "; %s kept the kernel's layout, which those rules do "
			 "not give, though this run's differ", kept);
	return true;
}

bool ss_report_sv_draw_seed(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		     char *buf, size_t n)
{
	(void)res;
	(void)k;
	return key_value(s, "draw_seed", buf, n);
}

/* The traces of a what-if whose settings change them are its own. */
bool ss_report_sv_traces(const struct ss_report_results *res, size_t k, const struct ss_report_settings *s,
		  char *buf, size_t n)
{
	const char *t = ss_report_setting(s, "trace"), *slash = t ? strrchr(t, '/') : NULL;

	(void)res;
	(void)k;
	if (!t)
		return false;
	if (slash)
		snprintf(buf, n, "%.*s/", (int)(slash - t), t);
	else
		snprintf(buf, n, "./");
	return true;
}
