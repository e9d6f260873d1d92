/* test_progress.c - the progress line: its text, and that it appears only
 * on a terminal, only after two seconds, and is erased at the end.  The
 * terminal is a pseudo-terminal (skipped when none can be opened). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "progress.h"
#include "test_util.h"

/* ---- the text ------------------------------------------------------------- */

static void test_format_known_total(void **state)
{
	char buf[256];
	size_t n;

	(void)state;
	/* 1/4 of the bytes in 10 s: 30 s left; 2 000 000 events / 10 s. */
	n = ss_progress_format(buf, sizeof(buf), 79, "ref.trace traced", 2000000,
			       10.0, 250, 1000);
	assert_int_equal(n, strlen(buf));
	assert_true(n <= 79);
	assert_non_null(strstr(buf, "ref.trace traced ["));
	assert_non_null(strstr(buf, " 25%  2M events  200k/s  ETA 30s"));
	/* a quarter of the bar is filled */
	{
		const char *open = strchr(buf, '['), *close = strchr(buf, ']');
		size_t bar = (size_t)(close - open - 1), full = 0;

		for (const char *c = open + 1; c < close; c++)
			full += *c == '#';
		assert_true(bar >= 10 && bar <= 40);
		assert_int_equal(full, (bar + 2) / 4);
	}
}

static void test_format_unknown_total(void **state)
{
	char buf[256];

	(void)state;
	ss_progress_format(buf, sizeof(buf), 79, "stdin traced", 12345, 125.0, 0, 0);
	assert_string_equal(buf, "stdin traced 12.3k events  99/s  2m05s");
}

static void test_format_narrow(void **state)
{
	char buf[256];
	size_t n;

	(void)state;
	/* The label gives way to the bar, never the numbers. */
	n = ss_progress_format(buf, sizeof(buf), 50,
			       "a-very-long-trace-name.trace traced+FZPU", 999,
			       3.0, 1, 2);
	assert_true(n <= 50);
	assert_non_null(strstr(buf, "[#####.....]  50%  999 events  333/s  ETA 3s"));
	/* 2 hours left */
	ss_progress_format(buf, sizeof(buf), 80, "x", 10, 3600.0, 1, 3);
	assert_non_null(strstr(buf, "ETA 2h00m"));
}

/* ---- on a terminal ---------------------------------------------------------- */

struct pty {
	int master, slave;
};

static int open_pty(struct pty *t)
{
	const char *name;

	t->master = posix_openpt(O_RDWR | O_NOCTTY);
	if (t->master < 0 || grantpt(t->master) || unlockpt(t->master) ||
	    !(name = ptsname(t->master)))
		return -1;
	t->slave = open(name, O_RDWR | O_NOCTTY);
	return t->slave < 0 ? -1 : 0;
}

/* What the terminal received so far (without waiting when nothing came). */
static size_t drain(int master, char *buf, size_t n)
{
	struct pollfd pfd = {.fd = master, .events = POLLIN};
	size_t got = 0;

	while (got + 1 < n && poll(&pfd, 1, 50) > 0) {
		ssize_t r = read(master, buf + got, n - 1 - got);

		if (r <= 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	return got;
}

static void test_terminal(void **state)
{
	struct ss_progress p;
	struct pty t;
	char out[1024];

	(void)state;
	if (open_pty(&t))
		skip();
	setenv("SLABSIM_PROGRESS", "", 1);
	unsetenv("MAKEFLAGS");
	ss_progress_start(&p, t.slave, "ref.trace traced", NULL);
	assert_true(p.enabled);
	p.total_bytes = 1000; /* as if the input were a 1000-byte file */
	/* quiet during the first two seconds */
	ss_progress_tick_at(&p, 4096, 100, p.start + 1.9);
	assert_int_equal(drain(t.master, out, sizeof(out)), 0);
	/* then one line, starting with \r, erasing to the end of the line */
	ss_progress_tick_at(&p, 8192, 500, p.start + 2.5);
	assert_true(drain(t.master, out, sizeof(out)) > 0);
	assert_int_equal(out[0], '\r');
	assert_non_null(strstr(out, " 50%  8.19k events"));
	assert_non_null(strstr(out, "\033[K"));
	/* no redraw within 0.2 s */
	ss_progress_tick_at(&p, 9000, 600, p.start + 2.6);
	assert_int_equal(drain(t.master, out, sizeof(out)), 0);
	ss_progress_tick_at(&p, 9000, 600, p.start + 2.8);
	assert_non_null((drain(t.master, out, sizeof(out)), strstr(out, " 60%")));
	/* the end erases it */
	ss_progress_done(&p);
	drain(t.master, out, sizeof(out));
	assert_string_equal(out, "\r\033[K");
	close(t.slave);
	close(t.master);
}

static void test_terminal_turned_off(void **state)
{
	struct ss_progress p;
	struct pty t;

	(void)state;
	if (open_pty(&t))
		skip();
	/* a parallel make's jobserver */
	unsetenv("SLABSIM_PROGRESS");
	setenv("MAKEFLAGS", " -j2 --jobserver-auth=fifo:/tmp/x", 1);
	ss_progress_start(&p, t.slave, "x", NULL);
	assert_false(p.enabled);
	/* ... unless asked */
	setenv("SLABSIM_PROGRESS", "1", 1);
	ss_progress_start(&p, t.slave, "x", NULL);
	assert_true(p.enabled);
	setenv("SLABSIM_PROGRESS", "0", 1);
	unsetenv("MAKEFLAGS");
	ss_progress_start(&p, t.slave, "x", NULL);
	assert_false(p.enabled);
	unsetenv("SLABSIM_PROGRESS");
	close(t.slave);
	close(t.master);
}

/* A pipe is no terminal: nothing is ever written. */
static void test_pipe_quiet(void **state)
{
	struct ss_progress p;
	int fds[2];
	char out[64];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	unsetenv("SLABSIM_PROGRESS");
	ss_progress_start(&p, fds[1], "x", NULL);
	assert_false(p.enabled);
	ss_progress_tick_at(&p, 1000000, 0, p.start + 100);
	ss_progress_done(&p);
	close(fds[1]);
	assert_int_equal(read(fds[0], out, sizeof(out)), 0);
	close(fds[0]);
}

/* ss_progress_lines: a pipe gets a whole line per tenth of the input,
 * none before the delay, none twice for one tenth. */
static void test_pipe_lines(void **state)
{
	char path[TU_PATH_MAX], buf[1000], out[2048];
	struct ss_progress p;
	int fds[2], lines = 0;
	ssize_t n;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	tu_tmp_file(path, sizeof(path), buf, sizeof(buf));
	assert_int_equal(pipe(fds), 0);
	unsetenv("SLABSIM_PROGRESS");
	setenv("MAKEFLAGS", "-j2 --jobserver-auth=3,4", 1); /* lines are whole: not off */
	ss_progress_start(&p, fds[1], "x", path);
	ss_progress_lines(&p);
	assert_true(p.enabled && p.lines);
	ss_progress_tick_at(&p, 10, 500, p.start + 1);	 /* before the delay */
	ss_progress_tick_at(&p, 20, 150, p.start + 3);	 /* a tenth */
	ss_progress_tick_at(&p, 30, 190, p.start + 3.1); /* the same tenth */
	ss_progress_tick_at(&p, 40, 1000, p.start + 4);	 /* all of it */
	ss_progress_done(&p);
	close(fds[1]);
	n = read(fds[0], out, sizeof(out) - 1);
	assert_true(n > 0);
	out[n] = '\0';
	for (char *q = out; (q = strchr(q, '\n')); q++)
		lines++;
	assert_int_equal(lines, 2);
	assert_null(strchr(out, '\r'));
	assert_non_null(strstr(out, " 15%"));
	assert_non_null(strstr(out, "100%"));
	close(fds[0]);
	unlink(path);
	unsetenv("MAKEFLAGS");
}

/* The bytes done come from our own descriptor's offset in /proc. */
static void test_input_offset(void **state)
{
	char path[TU_PATH_MAX], buf[300], out[1024];
	struct ss_progress p;
	struct pty t;
	FILE *in;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	tu_tmp_file(path, sizeof(path), buf, 200);
	if (open_pty(&t)) {
		unlink(path);
		skip();
	}
	unsetenv("MAKEFLAGS");
	setenv("SLABSIM_PROGRESS", "1", 1);
	ss_progress_start(&p, t.slave, "f", path);
	assert_int_equal(p.total_bytes, 200);
	in = fopen(path, "r");
	assert_non_null(in);
	setvbuf(in, NULL, _IONBF, 0); /* the offset is exactly what was read */
	assert_int_equal(fread(buf, 1, 50, in), 50);
	p.start -= 10; /* as if ten seconds had passed */
	ss_progress_tick(&p, 77);
	drain(t.master, out, sizeof(out));
	assert_non_null(strstr(out, " 25%  77 events"));
	/* labelled with the file's name, then the label */
	snprintf(buf, sizeof(buf), "%s f [", strrchr(path, '/') + 1);
	assert_non_null(strstr(out, buf));
	ss_progress_done(&p);
	fclose(in);
	unlink(path);
	unsetenv("SLABSIM_PROGRESS");
	close(t.slave);
	close(t.master);
}

/* The input open twice (a first look left open, then the replay's
 * reading): the bytes done are the followed descriptor's, not the first
 * one found. */
static void test_follow(void **state)
{
	char path[TU_PATH_MAX], buf[300], out[1024];
	struct ss_progress p;
	struct pty t;
	FILE *first, *in;

	(void)state;
	memset(buf, 'x', sizeof(buf));
	tu_tmp_file(path, sizeof(path), buf, 200);
	if (open_pty(&t)) {
		unlink(path);
		skip();
	}
	unsetenv("MAKEFLAGS");
	setenv("SLABSIM_PROGRESS", "1", 1);
	first = fopen(path, "r"); /* at offset 0, the lower descriptor */
	in = fopen(path, "r");
	assert_non_null(first);
	assert_non_null(in);
	ss_progress_start(&p, t.slave, "f", path);
	ss_progress_follow(&p, fileno(in));
	setvbuf(in, NULL, _IONBF, 0);
	assert_int_equal(fread(buf, 1, 150, in), 150);
	p.start -= 10;
	ss_progress_tick(&p, 5);
	drain(t.master, out, sizeof(out));
	assert_non_null(strstr(out, " 75%  5 events"));
	ss_progress_done(&p);
	fclose(in);
	fclose(first);
	unlink(path);
	unsetenv("SLABSIM_PROGRESS");
	close(t.slave);
	close(t.master);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_known_total),
		cmocka_unit_test(test_format_unknown_total),
		cmocka_unit_test(test_format_narrow),
		cmocka_unit_test(test_terminal),
		cmocka_unit_test(test_terminal_turned_off),
		cmocka_unit_test(test_pipe_quiet),
		cmocka_unit_test(test_pipe_lines),
		cmocka_unit_test(test_input_offset),
		cmocka_unit_test(test_follow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
