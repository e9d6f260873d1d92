/* smack_parse.c - read a load2 rule file: "subject object access" a line.
 *
 * What the kernel would refuse with -EINVAL (smk_write_rules_list and
 * smk_parse_long_rule failing on one write) stops the load with
 * "file:line: reason".  The loader is stricter than the kernel in two
 * places, both documented in docs/workloads/smack17k.md: a label token
 * with a byte the kernel would cut the label at, and an unknown access
 * letter (3.10's smk_perm_from_str stops silently at one).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "smack_consts.h"
#include "smack_label.h"
#include "smack_rules.h"

#define BAD(...) ss_error_at(err, name, lineno, __VA_ARGS__)

static int parse_label(struct ss_smack_ruleset *rs, const char *tok,
		       const char *what, uint32_t *out, const char *name,
		       unsigned long lineno, struct ss_error *err)
{
	char why[160];
	size_t n = strlen(tok);
	int64_t idx;

	if (ss_smack_label_check(tok, n, why, sizeof(why)))
		return BAD("%s: %s", what, why);
	idx = ss_smack_ruleset_intern(rs, tok, n);
	if (idx < 0)
		return BAD("out of memory");
	*out = (uint32_t)idx;
	return 0;
}

static int parse_access(const char *tok, uint32_t *out, const char *name,
			unsigned long lineno, struct ss_error *err)
{
	char bad;

	if (!ss_smack_access_parse(tok, out, &bad))
		return 0;
	if ((unsigned char)bad > ' ' && (unsigned char)bad <= '~')
		return BAD("access '%.20s': '%c' is not an access letter (r w x a t; l b of later kernels; '-' for none)",
			   tok, bad);
	return BAD("access '%.20s': byte 0x%02x is not an access letter (r w x a t; l b of later kernels; '-' for none)",
		   tok, (unsigned char)bad);
}

/* One line without its newline.  Blank and '#' lines are skipped. */
static int parse_line(struct ss_smack_ruleset *rs, char *line, size_t len,
		      const char *name, unsigned long lineno,
		      struct ss_error *err)
{
	const char *p = line + strspn(line, " \t\r\v\f");
	char *tok[3];
	uint32_t s, o, acc;
	int n;

	if (!*p || *p == '#')
		return 0;
	n = ss_split(line, tok, 3);
	if (len > SMACK_RULE_MAXLEN)
		return BAD("rule line is %zu bytes, over the %d-byte limit of one load2 write",
			   len, SMACK_RULE_MAXLEN);
	if (n < 0)
		return BAD("too many fields (want 'subject object access'; 4-field change-rule lines are not supported)");
	if (n < 3)
		return BAD("%d field%s (want 'subject object access')", n,
			   n == 1 ? "" : "s");
	if (parse_label(rs, tok[0], "subject", &s, name, lineno, err) ||
	    parse_label(rs, tok[1], "object", &o, name, lineno, err) ||
	    parse_access(tok[2], &acc, name, lineno, err))
		return -1;
	if (lineno > UINT32_MAX)
		return BAD("too many lines");
	if (ss_smack_ruleset_add(rs, s, o, acc, (uint32_t)lineno))
		return BAD("out of memory");
	return 0;
}

int ss_smack_rules_read(struct ss_smack_ruleset *rs, FILE *fp,
			const char *name, struct ss_error *err)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	ssize_t got;
	int rc = 0;

	while ((got = getline(&line, &cap, fp)) >= 0) {
		size_t len = (size_t)got;

		lineno++;
		if (len && line[len - 1] == '\n')
			line[--len] = '\0';
		if (strlen(line) != len) {
			rc = BAD("NUL byte in line");
			break;
		}
		rc = parse_line(rs, line, len, name, lineno, err);
		if (rc)
			break;
	}
	if (!rc && ferror(fp))
		rc = ss_error_at(err, name, lineno + 1, "read error: %s",
				 strerror(errno));
	free(line);
	return rc;
}

int ss_smack_rules_load(struct ss_smack_ruleset *rs, const char *path,
			struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp)
		return ss_errorf(err, "%s: cannot open rule file: %s", path,
				 strerror(errno));
	rc = ss_smack_rules_read(rs, fp, path, err);
	fclose(fp);
	return rc;
}
