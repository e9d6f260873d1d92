/* costs.c - read cost tables. */
#include "costs.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datafile.h"
#include "parse.h"

static int parse_cycles(const char *s, double *out)
{
	char *end;

	if (!s[0] || s[0] == '-' || s[0] == '+')
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	return (errno || *end || !isfinite(*out) || *out > 1e9) ? -1 : 0;
}

int ss_costs_parse_file(struct ss_costs *c, const char *path, char origin,
			struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t len;
	int rc = 0;

	if (!fp)
		return ss_errorf(err, "%s: cannot open cost table: %s", path,
				 strerror(errno));
	while (!rc && (len = getline(&line, &cap, fp)) >= 0) {
		char *tok[5];
		int n, step;
		double v, lo, hi;

		lineno++;
		if (strlen(line) != (size_t)len) { /* the rest would be ignored */
			rc = ss_error_at(err, path, lineno, "NUL byte in line");
			break;
		}
		line[strcspn(line, "#")] = '\0';
		n = ss_split(line, tok, 5);
		if (n == 0)
			continue;
		if (n != 2 && n != 4) {
			rc = ss_error_at(err, path, lineno, "want 'STEP CYCLES [LOW HIGH]'");
			break;
		}
		step = ss_step_find(tok[0]);
		if (step < 0)
			rc = ss_error_at(err, path, lineno, "unknown step '%.40s' (`slabsim list steps` lists them; docs/cost-model.md)", tok[0]);
		else if (parse_cycles(tok[1], &v))
			rc = ss_error_at(err, path, lineno, "bad cycles '%.40s' (want a number >= 0)", tok[1]);
		else if (n == 4 && parse_cycles(tok[2], &lo))
			rc = ss_error_at(err, path, lineno, "bad low '%.40s' (want a number >= 0)", tok[2]);
		else if (n == 4 && parse_cycles(tok[3], &hi))
			rc = ss_error_at(err, path, lineno, "bad high '%.40s' (want a number >= 0)", tok[3]);
		else if (n == 4 && !(lo <= v && v <= hi))
			rc = ss_error_at(err, path, lineno, "range %s..%s does not hold %s (want LOW <= CYCLES <= HIGH)",
					 tok[2], tok[3], tok[1]);
		else {
			c->cycles[step] = v;
			c->low[step] = n == 4 ? lo : v;
			c->high[step] = n == 4 ? hi : v;
			c->origin[step] = origin;
		}
	}
	if (!rc && ferror(fp))
		rc = ss_errorf(err, "%s: read error: %s", path, strerror(errno));
	free(line);
	fclose(fp);
	return rc;
}

int ss_costs_load(struct ss_costs *c, const char *user_path,
		  struct ss_error *err)
{
	char path[4096];

	memset(c, 0, sizeof(*c));
	if (ss_datafile_find("allocators/costs/default.costs", path, sizeof(path), err) ||
	    ss_costs_parse_file(c, path, 'd', err))
		return -1;
	if (!user_path)
		return 0;
	snprintf(c->path, sizeof(c->path), "%s", user_path);
	return ss_costs_parse_file(c, user_path, 'u', err);
}
