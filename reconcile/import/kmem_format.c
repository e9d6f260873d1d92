/* kmem_format.c - which label each kmem field is printed under.
 *
 * Lines are parsed by label ("ptr=..."), never by position, so a kernel
 * that adds, drops or reorders fields (6.1 added node= and accounted=,
 * name= moved into kmem_cache_alloc) still imports.  A tracefs format file
 * goes one step further: its `print fmt:` says which REC->field each
 * `label=%x` prints, so a renamed label is found by its field name.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import_read.h"

static const char *const field_names[SS_KF_NR] = {
	[SS_KF_CALL_SITE] = "call_site",
	[SS_KF_PTR] = "ptr",
	[SS_KF_BYTES_REQ] = "bytes_req",
	[SS_KF_BYTES_ALLOC] = "bytes_alloc",
	[SS_KF_NAME] = "name",
	[SS_KF_GFP] = "gfp_flags",
	[SS_KF_ACCOUNTED] = "accounted",
};

#define MAX_CONV 32 /* conversions in one print fmt */

void ss_kmem_labels_default(struct ss_kmem_labels *l)
{
	for (int e = 0; e < SS_KE_NR; e++)
		for (int f = 0; f < SS_KF_NR; f++)
			snprintf(l->label[e][f], SS_KMEM_LABEL_MAX, "%s", field_names[f]);
}

static int event_of(const char *name)
{
	static const struct {
		const char *name;
		enum ss_kmem_event ev;
	} events[] = {
		{"kmalloc", SS_KE_KMALLOC}, {"kmalloc_node", SS_KE_KMALLOC},
		{"kmem_cache_alloc", SS_KE_CACHE_ALLOC},
		{"kmem_cache_alloc_node", SS_KE_CACHE_ALLOC},
		{"kfree", SS_KE_KFREE}, {"kmem_cache_free", SS_KE_CACHE_FREE},
	};

	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		if (!strcmp(name, events[i].name))
			return (int)events[i].ev;
	return -1;
}

/* The conversions of the quoted format: label of each (or "") in order.
 * Returns the count, *end points after the closing quote; -1 if bad. */
static int scan_format(const char *s, char labels[][SS_KMEM_LABEL_MAX],
		       const char **end)
{
	int n = 0;
	const char *p = s;

	for (; *p && *p != '"'; p++) {
		const char *q;

		if (*p == '\\' && p[1]) {
			p++;
			continue;
		}
		if (*p != '%')
			continue;
		if (p[1] == '%') {
			p++;
			continue;
		}
		if (n == MAX_CONV)
			return -1;
		labels[n][0] = '\0';
		q = p;
		if (q > s && q[-1] == '=') {
			const char *b = q - 1;

			while (b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
				b--;
			if (q - 1 - b < SS_KMEM_LABEL_MAX)
				snprintf(labels[n], SS_KMEM_LABEL_MAX, "%.*s", (int)(q - 1 - b), b);
		}
		n++;
	}
	if (*p != '"')
		return -1;
	*end = p + 1;
	return n;
}

/* The field an argument prints: REC->x or __get_str(x); "" if none. */
static void arg_field(const char *a, size_t len, char *out, size_t n)
{
	static const char *const marks[] = {"REC->", "__get_str(", "__get_dynamic_array("};
	size_t best = len;
	size_t best_mark = 0;

	out[0] = '\0';
	for (size_t m = 0; m < 3; m++) {
		const char *hit = memmem(a, len, marks[m], strlen(marks[m]));

		if (hit && (size_t)(hit - a) < best) {
			best = (size_t)(hit - a);
			best_mark = m;
		}
	}
	if (best == len)
		return;
	a += best + strlen(marks[best_mark]);
	len -= best + strlen(marks[best_mark]);
	size_t k = 0;
	while (k < len && k + 1 < n && (isalnum((unsigned char)a[k]) || a[k] == '_'))
		k++;
	snprintf(out, n, "%.*s", (int)k, a);
}

/* Split the argument list at top-level commas; field of each argument. */
static int scan_args(const char *p, char fields[][SS_KMEM_LABEL_MAX])
{
	int n = 0, depth = 0;
	const char *start;
	char quote = 0;

	p += strspn(p, " \t");
	if (*p != ',')
		return 0;
	start = ++p;
	for (;; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
			else if (!*p)
				return -1;
			continue;
		}
		if (*p == '"' || *p == '\'')
			quote = *p;
		else if (*p == '(' || *p == '{' || *p == '[')
			depth++;
		else if (*p == ')' || *p == '}' || *p == ']')
			depth--;
		if ((*p == ',' && depth == 0) || !*p || *p == '\n') {
			if (n == MAX_CONV)
				return -1;
			arg_field(start, (size_t)(p - start), fields[n++], SS_KMEM_LABEL_MAX);
			start = p + 1;
			if (*p != ',')
				return n;
		}
	}
}

/* The line number of the byte at p (for errors). */
static unsigned line_of(const char *text, const char *p)
{
	unsigned line = 1;

	for (const char *q = text; q < p; q++)
		line += *q == '\n';
	return line;
}

static int apply_print_fmt(struct ss_kmem_labels *l, int ev, const char *path,
			   const char *text, const char *fmt, struct ss_error *err)
{
	char labels[MAX_CONV][SS_KMEM_LABEL_MAX], fields[MAX_CONV][SS_KMEM_LABEL_MAX];
	const char *after;
	int nc = scan_format(fmt, labels, &after), na;
	unsigned line = line_of(text, fmt);

	if (nc < 0)
		return ss_error_at(err, path, line, "print fmt: unterminated or too long format string");
	na = scan_args(after, fields);
	if (na != nc)
		return ss_error_at(err, path, line, "print fmt: %d conversions but %d arguments", nc, na);
	for (int f = 0; f < SS_KF_NR; f++) {
		l->label[ev][f][0] = '\0';
		for (int i = 0; i < nc; i++) {
			if (strcmp(fields[i], field_names[f]))
				continue;
			if (!labels[i][0])
				return ss_error_at(err, path, line, "print fmt: field %s is printed without a 'label='",
						   field_names[f]);
			memcpy(l->label[ev][f], labels[i], SS_KMEM_LABEL_MAX);
			break;
		}
	}
	if (!l->label[ev][SS_KF_PTR][0])
		return ss_error_at(err, path, line, "print fmt: no ptr field: cannot follow objects");
	if ((ev == SS_KE_KMALLOC || ev == SS_KE_CACHE_ALLOC) &&
	    (!l->label[ev][SS_KF_BYTES_REQ][0] || !l->label[ev][SS_KF_BYTES_ALLOC][0]))
		return ss_error_at(err, path, line, "print fmt: an allocation event without bytes_req and bytes_alloc");
	return 0;
}

int ss_kmem_labels_parse(struct ss_kmem_labels *l, const char *path,
			 const char *text, struct ss_error *err)
{
	const char *name = strstr(text, "name:");
	const char *fmt = strstr(text, "print fmt:");
	char ev_name[64];
	int ev;

	if (!name || (name != text && name[-1] != '\n') ||
	    sscanf(name, "name: %63s", ev_name) != 1)
		return ss_error_at(err, path, 0, "not a tracefs format file (no 'name:' line)");
	ev = event_of(ev_name);
	if (ev < 0)
		return ss_error_at(err, path, line_of(text, name),
				   "event '%s' is not one import reads (kmalloc, kmalloc_node, kmem_cache_alloc, kmem_cache_alloc_node, kfree, kmem_cache_free)",
				   ev_name);
	if (!fmt)
		return ss_error_at(err, path, 0, "no 'print fmt:' line");
	fmt += strlen("print fmt:");
	fmt += strspn(fmt, " \t");
	if (*fmt != '"')
		return ss_error_at(err, path, line_of(text, fmt), "print fmt: want a quoted format");
	return apply_print_fmt(l, ev, path, text, fmt + 1, err);
}

int ss_kmem_labels_load(struct ss_kmem_labels *l, const char *path,
			struct ss_error *err)
{
	FILE *fp = fopen(path, "r");
	char *text;
	size_t n;
	int rc;

	if (!fp)
		return ss_errorf(err, "%s: cannot open format file: %m", path);
	text = malloc(1u << 20);
	if (!text) {
		fclose(fp);
		return ss_errorf(err, "%s: out of memory", path);
	}
	n = fread(text, 1, (1u << 20) - 1, fp);
	text[n] = '\0';
	rc = ferror(fp) ? ss_errorf(err, "%s: read error", path)
			: ss_kmem_labels_parse(l, path, text, err);
	fclose(fp);
	free(text);
	return rc;
}
