/* cmd_pick_target.c - `slabsim pick-target`: the target a capture is
 * replayed on by default, and why (allocators/target_pick.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "error.h"
#include "kconfig.h"
#include "opts.h"
#include "slabsnap.h"
#include "target_pick.h"

enum { O_META, O_SNAPSHOT, O_ALLOCATORS, O_DEFAULT, O_HELP, NR_OPTS };

static const struct ss_opt specs[NR_OPTS] = {
	[O_META] = {"meta", NULL, "FILE",
		"the capture's meta (make capture): its kernel=, machine= and\n"
		"slab_boot_params="},
	[O_SNAPSHOT] = {"snapshot", NULL, "SNAPSHOT",
		"its before-snapshot (slab-before.txt): sheaf caches, random\n"
		"kmalloc caches, kmem_buckets, and its kernel= when no meta"},
	[O_ALLOCATORS] = {"allocators", NULL, "LIST",
		"the allocators the target's era must have, blank-separated\n"
		"(slub, slub-tiny, slab; default slub, the capture's own)"},
	[O_DEFAULT] = {"default", NULL, "TARGET",
		"the target when neither says a kernel (default x86_64-6.x)"},
	[O_HELP] = {"help", "-h", NULL, "this text"},
};

static void usage(FILE *out);

static const struct ss_opt_set opt_set = {"pick-target", specs, NR_OPTS, usage};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: slabsim pick-target [--meta FILE] [--snapshot SNAPSHOT]\n"
		"                           [--allocators \"slub slab ...\"] [--default TARGET]\n\n"
		"Print the target a capture of a real kernel is replayed on by default\n"
		"(make sim TRACE=), as four lines:\n"
		"  target=NAME    the shipped target of the capture's machine whose era has\n"
		"                 the allocators and is the newest not after its kernel's\n"
		"                 version\n"
		"  config=LIST    the options its snapshot shows that the target file sets\n"
		"                 otherwise (random kmalloc caches, kmem_buckets, sheaf\n"
		"                 capacities), as run --config takes them; empty for none\n"
		"  boot=LIST      the kernel's boot parameters (meta slab_boot_params) a\n"
		"                 run takes as options (slub_min_order=3 ...), the same way\n"
		"  why=TEXT       the rule that chose them\n"
		"The rules: docs/own-trace.md, allocators/target_pick.h.\n\n");
	ss_opt_help(out, &opt_set);
	fprintf(out, "\nExit: 0 ok, 1 a file that does not read (file:line) or no target of the\n"
		     "machine has those allocators, 2 bad usage.\n");
}

/* meta's kernel=, machine= and slab_boot_params= (the file is "slabsim-capture 1", then
 * KEY=VALUE lines; scripts/capture.sh writes it). */
static int read_meta(const char *path, char kernel[128], char machine[128], char boot[512],
		     struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	char line[1024];
	unsigned long ln = 0;

	if (!fp)
		return ss_errorf(err, "%s: cannot open: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), fp)) {
		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (ln == 1 && strncmp(line, "slabsim-capture ", 16)) {
			fclose(fp);
			return ss_error_at(err, path, ln, "not a capture's meta (no 'slabsim-capture' line)");
		}
		if (!strncmp(line, "kernel=", 7))
			snprintf(kernel, 128, "%.127s", line + 7);
		else if (!strncmp(line, "machine=", 8))
			snprintf(machine, 128, "%.127s", line + 8);
		else if (!strncmp(line, "slab_boot_params=", 17))
			snprintf(boot, 512, "%.511s", line + 17);
	}
	fclose(fp);
	return 0;
}

/* "slub slab" -> a bit per allocator; 0, or -1 after a usage error. */
static int parse_allocators(const char *list, unsigned *want)
{
	char buf[128], *save = NULL;
	enum ss_allocator a;

	*want = 0;
	if (strlen(list) >= sizeof(buf))
		return ss_opt_usage_err(&opt_set, "--allocators: too long");
	strcpy(buf, list);
	for (char *w = strtok_r(buf, " \t,", &save); w; w = strtok_r(NULL, " \t,", &save)) {
		if (ss_allocator_parse(w, &a))
			return ss_opt_usage_err(&opt_set, "--allocators: unknown allocator '%s' "
						"(slub, slub-tiny, slab)", w);
		*want |= 1u << a;
	}
	return 0;
}

/* Whether s holds only characters a make variable, --config and a
 * KEY=VALUE line carry as they are. */
static bool plain(const char *s)
{
	return strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._+,=-") ==
	       strlen(s);
}

int ss_cmd_pick_target(int argc, char **argv)
{
	const char *val[NR_OPTS] = {0};
	char kernel[128] = "", machine[128] = "", boot[512] = "";
	struct ss_error err = {{0}};
	struct ss_snap snap;
	struct ss_target_pick pick;
	bool have_snap = false;
	unsigned want = 0;
	int rc = ss_opt_scan(&opt_set, argc, argv, ss_opt_keep, val);

	if (rc)
		return ss_opt_exit(rc);
	if (val[O_ALLOCATORS] && parse_allocators(val[O_ALLOCATORS], &want))
		return 2;
	if (val[O_META] && read_meta(val[O_META], kernel, machine, boot, &err))
		goto fail;
	if (val[O_SNAPSHOT]) {
		if (ss_snap_load(&snap, val[O_SNAPSHOT], &err))
			goto fail;
		have_snap = true;
	}
	if (ss_target_pick(kernel, machine, have_snap ? &snap : NULL, want,
			   val[O_DEFAULT] ? val[O_DEFAULT] : "x86_64-6.x", &pick, &err) ||
	    ss_target_pick_boot(boot, &pick, &err))
		goto fail;
	if (have_snap)
		ss_snap_release(&snap);
	/* the first two go into make variables: nothing make would read */
	if (!plain(pick.target) || !plain(pick.config) || !plain(pick.boot)) {
		fprintf(stderr, "slabsim pick-target: '%s' '%s' '%s': not a plain target name and "
			"option lists\n", pick.target, pick.config, pick.boot);
		return 1;
	}
	printf("target=%s\nconfig=%s\nboot=%s\nwhy=%s\n", pick.target, pick.config, pick.boot,
	       pick.why);
	return 0;
fail:
	if (have_snap)
		ss_snap_release(&snap);
	fprintf(stderr, "slabsim pick-target: %s\n", err.msg);
	return 1;
}
