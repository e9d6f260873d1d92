/* pmu_events.c - encode an event list with libpfm4, count it per thread
 * with perf_event_open. */
#include "pmu.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <perfmon/pfmlib_perf_event.h>

const char *ss_pmu_status_name(enum ss_pmu_status s)
{
	return s == SS_PMU_COUNTED ? "counted" : "unsupported";
}

static int add_name(struct ss_pmu_set *set, const char *name, size_t len,
		    struct ss_error *err)
{
	struct ss_pmu_event *ev;

	if (!len)
		return ss_errorf(err, "--events: empty event name in the list");
	if (len >= sizeof(ev->name))
		return ss_errorf(err, "--events: event name '%.40s...' is too long", name);
	if (set->nr == SS_PMU_MAX_EVENTS)
		return ss_errorf(err, "--events: more than %d events", SS_PMU_MAX_EVENTS);
	ev = &set->ev[set->nr];
	memcpy(ev->name, name, len);
	ev->name[len] = '\0';
	for (unsigned i = 0; i < set->nr; i++)
		if (!strcmp(set->ev[i].name, ev->name))
			return ss_errorf(err, "--events: '%s' is listed twice", ev->name);
	set->nr++;
	return 0;
}

/* Kernel and user counting; a kernel that refuses kernel counting to this
 * user gets a user-only retry at open time. */
static void encode(struct ss_pmu_event *ev)
{
	pfm_perf_encode_arg_t arg;
	int rc;

	memset(&arg, 0, sizeof(arg));
	memset(&ev->attr, 0, sizeof(ev->attr));
	arg.attr = &ev->attr;
	arg.size = sizeof(arg);
	rc = pfm_get_os_event_encoding(ev->name, PFM_PLM0 | PFM_PLM3,
				       PFM_OS_PERF_EVENT, &arg);
	if (rc != PFM_SUCCESS) {
		ev->status = SS_PMU_UNSUPPORTED;
		snprintf(ev->why, sizeof(ev->why), "libpfm4: %s", pfm_strerror(rc));
		return;
	}
	ev->attr.size = sizeof(ev->attr);
	ev->encoded = 1;
	ev->status = SS_PMU_COUNTED;
}

int ss_pmu_parse(struct ss_pmu_set *set, const char *list,
		 struct ss_error *err)
{
	const char *p = list;
	int rc;

	memset(set, 0, sizeof(*set));
	for (;;) {
		size_t len = strcspn(p, ",");

		while (len && (*p == ' ')) {
			p++;
			len--;
		}
		while (len && p[len - 1] == ' ')
			len--;
		if (add_name(set, p, len, err))
			return -1;
		p += strcspn(p, ",");
		if (!*p++)
			break;
	}
	rc = pfm_initialize();
	for (unsigned i = 0; i < set->nr; i++) {
		if (rc != PFM_SUCCESS) {
			set->ev[i].status = SS_PMU_UNSUPPORTED;
			snprintf(set->ev[i].why, sizeof(set->ev[i].why),
				 "libpfm4: pfm_initialize: %s", pfm_strerror(rc));
			continue;
		}
		encode(&set->ev[i]);
	}
	if (rc == PFM_SUCCESS)
		pfm_terminate(); /* attrs are filled; free libpfm4's tables */
	return 0;
}

static int real_open(struct perf_event_attr *attr)
{
	return (int)syscall(__NR_perf_event_open, attr, 0, -1, -1, 0);
}

void ss_pmu_thread_open(const struct ss_pmu_set *set, struct ss_pmu_thread *th)
{
	ss_perf_open_fn open_fn = set->open_fn ? set->open_fn : real_open;

	memset(th, 0, sizeof(*th));
	for (unsigned i = 0; i < set->nr; i++) {
		struct perf_event_attr attr = set->ev[i].attr;

		th->fd[i] = -1;
		if (!set->ev[i].encoded)
			continue;
		attr.disabled = 1;
		attr.inherit = 0;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		th->fd[i] = open_fn(&attr);
		if (th->fd[i] < 0 && (errno == EACCES || errno == EPERM)) {
			attr.exclude_kernel = 1;
			attr.exclude_hv = 1;
			th->fd[i] = open_fn(&attr);
		}
		th->err[i] = th->fd[i] < 0 ? (errno ? errno : EINVAL) : 0;
	}
}

static void each_fd(const struct ss_pmu_set *set, struct ss_pmu_thread *th,
		    unsigned long request)
{
	for (unsigned i = 0; i < set->nr; i++)
		if (th->fd[i] >= 0 && ioctl(th->fd[i], request, 0) < 0 && !th->err[i])
			th->err[i] = errno;
}

void ss_pmu_thread_enable(const struct ss_pmu_set *set, struct ss_pmu_thread *th)
{
	each_fd(set, th, PERF_EVENT_IOC_ENABLE);
}

void ss_pmu_thread_disable(const struct ss_pmu_set *set, struct ss_pmu_thread *th)
{
	each_fd(set, th, PERF_EVENT_IOC_DISABLE);
}

void ss_pmu_thread_read(const struct ss_pmu_set *set, struct ss_pmu_thread *th)
{
	for (unsigned i = 0; i < set->nr; i++) {
		uint64_t buf[3];

		if (th->fd[i] < 0 || th->err[i])
			continue;
		if (read(th->fd[i], buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			th->err[i] = errno ? errno : EIO;
			continue;
		}
		/* multiplexed: scale by enabled / running, as perf stat does */
		th->value[i] = buf[2] && buf[2] < buf[1]
				       ? (uint64_t)((double)buf[0] * (double)buf[1] / (double)buf[2])
				       : buf[0];
		th->enabled[i] = buf[1];
		th->running[i] = buf[2];
	}
}

void ss_pmu_thread_close(const struct ss_pmu_set *set, struct ss_pmu_thread *th)
{
	for (unsigned i = 0; i < set->nr; i++)
		if (th->fd[i] >= 0) {
			close(th->fd[i]);
			th->fd[i] = -1;
		}
}

static void merge_one(struct ss_pmu_event *ev, unsigned i,
		      const struct ss_pmu_thread *th, unsigned nr_threads)
{
	ev->value = ev->enabled_ns = ev->running_ns = 0;
	if (!ev->encoded)
		return;
	for (unsigned t = 0; t < nr_threads; t++) {
		if (th[t].err[i]) {
			ev->status = SS_PMU_UNSUPPORTED;
			ev->err = th[t].err[i];
			snprintf(ev->why, sizeof(ev->why), "perf_event_open: %s",
				 strerror(ev->err));
			ev->value = ev->enabled_ns = ev->running_ns = 0;
			return;
		}
		ev->value += th[t].value[i];
		ev->enabled_ns += th[t].enabled[i];
		ev->running_ns += th[t].running[i];
	}
	ev->status = SS_PMU_COUNTED;
	ev->err = 0;
	ev->why[0] = '\0';
}

void ss_pmu_merge(struct ss_pmu_set *set, const struct ss_pmu_thread *th,
		  unsigned nr_threads)
{
	for (unsigned i = 0; i < set->nr; i++)
		merge_one(&set->ev[i], i, th, nr_threads);
}
