/* compare_out.c - load the runs' timelines and caches, write timeline.dat,
 * phases.dat and top_caches.csv (compare_out.h). */
#include "compare_out.h"

#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "timeline_dat.h"

static const struct ss_report_run *slot_run(const struct ss_compare_in *in, unsigned vi,
				     unsigned mi)
{
	return ss_report_find(in->res, vi, mi);
}

/* One slot: its timeline block in timeline.dat, its caches. */
static int load_slot(struct ss_compare_in *in, unsigned vi, unsigned mi, FILE *tl_out,
		     struct ss_error *err)
{
	const struct ss_report_results *res = in->res;
	struct ss_compare_slot *s = &in->slot[vi * res->models.n + mi];
	const struct ss_report_run *run = slot_run(in, vi, mi);
	char path[4400];

	if (ss_timeline_dat_block(tl_out, in->dir, run, res->variants.v[vi], res->models.v[mi],
				  &s->tl, err))
		return -1;
	if (!run)
		return 0;
	s->have = true;
	snprintf(path, sizeof(path), "%s/runs/%s__%s/caches.csv", in->dir,
		 run->variant, run->model);
	if (ss_compare_read_caches(path, &s->cc, err))
		return -1;
	snprintf(path, sizeof(path), "%s/runs/%s__%s/sites.csv", in->dir,
		 run->variant, run->model);
	return ss_compare_read_sites(path, &s->ss, err);
}

int ss_compare_load_slots(struct ss_compare_in *in, FILE *tl_out, struct ss_error *err)
{
	const struct ss_report_results *res = in->res;

	in->slot = calloc((size_t)res->variants.n * res->models.n + 1,
			  sizeof(*in->slot));
	if (!in->slot)
		return ss_errorf(err, "out of memory");
	ss_timeline_dat_head(tl_out, "slabsim compare");
	for (unsigned vi = 0; vi < res->variants.n; vi++)
		for (unsigned mi = 0; mi < res->models.n; mi++)
			if (load_slot(in, vi, mi, tl_out, err))
				return -1;
	return 0;
}

void ss_compare_free_slots(struct ss_compare_in *in)
{
	size_t n = (size_t)in->res->variants.n * in->res->models.n;

	for (size_t i = 0; in->slot && i < n; i++) {
		ss_compare_timeline_free(&in->slot[i].tl);
		ss_compare_caches_free(&in->slot[i].cc);
		ss_compare_sites_free(&in->slot[i].ss);
	}
	free(in->slot);
	in->slot = NULL;
}

/* The first run of variant vi: its phases stand for the variant's (every
 * model replays the same trace). */
static const struct ss_compare_slot *variant_slot(const struct ss_compare_in *in, unsigned vi)
{
	for (unsigned mi = 0; mi < in->res->models.n; mi++)
		if (in->slot[vi * in->res->models.n + mi].have)
			return &in->slot[vi * in->res->models.n + mi];
	return NULL;
}

int ss_compare_write_phases_dat(FILE *fp, const struct ss_compare_in *in)
{
	const struct ss_report_results *res = in->res;

	ss_phases_dat_head(fp, "slabsim compare");
	for (unsigned vi = 0; vi < res->variants.n; vi++) {
		const struct ss_compare_slot *s = variant_slot(in, vi);

		ss_phases_dat_block(fp, res->variants.v[vi], s ? &s->tl : NULL);
	}
	return ferror(fp) ? -1 : 0;
}

bool ss_compare_timeline_change(const struct ss_compare_in *in)
{
	size_t n = (size_t)in->res->variants.n * in->res->models.n;

	for (size_t i = 0; i < n; i++)
		if (in->slot[i].have && in->slot[i].tl.initial)
			return true;
	return false;
}

static bool same_header(const struct ss_compare_caches *a, const struct ss_compare_caches *b)
{
	if (a->ncols != b->ncols)
		return false;
	for (unsigned k = 0; k < a->ncols; k++)
		if (strcmp(a->header[k], b->header[k]))
			return false;
	return true;
}

int ss_compare_write_top_caches(FILE *fp, const struct ss_compare_in *in,
			 struct ss_error *err)
{
	const struct ss_report_results *res = in->res;
	const struct ss_compare_caches *first = NULL;
	size_t n = (size_t)res->variants.n * res->models.n;

	for (size_t i = 0; i < n; i++) {
		const struct ss_compare_slot *s = &in->slot[i];

		if (!s->have)
			continue;
		if (!first) {
			first = &s->cc;
			fputs("variant,model,rank", fp);
			for (unsigned k = 0; k < first->ncols; k++) {
				fputc(',', fp);
				ss_csv_put(fp, first->header[k]);
			}
			fputc('\n', fp);
		} else if (!same_header(first, &s->cc)) {
			return ss_errorf(err, "%s/runs/%s__%s/caches.csv: header differs from the other runs'",
					 in->dir, res->variants.v[i / res->models.n],
					 res->models.v[i % res->models.n]);
		}
		for (size_t r = 0; r < s->cc.n && r < in->top; r++) {
			ss_csv_put(fp, res->variants.v[i / res->models.n]);
			fputc(',', fp);
			ss_csv_put(fp, res->models.v[i % res->models.n]);
			fprintf(fp, ",%zu", r + 1);
			for (unsigned k = 0; k < s->cc.ncols; k++) {
				fputc(',', fp);
				ss_csv_put(fp, s->cc.c[r].row[k]);
			}
			fputc('\n', fp);
		}
	}
	if (!first)
		fputs("variant,model,rank\n", fp);
	return ferror(fp) ? ss_errorf(err, "top_caches.csv: write error") : 0;
}
