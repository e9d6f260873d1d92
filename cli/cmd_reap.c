/* cmd_reap.c - `slabsim reap [--grace S] [--report FILE] [--done FD
 * --hold FD] -- CMD [ARG...]`: run CMD as the child subreaper of everything
 * it starts (make capture).
 *
 * Why: a process whose parent exits first is reparented to the nearest
 * child subreaper, else to init, and its last kernel objects (the
 * sighand_struct of __exit_signal() -> __cleanup_sighand(), kernel/exit.c
 * and kernel/fork.c 6.18) are freed by whoever reaps it, in that task's
 * context.  On the sandboxes slabsim is built on, init (PID 1,
 * process_api) is a task no tracepoint fires for (scripts/
 * capture-untraced.sh): measured here, 300 orphaned zombies reaped by it
 * took 300 sighand_cache objects out of /proc/slabinfo with 6
 * kmem_cache_free events in the trace.  Reaped here instead, every one of
 * those frees is an event, as it is on a machine whose init is traced.
 *
 * The command's own exit status is returned (128 + N for signal N, 127
 * if it could not be started).  After it ends, descendants already dead
 * are reaped at once and running ones are waited for up to --grace
 * seconds; those still running then are left (init inherits them) and
 * counted in the report.
 *
 * --done and --hold (make capture): this process's own exit frees its
 * address space, files and pages (exit_mmap(), vm_area_free(), ...: ~570
 * kmem events for this binary on 6.18), objects of the capture's own.  So
 * once CMD has ended and the grace is over, CMD's status is written as a
 * line to the --done descriptor, and the report and the exit wait for a
 * line or end-of-file on the --hold descriptor: the caller lets go after
 * its tracing window and its after-snapshot.  Nothing is reaped
 * meanwhile: an orphan that ends then stays a zombie, its objects held,
 * until init reaps it after the exit. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "opts.h"

enum { O_CMD, O_GRACE, O_REPORT, O_DONE, O_HOLD, O_HELP, NR_OPTS };

#define REAP_GRACE_DEFAULT 1
#define REAP_GRACE_MAX 3600
#define REAP_POLL_NS 10000000L /* 10 ms between looks at running descendants */
#define REAP_FD_MAX 65535

static const struct ss_opt specs[NR_OPTS] = {
	[O_CMD] = {NULL, NULL, "CMD", NULL},
	[O_GRACE] = {"grace", "-g", "S",
		     "seconds to wait, after CMD ends, for descendants still\n"
		     "running (default " SS_OPT_STR(REAP_GRACE_DEFAULT) ")"},
	[O_REPORT] = {"report", "-r", "FILE",
		      "write orphans_reaped=N and orphans_left=N lines to FILE"},
	[O_DONE] = {"done", NULL, "FD",
		    "once CMD has ended and the grace is over, write CMD's exit\n"
		    "status (as returned) as a line to descriptor FD (with --hold)"},
	[O_HOLD] = {"hold", NULL, "FD",
		    "then wait for a line or end-of-file on descriptor FD before\n"
		    "writing the report and exiting (with --done): make capture\n"
		    "lets go after its tracing window, so that this exit is not in\n"
		    "it; nothing is reaped meanwhile"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void reap_usage(FILE *out);

static const struct ss_opt_set opt_set = {"reap", specs, NR_OPTS, reap_usage};

static void reap_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim reap [--grace S] [--report FILE] [--done FD --hold FD] -- CMD [ARG...]\n\n"
		"Run CMD as the child subreaper (prctl PR_SET_CHILD_SUBREAPER) of every\n"
		"process it starts, so that processes orphaned by their parent's exit are\n"
		"reaped here rather than by init.  make capture runs its CMD this way: where\n"
		"init is a task no tracepoint fires for, the objects freed when it reaps a\n"
		"process (its sighand_cache object) would leave the kernel's counts with no\n"
		"event in the capture (docs/capture.md).\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: CMD's status (128 + N after signal N; 127: CMD could not be run),\n"
		     "2 bad usage.\n");
}

struct reap_args {
	char **cmd; /* argv of CMD, NULL-terminated */
	int nr_cmd;
	const char *val[NR_OPTS];
};

static int take(void *ctx, int id, const char *v)
{
	struct reap_args *a = ctx;

	if (id == O_CMD) {
		a->cmd[a->nr_cmd++] = (char *)v;
		return 0;
	}
	return ss_opt_keep(a->val, id, v);
}

static int exit_code_of(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The children of ours still running (orphans reparented to us), once
 * waitpid() has said there is one at least. */
static long children_left(void)
{
	long left = 0, child;
	char path[64];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/task/%d/children", (int)getpid());
	if (!(fp = fopen(path, "r")))
		return 1; /* (no CONFIG_PROC_CHILDREN: one, as waitpid said) */
	while (fscanf(fp, "%ld", &child) == 1)
		left++;
	fclose(fp);
	return left;
}

/* Reap until CMD (pid) has ended and no descendant is left, or grace
 * seconds after CMD's end: CMD's status in *st, descendants reaped in
 * *reaped; returns how many were still running (-1: waitpid failed). */
static long reap_all(pid_t pid, unsigned grace, int *st, unsigned long *reaped)
{
	int main_done = 0;
	double deadline = 0;
	const struct timespec poll = {0, REAP_POLL_NS};

	for (;;) {
		int s;
		pid_t w = waitpid(-1, &s, main_done ? WNOHANG : 0);

		if (w == pid) {
			*st = s;
			main_done = 1;
			deadline = now_s() + grace;
		} else if (w > 0) {
			(*reaped)++;
		} else if (w == 0) { /* descendants running, CMD done */
			if (now_s() >= deadline)
				break;
			nanosleep(&poll, NULL);
		} else if (errno == ECHILD) {
			return 0;
		} else if (errno != EINTR) {
			return -1;
		}
	}
	return children_left();
}

/* The report lines, through a temporary file renamed into place. */
static int write_report(const char *path, unsigned long reaped, long left)
{
	char tmp[4096];
	FILE *fp;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp))
		return -1;
	if (!(fp = fopen(tmp, "w")))
		return -1;
	fprintf(fp, "orphans_reaped=%lu\norphans_left=%ld\n", reaped, left);
	if (fclose(fp) || rename(tmp, path)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* --done and --hold: each descriptor open, and closed in CMD (close on
 * exec), so that the caller's ends see end-of-file when this process
 * ends. */
static int hold_fds(const struct reap_args *a, unsigned *done_fd, unsigned *hold_fd)
{
	if (!a->val[O_DONE] != !a->val[O_HOLD])
		return ss_opt_usage_err(&opt_set, "--done and --hold go together");
	if (!a->val[O_DONE])
		return 0;
	if (ss_opt_uint(&opt_set, O_DONE, a->val[O_DONE], 0, REAP_FD_MAX, done_fd) ||
	    ss_opt_uint(&opt_set, O_HOLD, a->val[O_HOLD], 0, REAP_FD_MAX, hold_fd))
		return -1;
	if (fcntl((int)*done_fd, F_SETFD, FD_CLOEXEC))
		return ss_opt_usage_err(&opt_set, "--done %u: %s", *done_fd, strerror(errno));
	if (fcntl((int)*hold_fd, F_SETFD, FD_CLOEXEC))
		return ss_opt_usage_err(&opt_set, "--hold %u: %s", *hold_fd, strerror(errno));
	return 0;
}

/* CMD's status on done_fd, then wait for a line or end-of-file on
 * hold_fd.  A caller gone (a write or read error) ends the wait. */
static void hold(int done_fd, int hold_fd, int code)
{
	char c = 0;
	ssize_t n;

	dprintf(done_fd, "%d\n", code);
	close(done_fd);
	do
		n = read(hold_fd, &c, 1);
	while ((n > 0 && c != '\n') || (n < 0 && errno == EINTR));
	close(hold_fd);
}

int ss_cmd_reap(int argc, char **argv)
{
	struct reap_args a = {0};
	unsigned grace = REAP_GRACE_DEFAULT, done_fd = 0, hold_fd = 0;
	unsigned long reaped = 0;
	long left;
	int rc, st = 0;
	pid_t pid;

	if (!(a.cmd = calloc((size_t)argc + 1, sizeof(*a.cmd)))) {
		fprintf(stderr, "slabsim reap: out of memory\n");
		return 1;
	}
	rc = ss_opt_scan(&opt_set, argc, argv, take, &a);
	if (!rc && ss_opt_uint(&opt_set, O_GRACE, a.val[O_GRACE], 0, REAP_GRACE_MAX, &grace))
		rc = -1;
	if (!rc && !a.nr_cmd)
		rc = ss_opt_usage_err(&opt_set, "no command: slabsim reap -- CMD [ARG...]");
	if (!rc)
		rc = hold_fds(&a, &done_fd, &hold_fd);
	if (rc) {
		free(a.cmd);
		return ss_opt_exit(rc);
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL))
		fprintf(stderr, "slabsim reap: warning: cannot become a child subreaper (%s): "
				"orphans go to init\n", strerror(errno));
	fflush(NULL);
	if ((pid = fork()) < 0) {
		fprintf(stderr, "slabsim reap: fork: %s\n", strerror(errno));
		free(a.cmd);
		return 127;
	}
	if (!pid) {
		execvp(a.cmd[0], a.cmd);
		fprintf(stderr, "slabsim reap: %s: %s\n", a.cmd[0], strerror(errno));
		_exit(127);
	}
	/* CMD's terminal signals reach it directly (same process group); ours
	 * are ignored so that we stay to reap what it leaves */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	/* (a caller gone makes the --done write fail, not end this process) */
	signal(SIGPIPE, SIG_IGN);
	left = reap_all(pid, grace, &st, &reaped);
	if (left < 0) { /* (no figure is written that could be wrong) */
		fprintf(stderr, "slabsim reap: waitpid: %s\n", strerror(errno));
		free(a.cmd);
		return 1;
	}
	if (a.val[O_DONE])
		hold((int)done_fd, (int)hold_fd, exit_code_of(st));
	if (a.val[O_REPORT] && write_report(a.val[O_REPORT], reaped, left)) {
		fprintf(stderr, "slabsim reap: cannot write %s: %s\n", a.val[O_REPORT],
			strerror(errno));
		free(a.cmd);
		return 1;
	}
	free(a.cmd);
	return exit_code_of(st);
}
