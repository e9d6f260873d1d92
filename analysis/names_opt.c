/* names_opt.c - name lists from the command line (names_opt.h). */
#include "names_opt.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

#define MAX_NAMES 256

int names_opt_parse(const char *cmd, const char *opt, const char *arg,
		    struct rp_names *l)
{
	char buf[4096], *tok[MAX_NAMES];
	int n;

	if (l->n) {
		fprintf(stderr, "slabsim %s: %s given twice\n", cmd, opt);
		return -1;
	}
	if (strlen(arg) >= sizeof(buf) ||
	    (n = ss_split(strcpy(buf, arg), tok, MAX_NAMES)) <= 0) {
		fprintf(stderr, "slabsim %s: %s: expected 1 to %d names\n", cmd,
			opt, MAX_NAMES);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		if (!rp_name_ok(tok[i]) || rp_names_find(l, tok[i]) >= 0) {
			fprintf(stderr, "slabsim %s: %s: '%s' is %s\n", cmd, opt,
				tok[i], rp_name_ok(tok[i]) ? "listed twice"
							   : "not [A-Za-z0-9._+-]+");
			return -1;
		}
		if (rp_names_add(l, tok[i])) {
			fprintf(stderr, "slabsim %s: out of memory\n", cmd);
			return -1;
		}
	}
	return 0;
}
