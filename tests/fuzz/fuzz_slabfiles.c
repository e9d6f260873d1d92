/* fuzz_slabfiles.c - make capture's line files about slabs: a slab-fill
 * file of any version (base/slabsnap_fill.c: ss_snap_take_fill, into a
 * snapshot of two caches) when the input starts with 'f', else a
 * slab-pages file (base/slabpages.c: ss_slabpages_load).  What loads must
 * agree with itself: no listed slab above its cache's objects per slab,
 * free objects taken only where their count is the line's and never past
 * the slab's last object; a slab-pages bitmap with as many frames as its
 * header, none outside its span.  An error names the file. */
#include <string.h>

#include "fuzz.h"
#include "slabpages.h"
#include "slabsnap.h"

static const char snapshot[] =
	"slabsim-slab 1 phase=before time=1.0 kernel=6.18.44 caches=2 aliases=0\n"
	"cache=foo name=foo aliases=0 align=8 cache_dma=0 cpu_partial=24 cpu_slabs=1,N0=1 ctor= "
	"destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=1024 objects=32,N0=32 "
	"objects_partial=4,N0=4 objs_per_slab=4 order=0 partial=3,N0=3 reclaim_account=0 "
	"sheaf_capacity=0 slab_size=1024 slabs=10,N0=10 slabs_cpu_partial=0(0) "
	"total_objects=40,N0=40\n"
	"cache=bar name=bar aliases=0 align=8 cache_dma=0 cpu_partial=24 cpu_slabs=1,N0=1 ctor= "
	"destroy_by_rcu=0 hwcache_align=0 min_partial=5 object_size=192 objects=42,N0=42 "
	"objects_partial=4,N0=4 objs_per_slab=21 order=0 partial=1,N0=1 reclaim_account=0 "
	"sheaf_capacity=0 slab_size=192 slabs=3,N0=3 slabs_cpu_partial=0(0) "
	"total_objects=63,N0=63\n";

static void check_fill(const struct ss_snap *s)
{
	for (unsigned i = 0; i < s->nr; i++) {
		const struct ss_snap_cache *c = &s->caches[i];

		for (uint32_t k = 0; k < c->nr_fill; k++) {
			const struct ss_snap_fill *f = &c->fill[k];
			unsigned set = 0;

			ss_fuzz_check(f->inuse <= c->objs_per_slab, "%s: %u in use of %u", c->name,
				      f->inuse, c->objs_per_slab);
			for (unsigned b = 0; b < 64 * SS_FILL_FREE_WORDS; b++) {
				unsigned on = f->free_bits[b / 64] >> (b % 64) & 1;

				ss_fuzz_check(!on || b < c->objs_per_slab, "%s: object %u free of %u",
					      c->name, b, c->objs_per_slab);
				set += on;
			}
			ss_fuzz_check(!f->free_known || f->kind == SS_FILL_CPU ||
					      set == c->objs_per_slab - f->inuse,
				      "%s: %u free taken with %u in use", c->name, set, f->inuse);
		}
	}
}

static void check_pages(const struct ss_slabpages *sp)
{
	uint64_t set = 0;

	for (uint64_t f = 0; f < sp->span; f++)
		set += ss_slabpages_has(sp, sp->first_pfn + f);
	ss_fuzz_check(set == sp->slab_pages, "%llu frames set, the header says %llu",
		      (unsigned long long)set, (unsigned long long)sp->slab_pages);
	ss_fuzz_check(!sp->span || sp->first_pfn + sp->span <= sp->frames,
		      "span past the frames");
	ss_fuzz_check(!ss_slabpages_has(sp, sp->first_pfn + sp->span) &&
			      (!sp->first_pfn || !ss_slabpages_has(sp, sp->first_pfn - 1)),
		      "a frame outside the span");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_error err = {{0}};
	char path[64], snap_path[64];
	int fd, snap_fd;

	if (!size)
		return 0;
	fd = ss_fuzz_memfile(data + 1, size - 1, path, sizeof(path));
	if (fd < 0)
		return 0;
	if (data[0] == 'f') {
		struct ss_snap s;
		uint64_t hash;
		unsigned skipped = 0;

		snap_fd = ss_fuzz_memfile((const uint8_t *)snapshot, sizeof(snapshot) - 1, snap_path,
					  sizeof(snap_path));
		if (snap_fd >= 0) {
			ss_fuzz_check(ss_snap_load(&s, snap_path, &err) == 0, "snapshot: %s", err.msg);
			if (ss_snap_take_fill(&s, path, &hash, &skipped, &err) == 0)
				check_fill(&s);
			else
				ss_fuzz_check_names_file(err.msg, path);
			ss_snap_release(&s);
			ss_fuzz_memfile_close(snap_fd);
		}
	} else {
		struct ss_slabpages sp;

		if (ss_slabpages_load(&sp, path, &err) == 0) {
			check_pages(&sp);
			ss_slabpages_release(&sp);
		} else {
			ss_fuzz_check_names_file(err.msg, path);
		}
	}
	ss_fuzz_memfile_close(fd);
	return 0;
}
