/* progress.h - a one-line progress bar on stderr for long replays.
 *
 * Drawn only when the output is a terminal and the run has lasted more than
 * SS_PROGRESS_DELAY_S; redrawn at most every SS_PROGRESS_PERIOD_S; erased
 * when the run ends, so nothing of it stays in a terminal's scrollback and
 * nothing at all reaches a file or a pipe.  Results never depend on it.
 *
 * The total is the input file's size and the part done is the offset of
 * the descriptor that reads it (found once through /proc/self/fd, read from
 * /proc/self/fdinfo), so the trace reader needs no hook: with stdin, a pipe
 * or no /proc the line shows events and rate without a percentage.
 *
 * Environment: SLABSIM_PROGRESS=0 never draws, =1 draws even under a
 * parallel make (by default a make -j jobserver in MAKEFLAGS turns it off:
 * several jobs redrawing one terminal line would garble it).
 */
#ifndef SS_PROGRESS_H
#define SS_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SS_PROGRESS_DELAY_S 2.0	 /* quiet for runs shorter than this */
#define SS_PROGRESS_PERIOD_S 0.2 /* at most five redraws a second */

struct ss_progress {
	int fd;			/* where the line goes (stderr) */
	bool enabled;		/* a terminal, and not turned off */
	bool shown;		/* a line is on screen: erase it at the end */
	double start, last_draw; /* monotonic seconds */
	char label[64];		/* what runs, e.g. "ref.trace traced" */
	char input[4096];	/* the file whose offset measures progress */
	uint64_t total_bytes;	/* its size, 0 = unknown */
	int input_fd;		/* our descriptor reading it; -1 not found yet,
				 * -2 given up */
	bool lines;		/* off a terminal: a line per tenth (ss_progress_lines) */
	unsigned tenths;	/* tenths of the input said so far */
};

/* Start timing.  fd: the terminal to draw on (checked with isatty);
 * input: the file being read ("-" or NULL: no percentage); the line is
 * labelled with input's file name, then `label`. */
void ss_progress_start(struct ss_progress *p, int fd, const char *label,
		       const char *input);
/* After ss_progress_start, for a job whose log is read (slabsim advise):
 * when fd is no terminal, a whole line each time another tenth of the
 * input is read (once SS_PROGRESS_DELAY_S have passed; a parallel make
 * does not turn it off, SLABSIM_PROGRESS=0 does). */
void ss_progress_lines(struct ss_progress *p);
/* fd is the descriptor that reads the input: the one whose offset is the
 * part done, when the process has the input open more than once (slabsim
 * advise's own look at the trace beside the replays'). */
void ss_progress_follow(struct ss_progress *p, int fd);
/* Called often (every few thousand events): cheap unless a redraw is due. */
void ss_progress_tick(struct ss_progress *p, uint64_t events);
/* The same with the clock and the bytes done given (for tests); done_bytes
 * is ignored when total_bytes is 0. */
void ss_progress_tick_at(struct ss_progress *p, uint64_t events,
			 uint64_t done_bytes, double now);
/* Erase the line if one was drawn. */
void ss_progress_done(struct ss_progress *p);

/* The line without its leading "\r": label, bar and percentage when total
 * is known, events, events per second, and the time left.  Fits `width`
 * columns (at least 20).  Returns strlen of buf. */
size_t ss_progress_format(char *buf, size_t n, unsigned width,
			  const char *label, uint64_t events, double elapsed,
			  uint64_t done_bytes, uint64_t total_bytes);

/* Monotonic clock in seconds. */
double ss_progress_now(void);

#endif
