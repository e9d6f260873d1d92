/* fuzz_place.c - the placement file parser (allocators/override.c:
 * ss_overrides_load).  What it accepts is well formed (named sites,
 * caches with a size and a power-of-two alignment, classes ascending
 * multiples of 8) and reads back the same after ss_overrides_write; an
 * error names the file. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "override.h"

static void check(const struct ss_overrides *ov)
{
	for (unsigned i = 0; i < ov->nr; i++) {
		const struct ss_ov_rule *r = &ov->rule[i];

		ss_fuzz_check(r->site && r->site[0] && r->cache[0], "rule %u unnamed", i);
		if (r->kind == SS_OV_CACHE)
			ss_fuzz_check(r->spec.object_size > 0 && !(r->spec.align & (r->spec.align - 1)),
				      "rule %u: size %u align %u", i, r->spec.object_size,
				      r->spec.align);
	}
	for (unsigned i = 0; i < ov->nr_classes; i++)
		ss_fuzz_check(ov->classes[i] && !(ov->classes[i] % 8) &&
				      (!i || ov->classes[i] > ov->classes[i - 1]),
			      "class %u: %u", i, ov->classes[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_overrides ov, again;
	struct ss_error err = {{0}};
	char path[64], path2[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path)), fd2;
	char *text = NULL;
	size_t len = 0;
	FILE *fp;

	if (fd < 0)
		return 0;
	if (ss_overrides_load(&ov, path, &err)) {
		ss_fuzz_check_names_file(err.msg, path);
		ss_fuzz_memfile_close(fd);
		return 0;
	}
	check(&ov);
	fp = open_memstream(&text, &len);
	ss_fuzz_check(fp && !ss_overrides_write(&ov, fp) && !fclose(fp), "write");
	fd2 = ss_fuzz_memfile((const uint8_t *)text, len, path2, sizeof(path2));
	if (fd2 >= 0) {
		ss_fuzz_check(!ss_overrides_load(&again, path2, &err), "re-read: %s", err.msg);
		ss_fuzz_check(again.nr == ov.nr && again.nr_classes == ov.nr_classes &&
				      again.minalign == ov.minalign,
			      "re-read differs");
		for (unsigned i = 0; i < ov.nr; i++)
			ss_fuzz_check(!strcmp(again.rule[i].site, ov.rule[i].site) &&
					      again.rule[i].kind == ov.rule[i].kind &&
					      !strcmp(again.rule[i].cache, ov.rule[i].cache),
				      "rule %u differs", i);
		ss_overrides_release(&again);
		ss_fuzz_memfile_close(fd2);
	}
	free(text);
	ss_overrides_release(&ov);
	ss_fuzz_memfile_close(fd);
	return 0;
}
