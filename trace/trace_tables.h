/* trace_tables.h - internals shared by the trace reader and writer. */
#ifndef SS_TRACE_TABLES_H
#define SS_TRACE_TABLES_H

#include <stddef.h>

#include "trace.h"

int ss_trace_tables_init(struct ss_trace_tables *tb);
void ss_trace_tables_release(struct ss_trace_tables *tb);
/* Returns the api index of the cache (existing or new), -1 on ENOMEM. */
int ss_trace_tables_add_cache(struct ss_trace_tables *tb, const char *name,
			      unsigned size, unsigned align, unsigned flags);
int ss_trace_tables_set_meta(struct ss_trace_tables *tb, const char *key,
			     const char *value);
/* Bring dst, a copy of src made by this function (or empty: init'ed),
 * up to src: the names and caches src added since (at the same indexes:
 * a reader only ever adds), and every meta pair.  dst shares nothing with
 * src, so one thread may read it while another reads on into src.  0, or
 * -1 when out of memory. */
int ss_trace_tables_sync(struct ss_trace_tables *dst, const struct ss_trace_tables *src);
/* 1 if s can be a site, cache, label or phase name. */
int ss_trace_name_ok(const char *s);
/* A meta value: ss_label_ok() (base/escape.h) and at most SS_BIN_MAX_META
 * bytes -- what both formats can carry and every output can print. */
int ss_trace_meta_value_ok(const char *s);
/* "hwcache,rcu,ctor,kmalloc,freeptr" <-> SS_CF_* */
int ss_cache_flags_parse(const char *s, unsigned *out);
void ss_cache_flags_str(unsigned flags, char *buf, size_t n);

#endif
