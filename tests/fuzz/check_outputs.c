/* check_outputs.c - `check_outputs DIR|FILE...`: the strict readers of
 * tests/fuzz/strict.h on result files (a directory: every *.csv, *.json
 * and slabinfo* in it), for the e2e tests.  Prints the first violation
 * and exits 1; exits 0 when everything named passed. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "strict.h"

int main(int argc, char **argv)
{
	char why[1200];
	unsigned total = 0;

	for (int i = 1; i < argc; i++) {
		const char *p = argv[i], *base = strrchr(p, '/');
		size_t n = strlen(p);
		struct stat st;
		unsigned k = 1;
		int rc;

		base = base ? base + 1 : p;
		if (stat(p, &st)) {
			fprintf(stderr, "check_outputs: %s: missing\n", p);
			return 1;
		}
		if (S_ISDIR(st.st_mode))
			rc = strict_dir(p, &k, why, sizeof(why));
		else if (n > 4 && !strcmp(p + n - 4, ".csv"))
			rc = strict_csv(p, why, sizeof(why));
		else if (n > 5 && !strcmp(p + n - 5, ".json"))
			rc = strict_json(p, why, sizeof(why));
		else if (!strncmp(base, "slabinfo", 8))
			rc = strict_slabinfo(p, why, sizeof(why));
		else {
			fprintf(stderr, "check_outputs: %s: not CSV, JSON or slabinfo\n", p);
			return 1;
		}
		if (rc) {
			fprintf(stderr, "check_outputs: %s\n", why);
			return 1;
		}
		total += k;
	}
	printf("check_outputs: %u files ok\n", total);
	return 0;
}
