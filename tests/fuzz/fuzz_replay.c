/* fuzz_replay.c - a text trace replayed end to end (sim/replay.c and the
 * SLUB models), as `slabsim run` does but without writing files.  The
 * input picks the model and slub_debug flags (by its length), so one corpus
 * reaches every placement and the debug paths.  At every phase marker and
 * at the end, the waste decomposition must add up to the footprint
 * (docs/outputs.md) and nothing may be negative. */
#include <string.h>

#include "fuzz.h"
#include "geometry.h"
#include "replay.h"
#include "run.h"
#include "totals.h"

#define FUZZ_CPUS 4
#define FUZZ_NODES 2
#define FUZZ_MAX_OBJECTS (1u << 16)
/* Open bug (docs/bad-input.md, tests/fuzz/regressions/replay/open/):
 * placement_kmem_cache.c names a site's cache by the first 63 bytes of the
 * site name, so two sites that share them share one cache of the first
 * site's size.  Until that is fixed, inputs with a token that long replay
 * through `traced` instead of `kmem_cache`. */
#define KMEM_CACHE_NAME_MAX 63

static int has_long_token(const uint8_t *data, size_t size)
{
	size_t run = 0;

	for (size_t i = 0; i < size; i++) {
		run = data[i] > ' ' ? run + 1 : 0;
		if (run >= KMEM_CACHE_NAME_MAX)
			return 1;
	}
	return 0;
}

static int check_totals(struct ss_run *run, const char *phase,
			struct ss_error *err)
{
	struct ss_totals t;
	uint64_t parts;

	(void)phase;
	(void)err;
	ss_totals_compute(run->desc, run->model, run->target, &t);
	ss_fuzz_check(!t.negative, "%s negative in cache %s", t.negative ? t.negative : "",
		      t.negative_cache ? t.negative_cache : "");
	ss_fuzz_check(t.allocated >= t.requested,
		      "allocated %llu < requested %llu",
		      (unsigned long long)t.allocated, (unsigned long long)t.requested);
	parts = t.requested + t.rounding + t.align + t.debug + t.free_slot + t.slab_tail;
	ss_fuzz_check(parts == t.footprint_bytes,
		      "parts %llu != footprint %llu", (unsigned long long)parts,
		      (unsigned long long)t.footprint_bytes);
	return 0;
}

/* The run set-up of `slabsim run` (sim/run.c), with a default target
 * and a cost table of small distinct prices instead of files. */
static void replay(const char *path, const struct ss_model_desc *desc,
		   unsigned debug)
{
	struct ss_run_spec spec = {.trace = path, .no_merge = debug != 0,
				   .max_objects = FUZZ_MAX_OBJECTS};
	struct ss_run_setup rs = {.desc = desc};
	struct ss_run run = {.on_phase = check_totals};
	struct ss_error err = {{0}};

	ss_target_defaults(&rs.target);
	rs.target.cpus = FUZZ_CPUS;
	rs.target.nodes = FUZZ_NODES;
	for (int s = 0; s < SS_NR_STEPS; s++)
		rs.costs.cycles[s] = 1 + s % 7;
	rs.cfg.debug = debug;
	if (ss_run_setup_open(&rs, &spec, &err) || ss_run_setup_start(&rs, &run, &err))
		goto out;
	if (ss_replay(&run, rs.reader, &err))
		ss_fuzz_check_names_file(err.msg, path);
out:
	ss_run_setup_close(&rs, &run);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned debug[] = {0, SS_DBG_ALL, SS_DBG_F | SS_DBG_P, SS_DBG_U | SS_DBG_O};
	unsigned nr_models = ss_model_count();
	const struct ss_model_desc *desc = ss_model_at((unsigned)(size % nr_models));
	char path[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	if (desc->needs_site_sizes && has_long_token(data, size))
		desc = ss_model_find("traced");
	replay(path, desc, debug[(size / nr_models) % 4]);
	ss_fuzz_memfile_close(fd);
	return 0;
}
