/* trace_source.c - a trace opened once, read as often as needed
 * (trace_source.h). */
#include "trace_source.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

int ss_trace_source_open(struct ss_trace_source *s, const char *path, struct ss_error *err)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (!(s->name = strdup(path)))
		return ss_errorf(err, "%s: out of memory", path);
	s->fp = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	if (!s->fp) {
		int e = errno;

		ss_trace_source_close(s);
		return ss_errorf(err, "%s: cannot open trace: %s", path, strerror(e));
	}
	s->seeks = !fstat(fileno(s->fp), &st) && S_ISREG(st.st_mode);
	return 0;
}

/* A file with no name in $TMPDIR (else /tmp) for a stream's copy. */
static FILE *nameless_file(const char *trace, struct ss_error *err)
{
	const char *dir = getenv("TMPDIR");
	char path[4200];
	sigset_t old;
	FILE *fp;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) { /* a file system without O_TMPFILE: a name, unlinked at once */
		if ((size_t)snprintf(path, sizeof(path), "%s/slabsim-trace.XXXXXX", dir) >=
		    sizeof(path)) {
			ss_errorf(err, "%s: cannot keep a copy for a second reading: $TMPDIR is too long",
				  trace);
			return NULL;
		}
		/* no signal between the two: the name never outlives them */
		ss_cleanup_block(&old);
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
		ss_cleanup_restore(&old);
	}
	if (fd < 0 || !(fp = fdopen(fd, "w+b"))) {
		int e = errno;

		if (fd >= 0)
			close(fd);
		ss_errorf(err, "%s: cannot keep a copy for a second reading in %s: %s", trace, dir,
			  strerror(e));
		return NULL;
	}
	return fp;
}

/* The rest of the stream after the first reading, into the copy (a
 * reader may stop before the end of what it was given). */
static int copy_rest(struct ss_trace_source *s, struct ss_error *err)
{
	char buf[1 << 16];
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), s->fp)) > 0)
		if (fwrite(buf, 1, n, s->copy) != n)
			return ss_errorf(err, "%s: cannot keep a copy for a second reading: %s",
					 s->name, strerror(errno));
	if (ferror(s->fp))
		return ss_errorf(err, "%s: read error: %s", s->name, strerror(errno));
	if (fflush(s->copy))
		return ss_errorf(err, "%s: cannot keep a copy for a second reading: %s", s->name,
				 strerror(errno));
	return 0;
}

int ss_trace_source_reader(struct ss_trace_source *s, struct ss_trace_reader **r,
			   struct ss_error *err)
{
	FILE *from = s->fp, *tee = NULL;

	if (s->readers && s->last)
		return ss_errorf(err, "%s: internal error: a reader after the last", s->name);
	/* (no copy, no error yet: the first reading may be the only one) */
	if (!s->readers && !s->seeks && !(s->copy = nameless_file(s->name, &s->copy_err)))
		s->copy_failed = true;
	if (s->readers && !s->seeks && s->copy_failed) {
		*err = s->copy_err;
		return -1;
	}
	if (!s->readers) {
		tee = s->copy;
	} else if (s->seeks) {
		if (fseek(s->fp, 0, SEEK_SET))
			return ss_errorf(err, "%s: cannot read it again: %s", s->name,
					 strerror(errno));
	} else {
		if (s->readers == 1 && copy_rest(s, err))
			return -1;
		if (fseek(s->copy, 0, SEEK_SET))
			return ss_errorf(err, "%s: cannot read its copy again: %s", s->name,
					 strerror(errno));
		from = s->copy;
	}
	if (ss_trace_open_stream(r, from, tee, s->name, err))
		return -1;
	s->readers++;
	return 0;
}

void ss_trace_source_last(struct ss_trace_source *s, struct ss_trace_reader *r)
{
	s->last = true;
	if (s->readers == 1 && s->copy) { /* the stream is read once: no copy */
		ss_trace_stop_copy(r);
		fclose(s->copy);
		s->copy = NULL;
	}
}

void ss_trace_source_close(struct ss_trace_source *s)
{
	if (s->fp && s->fp != stdin)
		fclose(s->fp);
	if (s->copy)
		fclose(s->copy);
	free(s->name);
	memset(s, 0, sizeof(*s));
}
