/* trace_source.h - a trace opened once and read as many times as its
 * users need: a pre-pass, then the replay.
 *
 * A file that seeks (a regular file) is opened once and each reader
 * after the first reads the same descriptor from its start again.
 * Standard input, a FIFO or any other stream that cannot seek is copied
 * while the first reader reads it into a temporary file with no name
 * (O_TMPFILE, or a name unlinked at once: nothing is left behind, even on
 * SIGKILL), and a later reader reads that copy; when the caller says no
 * other reader will follow (ss_trace_source_last), the copy stops there.
 * Every reader names the trace as the user did ("-" for standard input).
 * One reader at a time: a new one is made after the last is closed.
 */
#ifndef SS_TRACE_SOURCE_H
#define SS_TRACE_SOURCE_H

#include <stdbool.h>
#include <stdio.h>

#include "error.h"
#include "trace.h"

struct ss_trace_source {
	char *name;	/* the path given; "-": standard input */
	FILE *fp;	/* the trace, opened once */
	bool seeks;	/* fp is a regular file: read again from its start */
	FILE *copy;	/* a stream's copy (its first reading tees into it) */
	bool copy_failed; /* none could be made: a second reading fails ... */
	struct ss_error copy_err; /* ... with this */
	bool last;	/* no reader after the current one: no copy */
	unsigned readers; /* made so far */
};

/* Open path ("-": standard input) once. */
int ss_trace_source_open(struct ss_trace_source *s, const char *path, struct ss_error *err);
/* A reader from the trace's first byte: the first reads the trace, each
 * later one the same file rewound, or a stream's copy.  The caller
 * closes it (ss_trace_close) before asking for another. */
int ss_trace_source_reader(struct ss_trace_source *s, struct ss_trace_reader **r,
			   struct ss_error *err);
/* r, the current reader, is the last: a stream is no longer copied. */
void ss_trace_source_last(struct ss_trace_source *s, struct ss_trace_reader *r);
void ss_trace_source_close(struct ss_trace_source *s);

#endif
