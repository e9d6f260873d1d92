/* trace_convert.h - copy a trace into another format, streaming. */
#ifndef SS_TRACE_CONVERT_H
#define SS_TRACE_CONVERT_H

#include <stdint.h>

#include "trace.h"

/* Read in (any format), write out in `format`; *events gets the number of
 * events copied.  Cache and meta declarations are re-emitted before the
 * first event that follows them; comments are dropped.  out is written
 * atomically: on error nothing is left behind. */
int ss_trace_convert(const char *in, const char *out, enum ss_trace_format format,
		     uint64_t *events, struct ss_error *err);

#endif
