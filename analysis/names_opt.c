/* names_opt.c - name lists from the command line (names_opt.h). */
#include "names_opt.h"

#include <stdio.h>
#include <string.h>

#include "parse.h"

#define MAX_NAMES 256

int ss_names_opt_parse(const struct ss_opt_set *set, int id, const char *arg,
		    struct ss_report_names *l)
{
	const char *opt = set->opts[id].name;
	char buf[4096], *tok[MAX_NAMES];
	int n;

	if (l->n)
		return ss_opt_usage_err(set, "--%s given twice", opt);
	if (strlen(arg) >= sizeof(buf) ||
	    (n = ss_split(strcpy(buf, arg), tok, MAX_NAMES)) <= 0)
		return ss_opt_usage_err(set, "--%s: expected 1 to %d names", opt,
					MAX_NAMES);
	for (int i = 0; i < n; i++) {
		if (!ss_report_name_ok(tok[i]) || ss_report_names_find(l, tok[i]) >= 0)
			return ss_opt_usage_err(set, "--%s: '%s' is %s", opt, tok[i],
						ss_report_name_ok(tok[i]) ? "listed twice"
								   : "not [A-Za-z0-9._+-]+");
		if (ss_report_names_add(l, tok[i])) {
			fprintf(stderr, "slabsim %s: out of memory\n", set->cmd);
			return -1;
		}
	}
	return 0;
}
