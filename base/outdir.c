/* outdir.c - stage a run's files beside DIR, swap them in whole. */
#include "outdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A name some run writes (docs/outputs.md, docs/host-mode.md), or a
 * temporary file of one. */
static int run_file_name(const char *name)
{
	return !strcmp(name, "slabinfo") || !strncmp(name, "slabinfo.", 9) ||
	       !strcmp(name, "kernel.txt") ||
	       ends_with(name, ".csv") || ends_with(name, ".json") ||
	       strstr(name, ".tmp.") != NULL;
}

/* 0 when dir may be replaced: empty, or a finished run's files only. */
static int check_replaceable(const char *dir, struct ss_error *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int finished = 0, any = 0, rc = 0;
	char first[256] = "";

	if (!d)
		return ss_errorf(err, "%s: cannot open the output directory: %s", dir,
				 strerror(errno));
	while (!rc && (e = readdir(d))) {
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || !run_file_name(e->d_name))
			rc = ss_errorf(err, "%s: holds '%s', which no run writes: not replacing the directory (give an empty or new one)",
				       dir, e->d_name);
		if (!any++)
			snprintf(first, sizeof(first), "%s", e->d_name);
		finished |= !strcmp(e->d_name, "summary.csv") || !strcmp(e->d_name, "measured.csv");
	}
	closedir(d);
	if (!rc && any && !finished)
		rc = ss_errorf(err, "%s: holds '%s' but no summary.csv or measured.csv: not a finished run's directory, not replacing it (remove its files or give another directory)",
			       dir, first);
	return rc;
}

/* Remove what check_replaceable() accepted: regular files of run names. */
static void remove_run_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		struct stat st;

		if (run_file_name(e->d_name) &&
		    !fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

int ss_outdir_begin(struct ss_outdir *o, const char *dir, struct ss_error *err)
{
	size_t n = strlen(dir);
	struct stat st;

	memset(o, 0, sizeof(*o));
	o->slot = -1;
	while (n > 1 && dir[n - 1] == '/') /* "out/" is out */
		n--;
	if (!n || n >= sizeof(o->dir) - 32)
		return ss_errorf(err, "%s: bad output directory name", dir);
	memcpy(o->dir, dir, n);
	o->dir[n] = '\0';
	if (!strcmp(o->dir, "/") || !strcmp(o->dir, ".") || !strcmp(o->dir, "..") ||
	    ends_with(o->dir, "/.") || ends_with(o->dir, "/.."))
		return ss_errorf(err, "%s: name the output directory (it is replaced whole)", dir);
	if (stat(o->dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return ss_errorf(err, "%s: not a directory", o->dir);
	if (ss_mkdirs(o->dir, err) || check_replaceable(o->dir, err))
		return -1;
	snprintf(o->stage, sizeof(o->stage), "%s.tmp.%ld", o->dir, (long)getpid());
	ss_remove_flat_dir(o->stage); /* a dead process of our pid left it */
	o->slot = ss_cleanup_add(o->stage, 1);
	if (mkdir(o->stage, 0777)) {
		int e = errno;

		ss_cleanup_del(o->slot);
		o->slot = -1;
		return ss_errorf(err, "%s: cannot create the staging directory: %s", o->stage,
				 strerror(e));
	}
	o->ready = 1;
	return 0;
}

static int dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int empty = 1;

	if (!d)
		return 0;
	while (empty && (e = readdir(d)))
		empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
	closedir(d);
	return empty;
}

int ss_outdir_commit(struct ss_outdir *o, struct ss_error *err)
{
	/* the directory may have changed under us since begin: check again,
	 * and if someone put other files there, leave them all alone */
	if (check_replaceable(o->dir, err)) {
		o->ready = 0;
		ss_outdir_abort(o);
		return -1;
	}
	if (dir_empty(o->dir)) { /* rename() replaces an empty directory */
		if (rename(o->stage, o->dir)) {
			int e = errno;

			ss_outdir_abort(o);
			return ss_errorf(err, "%s: cannot rename the results into place: %s",
					 o->dir, strerror(e));
		}
	} else if (renameat2(AT_FDCWD, o->stage, AT_FDCWD, o->dir, RENAME_EXCHANGE)) {
		/* a file system without RENAME_EXCHANGE: empty DIR, then rename */
		remove_run_files(o->dir);
		if (rename(o->stage, o->dir)) {
			int e = errno;

			ss_outdir_abort(o);
			return ss_errorf(err, "%s: cannot rename the results into place: %s",
					 o->dir, strerror(e));
		}
	} else {
		remove_run_files(o->stage); /* the old run, now at the stage path */
		rmdir(o->stage);
	}
	ss_cleanup_del(o->slot);
	o->slot = -1;
	o->ready = 0;
	return 0;
}

void ss_outdir_abort(struct ss_outdir *o)
{
	if (o->stage[0])
		ss_remove_flat_dir(o->stage);
	ss_cleanup_del(o->slot);
	o->slot = -1;
	if (o->ready) /* begin found a run's files only: those may go */
		remove_run_files(o->dir);
	o->ready = 0;
}

/* The next component of a directory name after *p, skipping repeated
 * slashes and "." ones; its length, 0 at the end. */
static size_t next_part(const char **p)
{
	size_t len;

	for (;;) {
		while (**p == '/')
			(*p)++;
		len = strcspn(*p, "/");
		if (!(len == 1 && **p == '.'))
			return len;
		*p += len;
	}
}

bool ss_outdir_same(const char *a, const char *b)
{
	size_t la, lb;

	if ((*a == '/') != (*b == '/'))
		return false;
	do {
		la = next_part(&a);
		lb = next_part(&b);
		if (la != lb || memcmp(a, b, la))
			return false;
		a += la;
		b += lb;
	} while (la);
	return true;
}

void ss_outdir_name_error(const struct ss_outdir *o, struct ss_error *err)
{
	size_t n = strlen(o->stage);

	if (n && !strncmp(err->msg, o->stage, n)) {
		char msg[sizeof(err->msg)];

		snprintf(msg, sizeof(msg), "%s", err->msg + n);
		ss_errorf(err, "%s%s", o->dir, msg);
	}
}
