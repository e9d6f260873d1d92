/* site_scan.h - the sizes each site asks for, collected by a pass over a
 * trace before the replay (sim/prepass.h; memory grows with the number of
 * sites, not events). */
#ifndef SS_SITE_SCAN_H
#define SS_SITE_SCAN_H

#include "model.h"

/* Take one event of the trace, in order (s zeroed before the first):
 * 0, or -1 when out of memory. */
int ss_site_sizes_note(struct ss_site_sizes *s, const struct ss_event *ev);
void ss_site_sizes_release(struct ss_site_sizes *s);

#endif
