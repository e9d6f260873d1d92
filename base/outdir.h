/* outdir.h - a command's output directory shows one whole run, or none.
 *
 * `slabsim run --out DIR` writes every file into a staging directory
 * beside it, DIR.tmp.PID (same parent, so the same file system), and only
 * when all of them are written swaps it with DIR in one rename
 * (renameat2 RENAME_EXCHANGE; a plain rename when DIR is absent or
 * empty), then removes the old files.  So:
 *  - a reader (make, report) never sees a mix of two runs: an older run's
 *    slabinfo.K-PHASE files cannot outlive a run with fewer phases, and no
 *    list of output names is needed (a new output file is covered as is);
 *  - a run that fails removes the staging directory and the previous
 *    run's files, leaving DIR empty: the old summary.csv cannot pass for
 *    the new run's;
 *  - a signal (SIGINT, SIGTERM, SIGHUP) removes the staging directory
 *    (atomic_file.h's registry); SIGKILL leaves the old run whole.
 * Why not remove the old files first and write in place: the directory
 * would hold half a run while the replay runs and after a SIGKILL, and
 * the removal would need the list of every file any run writes.
 *
 * DIR is replaced only when it is empty or holds nothing but what a run
 * writes (slabinfo, slabinfo.*, kernel.txt, *.csv, *.json, *.tmp.*) with a completion
 * mark (summary.csv or measured.csv): `--out ~` is refused, not emptied.
 */
#ifndef SS_OUTDIR_H
#define SS_OUTDIR_H

#include <stdbool.h>

#include "error.h"

struct ss_outdir {
	char dir[4096];	  /* DIR as given */
	char stage[4200]; /* DIR.tmp.PID: write here */
	int slot;	  /* the staging directory's clean-up slot, or -1 */
	int ready;	  /* begin succeeded: abort may empty DIR */
};

/* Check DIR (see above), create its parents and the staging directory. */
int ss_outdir_begin(struct ss_outdir *o, const char *dir, struct ss_error *err);
/* Put the staging directory in DIR's place and remove the old run. */
int ss_outdir_commit(struct ss_outdir *o, struct ss_error *err);
/* The run failed: remove the staging directory and the old run's files
 * from DIR (DIR itself stays, empty).  Safe after a failed begin (then
 * DIR is left alone) or a commit. */
void ss_outdir_abort(struct ss_outdir *o);
/* An error that names the staging directory ("D.tmp.PID/x: ...") names
 * the user's D/x instead. */
void ss_outdir_name_error(const struct ss_outdir *o, struct ss_error *err);
/* Whether two output directory names name one directory as words: "a/b"
 * and "./a//b/" do; symbolic links are not followed (the directories
 * may not exist yet). */
bool ss_outdir_same(const char *a, const char *b);

#endif
