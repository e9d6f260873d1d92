/* kmem_gfp.c - the allocation flags that choose a kmalloc type, read
 * from a kmem event's gfp_flags= and accounted= text.
 *
 * gfp_flags is printed by show_gfp_flags() (include/trace/events/
 * mmflags.h): the composite names first (GFP_KERNEL_ACCOUNT, GFP_DMA ...),
 * then the remaining __GFP_* bits, joined by '|'.  kmalloc_type()
 * (include/linux/slab.h, 4.20-6.18) reads three of them:
 *   __GFP_ACCOUNT     in __GFP_ACCOUNT and GFP_KERNEL_ACCOUNT (4.5+)
 *   __GFP_RECLAIMABLE in __GFP_RECLAIMABLE, GFP_TEMPORARY (<= 4.14) and
 *                     GFP_RECLAIMABLE (the 3.x name, trace/events/gfpflags.h)
 *   __GFP_DMA         in __GFP_DMA and GFP_DMA (not GFP_DMA32: another zone)
 * A tool that could not name the flags prints a number: then only the
 * bits that never moved are read, ___GFP_DMA 0x01 and ___GFP_RECLAIMABLE
 * 0x10 (include/linux/gfp_types.h, 6.x, and gfp.h since 2.6.24);
 * ___GFP_ACCOUNT's bit differs between eras, so accounting comes from
 * accounted= there.  accounted=true (6.0+: __GFP_ACCOUNT, or a
 * SLAB_ACCOUNT cache) is __GFP_ACCOUNT.
 */
#include <string.h>

#include "import_read.h"
#include "parse.h"
#include "trace.h"

#define GFP_BIT_DMA 0x01ull	    /* ___GFP_DMA */
#define GFP_BIT_RECLAIMABLE 0x10ull /* ___GFP_RECLAIMABLE */

static const struct {
	const char *name;
	uint32_t gfp;
} gfp_names[] = {
	{"__GFP_ACCOUNT", SS_GFP_ACCOUNT},     {"GFP_KERNEL_ACCOUNT", SS_GFP_ACCOUNT},
	{"__GFP_RECLAIMABLE", SS_GFP_RECLAIMABLE}, {"GFP_TEMPORARY", SS_GFP_RECLAIMABLE},
	{"GFP_RECLAIMABLE", SS_GFP_RECLAIMABLE},
	{"__GFP_DMA", SS_GFP_DMA},	       {"GFP_DMA", SS_GFP_DMA},
};

static uint32_t from_number(const char *s)
{
	uint64_t v;

	if (ss_parse_u64(s, UINT64_MAX, &v))
		return 0;
	return (v & GFP_BIT_DMA ? SS_GFP_DMA : 0) |
	       (v & GFP_BIT_RECLAIMABLE ? SS_GFP_RECLAIMABLE : 0);
}

static uint32_t from_names(const char *s)
{
	uint32_t gfp = 0;

	while (*s) {
		size_t n = strcspn(s, "|");
		char num[24];

		/* __print_flags() prints the bits no name covers as a number
		 * (3.x has no GFP_DMA name) */
		if (n > 2 && n < sizeof(num) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			memcpy(num, s, n);
			num[n] = '\0';
			gfp |= from_number(num);
		}
		for (size_t i = 0; i < sizeof(gfp_names) / sizeof(gfp_names[0]); i++)
			if (strlen(gfp_names[i].name) == n && !memcmp(s, gfp_names[i].name, n))
				gfp |= gfp_names[i].gfp;
		s += n;
		s += *s == '|';
	}
	return gfp;
}

uint32_t ss_import_gfp(const char *gfp_flags, const char *accounted)
{
	uint32_t gfp = 0;

	if (gfp_flags && *gfp_flags)
		gfp = (gfp_flags[0] >= '0' && gfp_flags[0] <= '9') ? from_number(gfp_flags)
								   : from_names(gfp_flags);
	if (accounted && (!strcmp(accounted, "true") || !strcmp(accounted, "1")))
		gfp |= SS_GFP_ACCOUNT;
	return gfp;
}
