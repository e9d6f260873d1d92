/* test_util.c - scratch files and targets for the unit tests (test_util.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_util.h"

static char group_dir[TU_PATH_MAX];

/* These two return -1 rather than fail a test: the group setup and
 * teardown use them outside any test. */

/* buf = "/tmp/slabsim-PROGRAM-XXXXXX", made unique by mkdtemp or mkstemp. */
static int template_in(char *buf, size_t cap)
{
	int n = snprintf(buf, cap, "/tmp/slabsim-%s-XXXXXX",
			 program_invocation_short_name);

	return n > 0 && (size_t)n < cap ? 0 : -1;
}

static int remove_tree(const char *path)
{
	char cmd[TU_PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", path);
	return system(cmd) ? -1 : 0;
}

int tu_dir_setup(void **state)
{
	(void)state;
	return template_in(group_dir, sizeof(group_dir)) || !mkdtemp(group_dir) ? -1 : 0;
}

int tu_dir_teardown(void **state)
{
	(void)state;
	return remove_tree(group_dir);
}

void tu_tmp_dir(char *buf, size_t cap)
{
	assert_int_equal(template_in(buf, cap), 0);
	if (!mkdtemp(buf))
		fail_msg("mkdtemp %s: %s", buf, strerror(errno));
}

void tu_tmp_file(char *buf, size_t cap, const void *data, size_t n)
{
	int fd;

	assert_int_equal(template_in(buf, cap), 0);
	fd = mkstemp(buf);
	if (fd < 0)
		fail_msg("mkstemp %s: %s", buf, strerror(errno));
	assert_int_equal(write(fd, data, n), (ssize_t)n);
	assert_int_equal(close(fd), 0);
}

void tu_tmp_text(char *buf, size_t cap, const char *text)
{
	tu_tmp_file(buf, cap, text, strlen(text));
}

void tu_remove_tree(const char *path)
{
	assert_int_equal(remove_tree(path), 0);
}

void tu_path(char *buf, size_t cap, const char *name)
{
	int n = snprintf(buf, cap, "%s/%s", group_dir, name);

	assert_true(n > 0 && (size_t)n < cap);
}

void tu_write_bytes(const char *path, const void *data, size_t n)
{
	FILE *fp = fopen(path, "wb");

	if (!fp)
		fail_msg("%s: %s", path, strerror(errno));
	assert_int_equal(fwrite(data, 1, n, fp), n);
	assert_int_equal(fclose(fp), 0);
}

void tu_write_text(const char *path, const char *text)
{
	tu_write_bytes(path, text, strlen(text));
}

void tu_kcache_512_cpus(struct ss_kcache *s, struct ss_target *t,
			struct ss_topology *topo, int era, unsigned debug,
			unsigned cpus)
{
	struct ss_error err;
	struct ss_cache_spec spec = {.object_size = 512, .align = 8, .debug = debug};

	ss_target_defaults(t);
	t->era = era;
	t->cpus = cpus;
	if (ss_topology_flat(topo, cpus, 1, &err) ||
	    ss_kcache_init(s, "kmalloc-512", &spec, t, topo, &err))
		fail_msg("%s", err.msg);
}

void tu_kcache_512(struct ss_kcache *s, struct ss_target *t,
		   struct ss_topology *topo, int era, unsigned debug)
{
	tu_kcache_512_cpus(s, t, topo, era, debug, 1);
}

struct ss_target tu_target(const char *name)
{
	struct ss_target t;
	struct ss_error err;

	if (ss_target_load(name, &t, &err))
		fail_msg("%s", err.msg);
	return t;
}

void tu_data_path(const char *dir, const char *rel, char *buf, size_t n)
{
	static const char *const up[] = {".", "../..", "../../.."};
	char exe[1024];
	ssize_t len;
	char *slash;

	snprintf(buf, n, "tests/data/%s/%s", dir, rel);
	if (!access(buf, R_OK))
		return;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	assert_true(len > 0);
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	assert_non_null(slash);
	*slash = '\0';
	for (size_t i = 1; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(buf, n, "%s/%s/tests/data/%s/%s", exe, up[i], dir, rel);
		if (!access(buf, R_OK))
			return;
	}
	fail_msg("tests/data/%s/%s not found", dir, rel);
}
