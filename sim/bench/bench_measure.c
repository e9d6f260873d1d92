/* bench_measure.c - one replay in a forked child: its peak RSS is then its
 * own (getrusage in the child), not the maximum over every replay the
 * bench ran, and its CPU time is its own.  The result comes back through
 * a pipe. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

struct child_report {
	int ok;
	struct ss_bench_result res;
	char msg[sizeof(((struct ss_error *)0)->msg)];
};

static uint64_t current_rss_kib(void)
{
	unsigned long long size, resident;
	FILE *fp = fopen("/proc/self/statm", "r");
	int n;

	if (!fp)
		return 0;
	n = fscanf(fp, "%llu %llu", &size, &resident);
	fclose(fp);
	return n == 2 ? resident * (uint64_t)sysconf(_SC_PAGESIZE) / 1024 : 0;
}

static double cpu_time(const struct rusage *ru)
{
	return (double)(ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) +
	       (double)(ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e-6;
}

static void child(int fd, const char *trace, const char *model,
		  const struct ss_bench_opts *o)
{
	struct child_report rep;
	struct ss_error err = {{0}};
	struct rusage ru0, ru;
	uint64_t start = current_rss_kib();

	memset(&rep, 0, sizeof(rep));
	getrusage(RUSAGE_SELF, &ru0);
	rep.ok = !ss_bench_replay(trace, model, o, &rep.res, &err);
	getrusage(RUSAGE_SELF, &ru);
	rep.res.cpu_seconds = cpu_time(&ru) - cpu_time(&ru0);
	rep.res.start_rss_kib = start;
	rep.res.peak_rss_kib = (uint64_t)ru.ru_maxrss;
	memcpy(rep.msg, err.msg, sizeof(rep.msg));
	if (write(fd, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(3);
	_exit(0);
}

int ss_bench_measure(const char *trace, const char *model,
		     const struct ss_bench_opts *o, struct ss_bench_result *res,
		     struct ss_error *err)
{
	struct child_report rep;
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	fflush(NULL); /* the child must not flush our buffers again */
	if (pipe(fds))
		return ss_errorf(err, "pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return ss_errorf(err, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		close(fds[0]);
		child(fds[1], trace, model, o);
	}
	close(fds[1]);
	do
		n = read(fds[0], &rep, sizeof(rep));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(rep))
		return ss_errorf(err, "%s on %s: the measuring process died (status %d)",
				 model, trace, status);
	if (!rep.ok)
		return ss_errorf(err, "%s", rep.msg);
	*res = rep.res;
	return 0;
}
