/* pmu.h - hardware and software counters through libpfm4 and
 * perf_event_open (docs/host-mode.md).
 *
 * An event list ("cycles,instructions,task-clock") is encoded once with
 * libpfm4 (pfm_get_os_event_encoding, PFM_OS_PERF_EVENT); each replay
 * thread then opens every event for itself.  An event libpfm4 cannot
 * encode, or that perf_event_open refuses (a VM without a PMU refuses
 * every hardware event with ENOENT), is reported as unsupported with the
 * reason and errno, and the run goes on with the rest.
 */
#ifndef SS_PMU_H
#define SS_PMU_H

#include <linux/perf_event.h>
#include <stdint.h>

#include "error.h"

#define SS_PMU_MAX_EVENTS 16
#define SS_PMU_DEFAULT_EVENTS \
	"cycles,instructions,cache-misses,task-clock,page-faults,context-switches"

enum ss_pmu_status {
	SS_PMU_COUNTED,	    /* opened on every thread, values summed */
	SS_PMU_UNSUPPORTED, /* unknown to libpfm4 or refused by the kernel */
};

/* perf_event_open(attr, pid 0, cpu -1, no group, 0); tests substitute it. */
typedef int (*ss_perf_open_fn)(struct perf_event_attr *attr);

struct ss_pmu_event {
	char name[64];
	int encoded;		/* libpfm4 produced attr */
	struct perf_event_attr attr;
	enum ss_pmu_status status;
	int err;		/* errno of the refusal, 0 if none */
	char why[128];		/* the reason, for reports */
	uint64_t value;		/* summed over threads, scaled if multiplexed */
	uint64_t enabled_ns, running_ns;
};

struct ss_pmu_set {
	unsigned nr;
	struct ss_pmu_event ev[SS_PMU_MAX_EVENTS];
	ss_perf_open_fn open_fn; /* NULL: the real system call */
};

/* One thread's file descriptors and readings. */
struct ss_pmu_thread {
	int fd[SS_PMU_MAX_EVENTS];
	int err[SS_PMU_MAX_EVENTS];
	uint64_t value[SS_PMU_MAX_EVENTS], enabled[SS_PMU_MAX_EVENTS],
		running[SS_PMU_MAX_EVENTS];
};

/* Parse a comma-separated list and encode each event.  A malformed list
 * (empty name, duplicate, more than SS_PMU_MAX_EVENTS, name too long) is
 * an error; an unknown event is only marked unsupported. */
int ss_pmu_parse(struct ss_pmu_set *set, const char *list,
		 struct ss_error *err);

/* On the calling thread: open every encoded event (disabled), enable,
 * disable and read them, close them. */
void ss_pmu_thread_open(const struct ss_pmu_set *set, struct ss_pmu_thread *th);
void ss_pmu_thread_enable(const struct ss_pmu_set *set, struct ss_pmu_thread *th);
void ss_pmu_thread_disable(const struct ss_pmu_set *set, struct ss_pmu_thread *th);
void ss_pmu_thread_read(const struct ss_pmu_set *set, struct ss_pmu_thread *th);
void ss_pmu_thread_close(const struct ss_pmu_set *set, struct ss_pmu_thread *th);

/* Fold the threads' readings into set: an event is counted only if every
 * thread counted it. */
void ss_pmu_merge(struct ss_pmu_set *set, const struct ss_pmu_thread *th,
		  unsigned nr_threads);

const char *ss_pmu_status_name(enum ss_pmu_status s);

#endif
