/* test_util.h - what many unit tests need around the code they test:
 * scratch files and directories under /tmp, and a target loaded or the
 * test failed.  Not a test itself: linked into every tests/unit/test_*.c
 * program (Makefile, TEST_UTIL).  Every helper fails the running test
 * (cmocka) instead of returning an error, except the group setup and
 * teardown, which report to cmocka as it asks. */
#ifndef SS_TEST_UTIL_H
#define SS_TEST_UTIL_H

#include <stddef.h>

#include "slub.h"
#include "target.h"

/* Room for any path these helpers make. */
#define TU_PATH_MAX 256

/* cmocka group setup and teardown: a fresh directory for the program's
 * tests (named after the program, so a leftover says whose it is), and
 * its removal with everything in it.  0, or -1. */
int tu_dir_setup(void **state);
int tu_dir_teardown(void **state);
/* buf (cap bytes) = that directory / name. */
void tu_path(char *buf, size_t cap, const char *name);
/* tests/data/<dir>/<rel> of the source tree, from the repo root or
 * relative to the test binary (build/tests/, build/asan/tests/); fails
 * the test when it is not there. */
void tu_data_path(const char *dir, const char *rel, char *buf, size_t n);

/* A fresh directory /tmp/slabsim-PROGRAM-XXXXXX, its name in buf (cap
 * bytes); the caller removes it (tu_remove_tree). */
void tu_tmp_dir(char *buf, size_t cap);
/* A fresh file /tmp/slabsim-PROGRAM-XXXXXX holding the n bytes of data,
 * or text, its name in buf (cap bytes); the caller unlinks it. */
void tu_tmp_file(char *buf, size_t cap, const void *data, size_t n);
void tu_tmp_text(char *buf, size_t cap, const char *text);
/* rm -rf path. */
void tu_remove_tree(const char *path);

/* Write text, or n bytes of data, to path (created or truncated). */
void tu_write_text(const char *path, const char *text);
void tu_write_bytes(const char *path, const void *data, size_t n);

/* A built-in target by name, or a target file by path. */
struct ss_target tu_target(const char *name);

/* The cache the slub_debug era tests replay against: kmalloc-512
 * (8-byte aligned, slub_debug flags debug) on a one-CPU flat topology of
 * the default target in kernel era `era` (t and topo filled for it).
 * Released with ss_kcache_release() and ss_topology_release(). */
void tu_kcache_512(struct ss_kcache *s, struct ss_target *t,
		   struct ss_topology *topo, int era, unsigned debug);
/* The same on `cpus` CPUs (one node). */
void tu_kcache_512_cpus(struct ss_kcache *s, struct ss_target *t,
			struct ss_topology *topo, int era, unsigned debug,
			unsigned cpus);

#endif
