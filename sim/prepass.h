/* prepass.h - what the runs of one pass over a trace learn from it before
 * the replay, computed once and shared by all of them: the trace's header
 * (meta workload, cpus, cpu_slab_free, slab_fill and its NAME=COUNT
 * lists), and, when some run needs them, the sizes each site asks for
 * (a placement that gives fixed-size sites their own cache) and the prior
 * frees of each kernel slab (an initial state: prior_counts.h).
 *
 * The trace is opened once (trace_source.h).  Its header is read by the
 * replay's own reader (ss_trace_header), which then replays from the
 * first event; a second reading happens only when a run needs the whole
 * trace first (site sizes, prior counts, or an imported trace that states
 * its CPUs only at its end): the pre-pass reads it through, and the
 * replay reads the same file again from its start, or the copy of a
 * stream (standard input, a FIFO).  A trace given by path and the same
 * trace on standard input thus give the same runs.
 */
#ifndef SS_PREPASS_H
#define SS_PREPASS_H

#include <stdbool.h>

#include "model.h"
#include "prior_counts.h"
#include "trace_source.h"

/* What the runs of the pass need beyond the header. */
struct ss_prepass_needs {
	bool site_sizes;   /* some model places by a site's sizes */
	bool prior_counts; /* some run starts from an initial state */
};

struct ss_prepass {
	struct ss_trace_source src;
	/* the replay's reader, at the trace's first event (or its start) */
	struct ss_trace_reader *reader;
	bool read_through; /* a whole reading came before the replay's */
	/* the header */
	unsigned cpus;	     /* meta cpus; 0: none */
	bool imported;	     /* meta workload import: the kernel's caches */
	char *cpu_slab_free; /* meta cpu_slab_free, or NULL */
	char *slab_fill;     /* meta slab_fill, or NULL */
	/* meta slab_vectors: the kernel's obj_exts vector events the import
	 * saw (kmallocs and kfrees at their sites); -1: not said */
	int64_t slab_vectors;
	/* the whole trace, when needed */
	bool have_sites, have_prior_counts;
	struct ss_site_sizes sites;
	struct ss_prior_counts prior_counts;
};

/* Open path ("-": standard input) and read what the needs ask for;
 * p->reader is then ready for the replay.  -1 with err (the trace named)
 * on a bad trace or header, or out of memory. */
int ss_prepass_open(struct ss_prepass *p, const char *path,
		    const struct ss_prepass_needs *needs, struct ss_error *err);
/* Release all of it, the reader included (NULL it if closed already). */
void ss_prepass_close(struct ss_prepass *p);

#endif
