/* progress.c - the progress line of a long replay (progress.h). */
#include "progress.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

double ss_progress_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Several make jobs drawing on one terminal line would overwrite each
 * other: stay quiet under a parallel make unless asked. */
static bool allowed(void)
{
	const char *env = getenv("SLABSIM_PROGRESS");
	const char *mf = getenv("MAKEFLAGS");

	if (env && !strcmp(env, "0"))
		return false;
	if (env && !strcmp(env, "1"))
		return true;
	return !(mf && (strstr(mf, "--jobserver-auth") || strstr(mf, "--jobserver-fds")));
}

void ss_progress_start(struct ss_progress *p, int fd, const char *label,
		       const char *input)
{
	struct stat st;
	const char *base;

	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->input_fd = -2;
	p->enabled = isatty(fd) && allowed();
	/* "ref.trace traced": the trace's file name, then what replays it */
	base = input ? strrchr(input, '/') : NULL;
	snprintf(p->label, sizeof(p->label), "%s%s%s",
		 base ? base + 1 : input ? input : "", input ? " " : "",
		 label ? label : "");
	if (input && strcmp(input, "-") && strlen(input) < sizeof(p->input) &&
	    !stat(input, &st) && S_ISREG(st.st_mode) && st.st_size > 0) {
		strcpy(p->input, input);
		p->total_bytes = (uint64_t)st.st_size;
		p->input_fd = -1;
	}
	p->start = ss_progress_now();
}

/* Our descriptor open on p->input (same device and inode), or -1. */
static int find_input_fd(const struct ss_progress *p)
{
	struct stat want, st;
	struct dirent *de;
	DIR *d;
	int found = -1;

	if (stat(p->input, &want) || !(d = opendir("/proc/self/fd")))
		return -1;
	while (found < 0 && (de = readdir(d))) {
		char *end;
		long fd = strtol(de->d_name, &end, 10);

		if (*end || end == de->d_name || fd == dirfd(d) || fd == p->fd)
			continue;
		if (!fstat((int)fd, &st) && st.st_dev == want.st_dev &&
		    st.st_ino == want.st_ino)
			found = (int)fd;
	}
	closedir(d);
	return found;
}

/* The offset of fd from /proc/self/fdinfo, or 0 when unreadable. */
static uint64_t fd_offset(int fd)
{
	char path[64], line[128];
	unsigned long long pos = 0;
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	while (fgets(line, sizeof(line), fp))
		if (sscanf(line, "pos: %llu", &pos) == 1)
			break;
	fclose(fp);
	return pos;
}

static uint64_t input_done(struct ss_progress *p)
{
	if (p->input_fd == -1) {
		p->input_fd = find_input_fd(p);
		if (p->input_fd < 0) {
			p->input_fd = -2;
			p->total_bytes = 0;
		}
	}
	return p->input_fd >= 0 ? fd_offset(p->input_fd) : 0;
}

static void put(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static unsigned term_width(int fd)
{
	struct winsize ws;

	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col >= 20)
		return ws.ws_col;
	return 80;
}

void ss_progress_lines(struct ss_progress *p)
{
	const char *env = getenv("SLABSIM_PROGRESS");

	if (p->enabled || isatty(p->fd) || (env && !strcmp(env, "0")) || !p->total_bytes)
		return;
	p->enabled = p->lines = true;
}

void ss_progress_follow(struct ss_progress *p, int fd)
{
	if (p->input_fd != -2 && fd >= 0)
		p->input_fd = fd;
}

/* Lines mode: a line when another tenth of the input is done. */
static void tick_line(struct ss_progress *p, uint64_t events, uint64_t done_bytes, double now)
{
	unsigned tenths = (unsigned)(done_bytes * 10 / p->total_bytes);
	char line[512];
	size_t n;

	if (tenths <= p->tenths || tenths > 10)
		return;
	p->tenths = tenths;
	n = ss_progress_format(line, sizeof(line) - 2, 100, p->label, events, now - p->start,
			       done_bytes, p->total_bytes);
	line[n++] = '\n';
	put(p->fd, line, n);
}

void ss_progress_tick(struct ss_progress *p, uint64_t events)
{
	double now;

	if (!p->enabled)
		return;
	now = ss_progress_now();
	if (now - p->start < SS_PROGRESS_DELAY_S ||
	    ((p->shown || p->lines) && now - p->last_draw < SS_PROGRESS_PERIOD_S))
		return;
	if (p->lines) /* (reading the offset costs a file: at most 5 a second) */
		p->last_draw = now;
	ss_progress_tick_at(p, events, input_done(p), now);
}

void ss_progress_tick_at(struct ss_progress *p, uint64_t events,
			 uint64_t done_bytes, double now)
{
	char line[512];
	size_t n;

	if (!p->enabled || now - p->start < SS_PROGRESS_DELAY_S ||
	    (p->shown && now - p->last_draw < SS_PROGRESS_PERIOD_S))
		return;
	if (p->lines) {
		tick_line(p, events, done_bytes, now);
		return;
	}
	line[0] = '\r';
	/* One column short of the width: a full line would wrap on some
	 * terminals and leave the next redraw a line lower. */
	n = 1 + ss_progress_format(line + 1, sizeof(line) - 4, term_width(p->fd) - 1,
				   p->label, events, now - p->start, done_bytes,
				   p->total_bytes);
	memcpy(line + n, "\033[K", 3);
	put(p->fd, line, n + 3);
	p->shown = true;
	p->last_draw = now;
}

void ss_progress_done(struct ss_progress *p)
{
	if (p->shown)
		put(p->fd, "\r\033[K", 4);
	p->shown = false;
}

/* 950, 12.3k, 4.56M, 1.20G */
static void human(char *buf, size_t n, double v)
{
	if (v < 1e3)
		snprintf(buf, n, "%.0f", v);
	else if (v < 1e6)
		snprintf(buf, n, "%.3gk", v / 1e3);
	else if (v < 1e9)
		snprintf(buf, n, "%.3gM", v / 1e6);
	else
		snprintf(buf, n, "%.3gG", v / 1e9);
}

/* 7s, 3m05s, 2h10m */
static void duration(char *buf, size_t n, double s)
{
	unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);

	if (t < 60)
		snprintf(buf, n, "%lus", t);
	else if (t < 3600)
		snprintf(buf, n, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, n, "%luh%02lum", t / 3600, t / 60 % 60);
}

size_t ss_progress_format(char *buf, size_t n, unsigned width,
			  const char *label, uint64_t events, double elapsed,
			  uint64_t done_bytes, uint64_t total_bytes)
{
	char ev[32], rate[32], left[48], tail[160];
	double frac = total_bytes ? (double)done_bytes / (double)total_bytes : -1;
	size_t room, lab, bar;
	int len;

	if (frac > 1)
		frac = 1;
	human(ev, sizeof(ev), (double)events);
	human(rate, sizeof(rate), elapsed > 0 ? (double)events / elapsed : 0);
	if (frac > 0)
		duration(left, sizeof(left), elapsed * (1 - frac) / frac);
	if (frac >= 0)
		snprintf(tail, sizeof(tail), " %3.0f%%  %s events  %s/s%s%s",
			 100 * frac, ev, rate, frac > 0 ? "  ETA " : "",
			 frac > 0 ? left : "");
	else
		snprintf(tail, sizeof(tail), " %s events  %s/s  %s", ev, rate,
			 (duration(left, sizeof(left), elapsed), left));
	width = width < 20 ? 20 : width;
	if (width >= n)
		width = (unsigned)n - 1;
	room = strlen(tail) < width ? width - strlen(tail) : 0;
	/* The bar takes what the label leaves, 10 to 40 columns; the label
	 * gives way first. */
	lab = strlen(label);
	bar = 0;
	if (frac >= 0 && room >= lab + 3 + 10) {
		bar = room - lab - 3 > 40 ? 40 : room - lab - 3;
	} else if (frac >= 0 && room >= 13) {
		bar = 10;
		lab = room - 13;
	}
	if (lab > room)
		lab = room;
	len = snprintf(buf, n, "%.*s", (int)lab, label);
	if (bar) {
		size_t full = (size_t)(frac * (double)bar + 0.5);

		len += snprintf(buf + len, n - (size_t)len, "%s[", lab ? " " : "");
		for (size_t i = 0; i < bar && (size_t)len + 2 < n; i++)
			buf[len++] = i < full ? '#' : '.';
		buf[len++] = ']';
		buf[len] = '\0';
	}
	len += snprintf(buf + len, n - (size_t)len, "%s", tail);
	if ((size_t)len > width) {
		len = (int)width;
		buf[len] = '\0';
	}
	return (size_t)len;
}
