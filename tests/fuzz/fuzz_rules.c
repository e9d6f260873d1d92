/* fuzz_rules.c - the Smack load2 rule-file parser
 * (workloads/smack17k/smack_parse.c: ss_smack_rules_read).  A file that loads
 * must write back (ss_smack_rules_write) to a file that loads to the same
 * rules; a file that fails must name itself in the error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "smack17k/smack_label.h"
#include "smack17k/smack_rules.h"

#define NAME "fuzz.rules"

static const char *label(const struct ss_smack_ruleset *rs, uint32_t i)
{
	return rs->labels[i].name;
}

static void check_same(const struct ss_smack_ruleset *a,
		       const struct ss_smack_ruleset *b)
{
	ss_fuzz_check(a->nr_rules == b->nr_rules, "%zu rules, %zu after round trip",
		      a->nr_rules, b->nr_rules);
	for (size_t i = 0; i < a->nr_rules; i++) {
		const struct ss_smack_rule *x = &a->rules[i], *y = &b->rules[i];

		ss_fuzz_check(!strcmp(label(a, x->subject), label(b, y->subject)) &&
			      !strcmp(label(a, x->object), label(b, y->object)) &&
			      x->access == y->access, "rule %zu changed", i);
	}
}

/* Every interned label is one the kernel imports unchanged. */
static void check_labels(const struct ss_smack_ruleset *rs)
{
	for (uint32_t i = 0; i < rs->nr_labels; i++) {
		const struct ss_smack_label *l = &rs->labels[i];

		ss_fuzz_check(strlen(l->name) == l->len, "label %u length", i);
		ss_fuzz_check(ss_smack_parse_label_len(l->name, l->len) == l->len,
			      "label '%s' would be cut by the kernel", l->name);
	}
}

/* fmemopen() refuses a zero-length buffer: an empty input is a stream
 * positioned at the end of a one-byte one. */
static FILE *open_bytes(const void *data, size_t size)
{
	static char empty[1];
	FILE *fp = fmemopen(size ? (void *)data : empty, size ? size : 1, "r");

	if (fp && !size)
		fseek(fp, 0, SEEK_END);
	return fp;
}

static void round_trip(const struct ss_smack_ruleset *rs)
{
	struct ss_smack_ruleset again;
	struct ss_error err = {{0}};
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len), *in;

	if (!out)
		return;
	ss_fuzz_check(ss_smack_rules_write(rs, out, NULL) == 0, "write failed");
	fclose(out);
	in = open_bytes(buf, len);
	if (in) {
		ss_smack_ruleset_init(&again);
		ss_fuzz_check(ss_smack_rules_read(&again, in, "again", &err) == 0,
			      "written rules do not load: %s", err.msg);
		check_same(rs, &again);
		ss_smack_ruleset_release(&again);
		fclose(in);
	}
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_smack_ruleset rs;
	struct ss_error err = {{0}};
	FILE *fp = open_bytes(data, size);

	if (!fp)
		return 0;
	ss_smack_ruleset_init(&rs);
	if (ss_smack_rules_read(&rs, fp, NAME, &err) == 0) {
		check_labels(&rs);
		round_trip(&rs);
	} else {
		ss_fuzz_check_names_file(err.msg, NAME);
	}
	ss_smack_ruleset_release(&rs);
	fclose(fp);
	return 0;
}
