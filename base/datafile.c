/* datafile.c - locate shipped data files. */
#include "datafile.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int try_dir(const char *dir, const char *rel, char *out, size_t n)
{
	int w = snprintf(out, n, "%s/%s", dir, rel);

	return w > 0 && (size_t)w < n && access(out, R_OK) == 0;
}

int ss_datafile_find(const char *relpath, char *out, size_t n,
		     struct ss_error *err)
{
	const char *home = getenv("SLABSIM_HOME");
	char exe[4096];
	ssize_t len;

	if (home && *home && try_dir(home, relpath, out, n))
		return 0;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		exe[len] = '\0';
		/* build/slabsim and build/asan/slabsim both sit under the tree */
		char *dir = dirname(exe);
		for (int up = 0; up < 3; up++) {
			char cand[4200];

			snprintf(cand, sizeof(cand), "%s", dir);
			for (int i = 0; i <= up; i++)
				strncat(cand, "/..", sizeof(cand) - strlen(cand) - 1);
			if (try_dir(cand, relpath, out, n))
				return 0;
		}
	}
	if (try_dir(".", relpath, out, n))
		return 0;
	return ss_errorf(err, "%s: not found (set SLABSIM_HOME to the slabsim source tree)",
			 relpath);
}
