/* slabpages.c - the slab page frames at a moment (slabpages.h). */
#include "slabpages.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* kpageflags entries read at a time (512 KiB) */
#define SCAN_CHUNK 65536

static int write_run(FILE *out, uint64_t start, uint64_t n)
{
	return fprintf(out, "%" PRIx64 " %" PRIu64 "\n", start, n) < 0;
}

int ss_slabpages_scan(int fd, const char *path, FILE *out, uint64_t *slab,
		      struct ss_error *err)
{
	uint64_t *buf = malloc(SCAN_CHUNK * sizeof(*buf));
	uint64_t pfn = 0, run_start = 0, run_len = 0, runs = 0;
	char *body = NULL;
	size_t body_len = 0;
	FILE *mem;
	ssize_t got;
	bool oom = false;
	int rc = 0;

	*slab = 0;
	/* the runs go to memory first: the header counts them */
	mem = buf ? open_memstream(&body, &body_len) : NULL;
	if (!mem) {
		free(buf);
		return ss_errorf(err, "out of memory");
	}
	while ((got = read(fd, buf, SCAN_CHUNK * sizeof(*buf))) > 0) {
		if (got % sizeof(*buf)) {
			rc = ss_error_at(err, path, 0, "read %zd bytes, not whole 8-byte entries", got);
			break;
		}
		for (size_t i = 0; i < (size_t)got / sizeof(*buf); i++, pfn++) {
			if (!(buf[i] >> SS_KPF_SLAB & 1)) {
				oom |= run_len && write_run(mem, run_start, run_len);
				run_len = 0;
				continue;
			}
			if (!run_len++) {
				run_start = pfn;
				runs++;
			}
			++*slab;
		}
		if (rc || oom)
			break;
	}
	if (got < 0 && !rc)
		rc = ss_error_at(err, path, 0, "%s", strerror(errno));
	oom |= !rc && run_len && write_run(mem, run_start, run_len);
	oom |= fclose(mem) != 0;
	if (!rc && oom)
		rc = ss_errorf(err, "out of memory");
	if (!rc && !pfn)
		rc = ss_error_at(err, path, 0, "empty: no page frames");
	if (!rc && (fprintf(out, "slabsim-slabpages 1 frames=%" PRIu64 " slab=%" PRIu64
				 " runs=%" PRIu64 "\n", pfn, *slab, runs) < 0 ||
		    fwrite(body, 1, body_len, out) != body_len))
		rc = ss_errorf(err, "write error");
	free(body);
	free(buf);
	return rc;
}

struct run {
	uint64_t pfn, n;
};

enum run_parse { RUN_OK, RUN_BAD, RUN_OUT_OF_ORDER };

/* One "PFN COUNT" line after prev_end (the frame after the last run). */
static enum run_parse parse_run(const char *line, uint64_t prev_end, uint64_t frames,
				struct run *r)
{
	char *end;

	errno = 0;
	if (!((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')))
		return RUN_BAD;
	r->pfn = strtoull(line, &end, 16);
	if (errno || *end != ' ' || !(end[1] >= '1' && end[1] <= '9'))
		return RUN_BAD;
	r->n = strtoull(end + 1, &end, 10);
	if (errno || *end || r->n > frames || r->pfn > frames - r->n)
		return RUN_BAD;
	/* in order, not touching the run before (it would be one run) */
	return prev_end && r->pfn <= prev_end ? RUN_OUT_OF_ORDER : RUN_OK;
}

/* The runs into a bitmap over the span they cover. */
static int fill_bits(struct ss_slabpages *sp, const struct run *runs, uint64_t nr)
{
	if (!nr)
		return 0;
	sp->first_pfn = runs[0].pfn;
	sp->span = runs[nr - 1].pfn + runs[nr - 1].n - sp->first_pfn;
	sp->bits = calloc((size_t)(sp->span + 63) / 64, sizeof(*sp->bits));
	if (!sp->bits)
		return -1;
	for (uint64_t i = 0; i < nr; i++)
		for (uint64_t f = runs[i].pfn - sp->first_pfn, e = f + runs[i].n; f < e; f++)
			sp->bits[f / 64] |= 1ull << (f % 64);
	return 0;
}

int ss_slabpages_load(struct ss_slabpages *sp, const char *path, struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	struct run *runs = NULL;
	uint64_t nr = 0, cap = 0, slab = 0, end = 0;
	unsigned version;
	char *line = NULL;
	size_t lcap = 0;
	ssize_t len;
	unsigned long ln = 0;
	enum run_parse bad;
	int rc = 0;

	memset(sp, 0, sizeof(*sp));
	if (!fp)
		return ss_error_at(err, path, 0, "%s", strerror(errno));
	while (!rc && (len = getline(&line, &lcap, fp)) > 0) {
		ln++;
		line[strcspn(line, "\r\n")] = '\0';
		if (ln == 1) {
			if (sscanf(line, "slabsim-slabpages %u frames=%" SCNu64 " slab=%" SCNu64
					 " runs=%" SCNu64, &version, &sp->frames, &sp->slab_pages,
				   &sp->runs) != 4 || version != 1)
				rc = ss_error_at(err, path, ln, "not a slab-pages file (expected "
							      "'slabsim-slabpages 1 frames=F slab=S runs=R')");
			continue;
		}
		if (nr == cap) {
			struct run *n = realloc(runs, (cap = cap ? cap * 2 : 1024) * sizeof(*runs));

			if (!n) {
				rc = ss_errorf(err, "out of memory");
				break;
			}
			runs = n;
		}
		bad = parse_run(line, end, sp->frames, &runs[nr]);
		if (bad != RUN_OK)
			rc = ss_error_at(err, path, ln, bad == RUN_OUT_OF_ORDER ? "run '%.60s' is not after the one before"
								  : "'%.60s' is not 'PFN COUNT' within the frames",
					 line);
		else {
			end = runs[nr].pfn + runs[nr].n;
			slab += runs[nr++].n;
		}
	}
	if (!rc && ferror(fp))
		rc = ss_error_at(err, path, ln, "read error");
	else if (!rc && !ln)
		rc = ss_error_at(err, path, 0, "empty file");
	else if (!rc && (nr != sp->runs || slab != sp->slab_pages))
		rc = ss_error_at(err, path, ln, "%" PRIu64 " runs of %" PRIu64 " pages, the header says "
					     "%" PRIu64 " of %" PRIu64 " (a cut file?)", nr, slab,
				 sp->runs, sp->slab_pages);
	if (!rc && fill_bits(sp, runs, nr))
		rc = ss_errorf(err, "out of memory");
	fclose(fp);
	free(line);
	free(runs);
	if (rc)
		ss_slabpages_release(sp);
	return rc;
}

bool ss_slabpages_has(const struct ss_slabpages *sp, uint64_t pfn)
{
	uint64_t f;

	if (pfn < sp->first_pfn || pfn - sp->first_pfn >= sp->span)
		return false;
	f = pfn - sp->first_pfn;
	return sp->bits[f / 64] >> (f % 64) & 1;
}

void ss_slabpages_clear(struct ss_slabpages *sp, uint64_t pfn, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++) {
		uint64_t f = pfn + i - sp->first_pfn;

		if (pfn + i >= sp->first_pfn && f < sp->span)
			sp->bits[f / 64] &= ~(1ull << (f % 64));
	}
}

void ss_slabpages_release(struct ss_slabpages *sp)
{
	free(sp->bits);
	memset(sp, 0, sizeof(*sp));
}
