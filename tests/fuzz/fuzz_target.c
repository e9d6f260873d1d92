/* fuzz_target.c - the target-file parser (allocators/target.c:
 * ss_target_parse_file), then the SLUB geometry of every kmalloc class on
 * the target it accepted, with and without slub_debug: a target that
 * parses must be one the geometry code can lay caches out for. */
#include <string.h>

#include "fuzz.h"
#include "geometry.h"
#include "kmalloc.h"
#include "target.h"

static void check_geometry(const struct ss_target *t)
{
	static const unsigned debug[] = {0, SS_DBG_ALL, SS_DBG_ALL | SS_DBG_O};
	struct ss_error err = {{0}};

	for (int i = 0; i < ss_kmalloc_nr_classes(t); i++) {
		for (unsigned d = 0; d < 3; d++) {
			struct ss_cache_spec spec;
			struct ss_geometry g;

			if (!ss_kmalloc_class_exists(t, i))
				continue;
			ss_kmalloc_spec(t, i, debug[d], &spec);
			if (ss_geometry_compute(t, &spec, &g, &err))
				continue;
			ss_fuzz_check(g.objs_per_slab > 0 && g.size >= g.object_size,
				      "class %d: %u objects of %u bytes", i,
				      g.objs_per_slab, g.size);
			ss_fuzz_check((unsigned long)g.objs_per_slab * g.size <=
				      (unsigned long)t->page_size << g.order,
				      "class %d: %u x %u bytes overflow order %u", i,
				      g.objs_per_slab, g.size, g.order);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_target t;
	struct ss_error err = {{0}};
	char path[64];
	int fd = ss_fuzz_memfile(data, size, path, sizeof(path));

	if (fd < 0)
		return 0;
	ss_target_defaults(&t);
	if (ss_target_parse_file(path, &t, &err) == 0)
		check_geometry(&t);
	else
		ss_fuzz_check_names_file(err.msg, path);
	ss_fuzz_memfile_close(fd);
	return 0;
}
