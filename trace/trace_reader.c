/* trace_reader.c - open a trace of either format (detected from its first
 * bytes, under optional zstd) and hand events out through the backend. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace_backend.h"
#include "trace_bin.h"
#include "trace_bin_fast.h"
#include "trace_tables.h"

static const struct {
	const char *name;
	enum ss_trace_format format;
} format_names[] = {
	{"text", SS_TRACE_TEXT},
	{"text.zst", SS_TRACE_TEXT_ZSTD},
	{"sbt", SS_TRACE_BIN},
	{"sbt.zst", SS_TRACE_BIN_ZSTD},
};
#define NR_FORMATS (sizeof(format_names) / sizeof(format_names[0]))

const char *ss_trace_format_name(enum ss_trace_format f)
{
	for (size_t i = 0; i < NR_FORMATS; i++)
		if (format_names[i].format == f)
			return format_names[i].name;
	return "?";
}

int ss_trace_format_parse(const char *s, enum ss_trace_format *out)
{
	for (size_t i = 0; i < NR_FORMATS; i++) {
		if (!strcmp(s, format_names[i].name)) {
			*out = format_names[i].format;
			return 0;
		}
	}
	return -1;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

enum ss_trace_format ss_trace_format_for_path(const char *path)
{
	if (ends_with(path, ".sbt"))
		return SS_TRACE_BIN;
	if (ends_with(path, ".sbt.zst"))
		return SS_TRACE_BIN_ZSTD;
	if (ends_with(path, ".zst"))
		return SS_TRACE_TEXT_ZSTD;
	return SS_TRACE_TEXT;
}

static int detect(struct ss_trace_reader *r, struct ss_error *err)
{
	ssize_t n = ss_inbuf_fill(&r->in, SS_BIN_MAGIC_LEN, r->path, err);
	int binary, zstd = r->in.z != NULL;

	if (n < 0)
		return -1;
	binary = n >= SS_BIN_MAGIC_LEN &&
		 !memcmp(r->in.buf + r->in.pos, SS_BIN_MAGIC, SS_BIN_MAGIC_LEN);
	if (binary) {
		r->format = zstd ? SS_TRACE_BIN_ZSTD : SS_TRACE_BIN;
		return ss_bin_reader_init(r, err);
	}
	r->format = zstd ? SS_TRACE_TEXT_ZSTD : SS_TRACE_TEXT;
	return ss_text_reader_init(r, err);
}

/* A reader of path's name, its stream opened by in_open. */
static int open_reader(struct ss_trace_reader **out, const char *path, FILE *fp, FILE *tee,
		       struct ss_error *err)
{
	struct ss_trace_reader *r = calloc(1, sizeof(*r));

	if (!r || ss_trace_tables_init(&r->tb) || !(r->path = strdup(path))) {
		if (r)
			ss_trace_tables_release(&r->tb);
		free(r);
		return ss_errorf(err, "%s: out of memory", path);
	}
	if ((fp ? ss_inbuf_open_stream(&r->in, fp, tee, path, err)
		: ss_inbuf_open(&r->in, path, err)) ||
	    detect(r, err)) {
		ss_trace_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

int ss_trace_open(struct ss_trace_reader **out, const char *path,
		  struct ss_error *err)
{
	return open_reader(out, path, NULL, NULL, err);
}

int ss_trace_open_stream(struct ss_trace_reader **out, FILE *fp, FILE *tee,
			 const char *name, struct ss_error *err)
{
	return open_reader(out, name, fp, tee, err);
}

void ss_trace_stop_copy(struct ss_trace_reader *r)
{
	r->in.tee = NULL;
}

int ss_trace_header(struct ss_trace_reader *r, struct ss_error *err)
{
	struct ss_event ev;
	int rc;

	rc = ss_trace_next(r, &ev, err);
	if (rc != 1)
		return rc;
	r->held = ev;
	r->held_bin_fast = r->bin_fast;
	r->bin_fast = 0;
	r->pending = PENDING_EVENT;
	return 1;
}

void ss_trace_close(struct ss_trace_reader *r)
{
	if (!r)
		return;
	ss_inbuf_close(&r->in);
	ss_trace_tables_release(&r->tb);
	free(r->path);
	free(r);
}

/* What was kept for this call: the first event, read by
 * ss_trace_header() (1), or an error met after the first events of a
 * batch (-1). */
static int take_pending(struct ss_trace_reader *r, struct ss_event *ev, struct ss_error *err)
{
	if (r->pending == PENDING_EVENT) {
		r->pending = PENDING_NONE;
		r->bin_fast = r->held_bin_fast;
		*ev = r->held;
		return 1;
	}
	r->pending = PENDING_NONE;
	memcpy(err->msg, r->pending_msg, sizeof(err->msg));
	return -1;
}

int ss_trace_next(struct ss_trace_reader *r, struct ss_event *ev,
		  struct ss_error *err)
{
	int rc;

	if (r->bin_fast && ss_bin_fast_next(r, ev)) {
		ev->line = (unsigned long)r->events; /* its event number */
		return 1; /* the common binary alloc or free, decoded inline */
	}
	if (r->pending)
		return take_pending(r, ev, err);
	rc = r->next(r, ev, err);
	if (rc == 1 && r->bin_fast)
		ev->line = (unsigned long)r->events;
	return rc;
}

static int is_binary(const struct ss_trace_reader *r)
{
	return r->format == SS_TRACE_BIN || r->format == SS_TRACE_BIN_ZSTD;
}

void ss_trace_where(const struct ss_trace_reader *r, unsigned long line,
		    char *buf, size_t n)
{
	if (is_binary(r))
		snprintf(buf, n, "%s: event %lu", r->path, line);
	else if (line)
		snprintf(buf, n, "%s:%lu", r->path, line);
	else
		snprintf(buf, n, "%s", r->path);
}

unsigned long ss_trace_event_line(const struct ss_trace_reader *r,
				  const struct ss_event *ev, uint64_t nr)
{
	if (is_binary(r))
		return (unsigned long)(nr + 1);
	return ev->line;
}

int ss_trace_error_at(struct ss_error *err, const struct ss_trace_reader *r,
		      unsigned long line, const char *fmt, ...)
{
	char where[4200];
	va_list ap;

	ss_trace_where(r, line, where, sizeof(where));
	va_start(ap, fmt);
	ss_verror_at(err, where, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int ss_trace_next_batch(struct ss_trace_reader *r, struct ss_event *ev,
			unsigned max, struct ss_error *err)
{
	unsigned n = 0;
	int rc;

	if (r->pending)
		return take_pending(r, ev, err);
	if (r->next_batch)
		return r->next_batch(r, ev, max, err);
	while (n < max && (rc = ss_trace_next(r, &ev[n], err)) == 1)
		n++;
	if (n < max && rc < 0 && n) { /* the events before it go first */
		r->pending = PENDING_ERROR;
		memcpy(r->pending_msg, err->msg, sizeof(r->pending_msg));
	}
	return n || n == max ? (int)n : rc;
}

int ss_trace_checked(const struct ss_trace_reader *r)
{
	return r->bin_version >= SS_BIN_VERSION2;
}

void ss_trace_note_unchecked(const struct ss_trace_reader *r)
{
	if (r->bin_version == SS_BIN_VERSION)
		fprintf(stderr, "slabsim: note: %s: binary trace version 1 carries no checksum: "
			"read unchecked ('slabsim convert' rewrites it as version 2)\n", r->path);
}

const struct ss_trace_tables *ss_trace_tables(const struct ss_trace_reader *r)
{
	return &r->tb;
}

const char *ss_trace_path(const struct ss_trace_reader *r)
{
	return r->path;
}

enum ss_trace_format ss_trace_reader_format(const struct ss_trace_reader *r)
{
	return r->format;
}

uint64_t ss_trace_reader_decls(const struct ss_trace_reader *r)
{
	return r->decls;
}
