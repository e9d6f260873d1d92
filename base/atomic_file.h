/* atomic_file.h - outputs appear whole or not at all.
 *
 * Every result file is written to "<path>.tmp.<pid>" and renamed over
 * <path> only after a successful flush and close; on any error the
 * temporary file is removed, so a failed run leaves no half-written output.
 * A path that already exists and is not a regular file (/dev/null, a FIFO,
 * a terminal) is written in place: renaming over it would replace the
 * device for everyone.
 */
#ifndef SS_ATOMIC_FILE_H
#define SS_ATOMIC_FILE_H

#include <signal.h>
#include <stdio.h>

#include "error.h"

struct ss_atomic_file {
	FILE *fp;
	char path[4096];
	char tmp[4200];	/* "" when writing in place */
	int slot;	/* 1 + the tmp file's clean-up registry slot; 0: none */
};

int ss_atomic_open(struct ss_atomic_file *f, const char *path,
		   struct ss_error *err);
/* Checks every write that went through f->fp (ferror), closes, renames. */
int ss_atomic_commit(struct ss_atomic_file *f, struct ss_error *err);
void ss_atomic_abort(struct ss_atomic_file *f);

/* ---- clean-up on SIGINT, SIGTERM and SIGHUP ----
 * A registry of the temporary files and directories this process is
 * writing (every ss_atomic_open() file, a run's staging directory, a
 * spooled stdin).  ss_cleanup_signals() installs a handler that removes
 * them all -- a directory's files, then the directory -- and then dies of
 * the signal as it would have (so make still says "Interrupt").  The
 * handler only calls async-signal-safe functions (unlink, unlinkat, open,
 * getdents64, rmdir, sched_yield, raise); threads are started with those
 * signals blocked (ss_cleanup_block), so the handler runs on the first
 * thread; the registry is changed with them blocked, one thread at a
 * time, and the handler reads it only once no other thread is changing
 * it (atomic_file.c), so it sees it whole. */
void ss_cleanup_signals(void);
/* Register path (a copy is kept); dir: a flat directory, removed with
 * its files.  Returns the slot for ss_cleanup_del, or -1 (out of memory:
 * the path is then simply not cleaned up). */
int ss_cleanup_add(const char *path, int dir);
void ss_cleanup_del(int slot);
/* Block the clean-up signals in this thread (old mask into *old), e.g.
 * around pthread_create() so a new thread never takes them. */
void ss_cleanup_block(sigset_t *old);
void ss_cleanup_restore(const sigset_t *old);

/* Remove the regular files of a flat directory, then the directory
 * (best effort; for a failed run's staging directory and the like). */
void ss_remove_flat_dir(const char *dir);

/* A command that failed: remove the output it would have replaced, when
 * that is a regular file (never "-", a device, a FIFO, a symlink), so an
 * earlier run's file cannot pass for this one's.  For commands whose
 * outputs share a directory with files they do not own (report, compare,
 * sweep, import), where a staging directory (outdir.h) cannot be used. */
void ss_remove_stale(const char *path);

/* 1 when a and b name the same file: the same st_dev and st_ino when
 * both exist, else the same directory (by inode) and last component; so an
 * output is refused when it is an input, however either is spelled
 * (`import -o cap.txt ./cap.txt`, a hard link).  "-" is never a file. */
int ss_same_file(const char *a, const char *b);

/* mkdir -p */
int ss_mkdirs(const char *dir, struct ss_error *err);

#endif
