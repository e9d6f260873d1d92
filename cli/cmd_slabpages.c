/* cmd_slabpages.c - `slabsim slab-pages [--kpageflags FILE] OUT`: which
 * page frames are slab pages now (base/slabpages.h), for make capture's
 * slab-pages-start.txt.  The import takes it (--slab-pages): a free of an
 * object on a page that was no slab page then is of an object allocated
 * in the window without an event, not one from before (docs/import.md). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "commands.h"
#include "opts.h"
#include "slabpages.h"

#define DEFAULT_KPAGEFLAGS "/proc/kpageflags"

enum { O_OUT, O_KPAGEFLAGS, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_OUT] = {NULL, NULL, "OUT", "the file to write"},
	[O_KPAGEFLAGS] = {"kpageflags", NULL, "FILE",
			  "the page flags to read, 8 bytes a frame (default\n"
			  DEFAULT_KPAGEFLAGS ", root only)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void slabpages_usage(FILE *out);

static const struct ss_opt_set opt_set = {"slab-pages", specs, NR_OPTS, slabpages_usage};

static void slabpages_usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim slab-pages [--kpageflags FILE] OUT\n\n"
		"Write which page frames are slab pages now: KPF_SLAB (bit 7) of\n"
		"/proc/kpageflags, set on every page of a slab.  OUT has a header line\n"
		"'slabsim-slabpages 1 frames=F slab=S runs=R' and one 'PFN COUNT' line a\n"
		"run of slab pages (hex frame, decimal count).  make capture writes\n"
		"slab-pages-start.txt right after tracing begins; slabsim import\n"
		"--slab-pages reads it (docs/capture.md, docs/import.md).\n\n");
	ss_opt_help(out, &opt_set);
}

int ss_cmd_slabpages(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	const char *in;
	struct ss_atomic_file f;
	struct ss_error err = {{0}};
	uint64_t slab;
	int rc, fd;

	if ((rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val)))
		return ss_opt_exit(rc);
	if (!val[O_OUT])
		return ss_opt_exit(ss_opt_usage_err(&opt_set, "want OUT"));
	in = val[O_KPAGEFLAGS] ? val[O_KPAGEFLAGS] : DEFAULT_KPAGEFLAGS;
	if ((fd = open(in, O_RDONLY)) < 0) {
		fprintf(stderr, "slabsim slab-pages: %s: %s\n", in, strerror(errno));
		return 1;
	}
	rc = ss_atomic_open(&f, val[O_OUT], &err);
	if (!rc && (rc = ss_slabpages_scan(fd, in, f.fp, &slab, &err)))
		ss_atomic_abort(&f);
	else if (!rc)
		rc = ss_atomic_commit(&f, &err);
	close(fd);
	if (rc) {
		fprintf(stderr, "slabsim slab-pages: %s\n", err.msg);
		return 1;
	}
	return 0;
}
