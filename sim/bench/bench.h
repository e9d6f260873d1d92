/* bench.h - replay throughput and memory of a model, or of glibc
 * malloc/free replaying the same events (docs/bench.md). */
#ifndef SS_BENCH_H
#define SS_BENCH_H

#include <stdint.h>

#include "error.h"

struct ss_bench_opts {
	const char *target;	/* a target name or path */
	unsigned cpus;		/* 0: the target's */
	uint64_t max_objects;	/* id space cap, as `run --max-objects` */
};

struct ss_bench_result {
	uint64_t events;	/* events replayed */
	uint64_t peak_live;	/* most objects live at once */
	double seconds;		/* wall time of the replay (open to last event) */
	double cpu_seconds;	/* user + system time of the replaying process */
	uint64_t start_rss_kib;	/* resident set before the replay */
	uint64_t peak_rss_kib;	/* getrusage() ru_maxrss after it */
};

#define SS_BENCH_GLIBC "glibc-malloc" /* the baseline's name in bench.csv */
#define SS_BENCH_READ "read-only"     /* decoding the trace, nothing else */

/* Replay trace through model (MODEL[+LETTERS]) or, for SS_BENCH_GLIBC,
 * through malloc(size) / free() on a dense id table, in this process.
 * SS_BENCH_READ only reads the events: the floor under every replay. */
int ss_bench_replay(const char *trace, const char *model,
		    const struct ss_bench_opts *o, struct ss_bench_result *res,
		    struct ss_error *err);

/* The same in a forked child, so that peak RSS is this replay's alone. */
int ss_bench_measure(const char *trace, const char *model,
		     const struct ss_bench_opts *o, struct ss_bench_result *res,
		     struct ss_error *err);

#endif
