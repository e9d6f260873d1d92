/* atomic_file.c - write to a temporary file, rename into place. */
#include "atomic_file.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An existing non-regular file: a device or FIFO the caller names. */
static int is_special(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

int ss_atomic_open(struct ss_atomic_file *f, const char *path,
		   struct ss_error *err)
{
	memset(f, 0, sizeof(*f));
	if (strlen(path) >= sizeof(f->path))
		return ss_errorf(err, "%s: path too long", path);
	strcpy(f->path, path);
	if (is_special(path)) {
		f->fp = fopen(path, "w");
		if (!f->fp)
			return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
		return 0;
	}
	snprintf(f->tmp, sizeof(f->tmp), "%s.tmp.%ld", path, (long)getpid());
	f->fp = fopen(f->tmp, "w");
	if (!f->fp)
		return ss_errorf(err, "%s: cannot create: %s", f->tmp,
				 strerror(errno));
	return 0;
}

int ss_atomic_commit(struct ss_atomic_file *f, struct ss_error *err)
{
	int bad = ferror(f->fp) || fflush(f->fp) != 0;
	int saved = errno;

	if (fclose(f->fp) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	f->fp = NULL;
	if (bad) {
		if (f->tmp[0])
			unlink(f->tmp);
		return ss_errorf(err, "%s: write failed: %s", f->path,
				 strerror(saved ? saved : EIO));
	}
	if (!f->tmp[0]) /* written in place */
		return 0;
	if (rename(f->tmp, f->path) != 0) {
		saved = errno;
		unlink(f->tmp);
		return ss_errorf(err, "%s: cannot rename into place: %s",
				 f->path, strerror(saved));
	}
	return 0;
}

void ss_atomic_abort(struct ss_atomic_file *f)
{
	if (f->fp)
		fclose(f->fp);
	f->fp = NULL;
	if (f->tmp[0])
		unlink(f->tmp);
}

int ss_mkdirs(const char *dir, struct ss_error *err)
{
	char buf[4096];
	size_t n = strlen(dir);

	if (n == 0 || n >= sizeof(buf))
		return ss_errorf(err, "%s: bad directory name", dir);
	memcpy(buf, dir, n + 1);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return ss_errorf(err, "%s: cannot create: %s", buf,
					 strerror(errno));
		*p = '/';
	}
	if (mkdir(buf, 0777) != 0 && errno != EEXIST)
		return ss_errorf(err, "%s: cannot create: %s", buf,
				 strerror(errno));
	return 0;
}
