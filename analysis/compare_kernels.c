/* compare_kernels.c - compare.md's kernel (kernel.txt of the runs,
 * docs/outputs.md): the one every label ran, or, when the labels ran
 * different allocators or options, the kernel of each, and why a label
 * has no run (skipped/VARIANT__LABEL.txt, left by `make compare` for a
 * combination no kernel has). */
#include "compare_out.h"

#include <string.h>

/* "allocator=slab" -> "slab" in v (n bytes); "" if absent or unreadable. */
static void kernel_field(const char *path, const char *key, char *v, size_t n)
{
	FILE *fp = fopen(path, "r");
	char line[1200];
	size_t k = strlen(key);

	v[0] = '\0';
	if (!fp)
		return;
	while (fgets(line, sizeof(line), fp))
		if (!strncmp(line, key, k) && line[k] == '=') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(v, n, "%s", line + k + 1);
			break;
		}
	fclose(fp);
}

/* The first variant's file `dir/<sub>/<variant>__<model><ext>` that
 * exists, into path (n bytes); 0 if found. */
static int first_file(const struct ss_compare_in *in, unsigned mi, const char *sub,
		      const char *ext, char *path, size_t n)
{
	for (unsigned vi = 0; vi < in->res->variants.n; vi++) {
		FILE *fp;

		snprintf(path, n, "%s/%s/%s__%s%s", in->dir, sub, in->res->variants.v[vi],
			 in->res->models.v[mi], ext);
		if ((fp = fopen(path, "r"))) {
			fclose(fp);
			return 0;
		}
	}
	return -1;
}

void ss_compare_write_kernels(FILE *fp, const struct ss_compare_in *in)
{
	const struct ss_report_names *m = &in->res->models;
	char first[1400] = "", path[4400], alloc[64], era[32], config[1200], why[400];
	bool differ = false;

	for (unsigned mi = 0; mi < m->n; mi++) {
		char this[1400];

		if (first_file(in, mi, "runs", "/kernel.txt", path, sizeof(path))) {
			differ = true; /* a label without runs: say why below */
			continue;
		}
		kernel_field(path, "allocator", alloc, sizeof(alloc));
		kernel_field(path, "config", config, sizeof(config));
		snprintf(this, sizeof(this), "%s, options: %s", alloc, config[0] ? config : "the target's");
		if (!first[0])
			snprintf(first, sizeof(first), "%s", this);
		else if (strcmp(first, this))
			differ = true;
	}
	if (!differ) {
		if (first[0])
			fprintf(fp, "- Kernel (the runs' kernel.txt): %s\n", first);
		return;
	}
	fputs("- Kernels (each label's kernel.txt):\n", fp);
	for (unsigned mi = 0; mi < m->n; mi++) {
		if (!first_file(in, mi, "runs", "/kernel.txt", path, sizeof(path))) {
			kernel_field(path, "allocator", alloc, sizeof(alloc));
			kernel_field(path, "era", era, sizeof(era));
			kernel_field(path, "config", config, sizeof(config));
			fprintf(fp, "  - %s: %s, %s, options: %s\n", m->v[mi], alloc, era,
				config[0] ? config : "the target's");
		} else if (!first_file(in, mi, "skipped", ".txt", path, sizeof(path))) {
			FILE *f = fopen(path, "r");

			why[0] = '\0';
			if (f) {
				if (!fgets(why, sizeof(why), f))
					why[0] = '\0';
				fclose(f);
			}
			why[strcspn(why, "\n")] = '\0';
			fprintf(fp, "  - %s: not run: %s\n", m->v[mi], why[0] ? why : "(no reason recorded)");
		} else {
			fprintf(fp, "  - %s: no runs\n", m->v[mi]);
		}
	}
}
