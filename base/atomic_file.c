/* atomic_file.c - write to a temporary file, rename into place; remove
 * the temporary files when a signal ends the process. */
#include "atomic_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the clean-up registry ---- */

struct cleanup_entry {
	char *path; /* NULL: a free slot */
	int dir;
};

static struct cleanup_entry *reg;
static int reg_nr, reg_cap;
/* Threads (several runs of one pass write their files at once) change
 * the registry one at a time, under reg_lock.  The handler takes no lock:
 * it reads the registry once no change is under way.  A thread marks its
 * change (reg_busy) before it looks whether the process is dying
 * (reg_dying), and the handler marks dying before it looks whether a
 * change is under way, so one of them always sees the other; a thread
 * that sees it dying leaves the registry as it is. */
static pthread_mutex_t reg_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int reg_busy, reg_dying;
static const int cleanup_sigs[] = {SIGINT, SIGTERM, SIGHUP};
#define NR_CLEANUP_SIGS (int)(sizeof(cleanup_sigs) / sizeof(cleanup_sigs[0]))

void ss_cleanup_block(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (int i = 0; i < NR_CLEANUP_SIGS; i++)
		sigaddset(&set, cleanup_sigs[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void ss_cleanup_restore(const sigset_t *old)
{
	pthread_sigmask(SIG_SETMASK, old, NULL);
}

/* A flat directory's entries, then the directory, with system calls
 * only (the handler cannot use opendir(): it allocates).  Entries are
 * removed while listed, so list again until a pass finds none. */
static void remove_dir_in_handler(const char *path)
{
	char buf[4096] __attribute__((aligned(8)));
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	for (int pass = 0; pass < 64; pass++) {
		int removed = 0;
		ssize_t n;

		lseek(fd, 0, SEEK_SET);
		while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
			for (ssize_t off = 0; off < n;) {
				struct dirent64 *d = (struct dirent64 *)(buf + off);

				off += d->d_reclen;
				if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..") &&
				    !unlinkat(fd, d->d_name, 0))
					removed++;
			}
		}
		if (!removed)
			break;
	}
	close(fd);
	rmdir(path);
}

static void on_fatal_signal(int sig)
{
	int saved = errno;

	atomic_store(&reg_dying, 1);
	while (atomic_load(&reg_busy)) /* another thread's change, a few stores */
		sched_yield();

	for (int i = 0; i < reg_nr; i++) {
		if (!reg[i].path)
			continue;
		if (reg[i].dir)
			remove_dir_in_handler(reg[i].path);
		else
			unlink(reg[i].path);
	}
	errno = saved;
	/* SA_RESETHAND put the default action back: the signal, pending
	 * until we return, ends the process as it would have */
	raise(sig);
}

void ss_cleanup_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NR_CLEANUP_SIGS; i++)
		sigaddset(&sa.sa_mask, cleanup_sigs[i]);
	for (int i = 0; i < NR_CLEANUP_SIGS; i++) {
		struct sigaction old;

		/* a signal ignored by our parent (nohup) stays ignored */
		if (sigaction(cleanup_sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(cleanup_sigs[i], &sa, NULL);
	}
}

/* Enter a change of the registry (signals blocked, the lock held):
 * false when the process is dying (nothing held). */
static bool reg_enter(sigset_t *old)
{
	ss_cleanup_block(old);
	pthread_mutex_lock(&reg_lock);
	atomic_store(&reg_busy, 1);
	if (!atomic_load(&reg_dying))
		return true;
	atomic_store(&reg_busy, 0);
	pthread_mutex_unlock(&reg_lock);
	ss_cleanup_restore(old);
	return false;
}

static void reg_leave(const sigset_t *old)
{
	atomic_store(&reg_busy, 0);
	pthread_mutex_unlock(&reg_lock);
	ss_cleanup_restore(old);
}

int ss_cleanup_add(const char *path, int dir)
{
	char *copy = strdup(path);
	sigset_t old;
	int slot = -1;

	if (!copy)
		return -1;
	if (!reg_enter(&old)) {
		free(copy);
		return -1;
	}
	for (int i = 0; i < reg_nr && slot < 0; i++)
		if (!reg[i].path)
			slot = i;
	if (slot < 0 && reg_nr == reg_cap) {
		int cap = reg_cap ? reg_cap * 2 : 16;
		struct cleanup_entry *n = realloc(reg, (size_t)cap * sizeof(*n));

		if (n) {
			reg = n;
			reg_cap = cap;
		}
	}
	if (slot < 0 && reg_nr < reg_cap)
		slot = reg_nr++;
	if (slot >= 0) {
		reg[slot].dir = dir;
		reg[slot].path = copy;
	}
	reg_leave(&old);
	if (slot < 0)
		free(copy);
	return slot;
}

void ss_cleanup_del(int slot)
{
	sigset_t old;
	char *path = NULL;

	if (slot < 0 || !reg_enter(&old))
		return;
	if (slot < reg_nr) {
		path = reg[slot].path;
		reg[slot].path = NULL;
		while (reg_nr && !reg[reg_nr - 1].path)
			reg_nr--;
	}
	reg_leave(&old);
	free(path);
}

void ss_remove_flat_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	closedir(d);
	rmdir(dir);
}

void ss_remove_stale(const char *path)
{
	struct stat st;

	if (strcmp(path, "-") && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
}

/* ---- atomic files ---- */

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
	/* registered before it exists: a signal in between unlinks nothing */
	f->slot = ss_cleanup_add(f->tmp, 0) + 1;
	f->fp = fopen(f->tmp, "w");
	if (!f->fp) {
		int e = errno;

		ss_cleanup_del(f->slot - 1);
		f->slot = 0;
		return ss_errorf(err, "%s: cannot create: %s", path, strerror(e));
	}
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
		ss_atomic_abort(f);
		return ss_errorf(err, "%s: write failed: %s", f->path,
				 strerror(saved ? saved : EIO));
	}
	if (!f->tmp[0]) /* written in place */
		return 0;
	if (rename(f->tmp, f->path) != 0) {
		saved = errno;
		ss_atomic_abort(f);
		return ss_errorf(err, "%s: cannot rename into place: %s",
				 f->path, strerror(saved));
	}
	ss_cleanup_del(f->slot - 1);
	f->slot = 0;
	return 0;
}

void ss_atomic_abort(struct ss_atomic_file *f)
{
	if (f->fp)
		fclose(f->fp);
	f->fp = NULL;
	if (f->tmp[0])
		unlink(f->tmp);
	ss_cleanup_del(f->slot - 1);
	f->slot = 0;
}

/* The directory part of path and its last component. */
static void split_path(const char *path, char *dir, size_t n, const char **base)
{
	const char *slash = strrchr(path, '/');

	if (!slash) {
		snprintf(dir, n, ".");
		*base = path;
	} else {
		snprintf(dir, n, "%.*s", slash == path ? 1 : (int)(slash - path), path);
		*base = slash + 1;
	}
}

int ss_same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char da[4096], db[4096];
	const char *ba, *bb;

	if (!strcmp(a, "-") || !strcmp(b, "-"))
		return 0;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	/* one is yet to be written: same directory, same name */
	split_path(a, da, sizeof(da), &ba);
	split_path(b, db, sizeof(db), &bb);
	return !strcmp(ba, bb) && stat(da, &sa) == 0 && stat(db, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
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
