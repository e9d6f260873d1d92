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

#include <stdio.h>

#include "error.h"

struct ss_atomic_file {
	FILE *fp;
	char path[4096];
	char tmp[4200];	/* "" when writing in place */
};

int ss_atomic_open(struct ss_atomic_file *f, const char *path,
		   struct ss_error *err);
/* Checks every write that went through f->fp (ferror), closes, renames. */
int ss_atomic_commit(struct ss_atomic_file *f, struct ss_error *err);
void ss_atomic_abort(struct ss_atomic_file *f);

/* mkdir -p */
int ss_mkdirs(const char *dir, struct ss_error *err);

#endif
