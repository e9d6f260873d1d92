/* site_scan.h - a first pass over a trace collecting the sizes each site
 * asks for (memory grows with the number of sites, not events). */
#ifndef SS_SITE_SCAN_H
#define SS_SITE_SCAN_H

#include "model.h"

int ss_site_scan(const char *trace_path, struct ss_site_sizes *out,
		 struct ss_error *err);
void ss_site_sizes_release(struct ss_site_sizes *s);

#endif
