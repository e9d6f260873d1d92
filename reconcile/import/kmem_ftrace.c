/* kmem_ftrace.c - one line of ftrace text (the tracefs `trace` and
 * `trace_pipe` files), `trace-cmd report` or `perf script` output.
 *
 * All three print a prefix (task-pid or comm pid, "[CPU]", flag columns
 * that vary by kernel and tool, "timestamp:"), the event name (with a
 * "kmem:" subsystem prefix in perf script) and the event's own text of
 * label=value pairs.  We locate the "[CPU]" column and the event name, and
 * read the payload by label, so the prefix layout does not matter.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "import_read.h"
#include "parse.h"
#include "trace_io.h"

static int event_named(const char *s, size_t n)
{
	static const struct {
		const char *name;
		enum ss_kmem_event ev;
	} names[] = {
		{"kmalloc", SS_KE_KMALLOC}, {"kmalloc_node", SS_KE_KMALLOC},
		{"kmem_cache_alloc", SS_KE_CACHE_ALLOC},
		{"kmem_cache_alloc_node", SS_KE_CACHE_ALLOC},
		{"kfree", SS_KE_KFREE}, {"kmem_cache_free", SS_KE_CACHE_FREE},
	};
	const char *colon = memrchr(s, ':', n);

	if (colon) { /* "kmem:kmalloc": the subsystem prefix of perf script */
		n -= (size_t)(colon + 1 - s);
		s = colon + 1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i].name) == n && !memcmp(s, names[i].name, n))
			return (int)names[i].ev;
	return -1;
}

/* "[007]" -> 7 */
static int cpu_column(const char *s, size_t n, unsigned *cpu)
{
	unsigned v = 0;

	if (n < 3 || s[0] != '[' || s[n - 1] != ']' || n > 9)
		return -1;
	for (size_t i = 1; i < n - 1; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*cpu = v;
	return 0;
}

/* The PID in the token before the "[CPU]" column: ftrace and trace-cmd
 * print "comm-PID", perf script "comm PID" (a token of digits); -1 when
 * the token ends in no digits. */
static int64_t pid_of(const char *s, size_t n)
{
	size_t i = n;
	int64_t v = 0;

	while (i > 0 && isdigit((unsigned char)s[i - 1]))
		i--;
	if (i == n || n - i > 9 || (i > 0 && s[i - 1] != '-'))
		return -1;
	for (; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* The kernel's %p prints hex without 0x (hashed since 4.15); perf script
 * and trace-cmd print 0x... through libtraceevent; NULL may print as
 * "(null)" (kernel) or "(nil)" (glibc). */
static int parse_ptr(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (!strcmp(s, "(null)") || !strcmp(s, "(nil)")) {
		*out = 0;
		return 0;
	}
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		i = 2;
	if (!s[i] || strlen(s + i) > 16)
		return -1;
	for (; s[i]; i++) {
		int c = tolower((unsigned char)s[i]);

		if (!isxdigit(c))
			return -1;
		v = v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
	}
	*out = v;
	return 0;
}

/* The header of the tracefs `trace` file: events the ring buffer dropped. */
static int header_line(const char *p, struct ss_kmem_rec *rec)
{
	unsigned long long in_buf, written;

	if (sscanf(p, "# entries-in-buffer/entries-written: %llu/%llu", &in_buf,
		   &written) != 2)
		return SS_KL_SKIP;
	rec->lost = written > in_buf ? written - in_buf : 0;
	return SS_KL_HEADER;
}

static int lost_line(const char *lost, struct ss_kmem_rec *rec)
{
	unsigned long long n;

	if (sscanf(lost, "[LOST %llu EVENTS]", &n) != 1)
		return SS_KL_SKIP;
	rec->lost = n;
	return SS_KL_LOST;
}

/* A trace_marker write (ftrace prints it as the event
 * "tracing_mark_write:"): "slabsim-phase NAME" is a phase marker of
 * `make capture` or of the traced command (docs/capture.md); any other
 * message is someone else's and is only counted. */
static int marker(char *p, struct ss_kmem_rec *rec, const char **why)
{
	static const char tag[] = "slabsim-phase";
	const size_t n = sizeof(tag) - 1;
	char *end;

	p += strspn(p, " \t");
	if (strncmp(p, tag, n) || (p[n] && !isspace((unsigned char)p[n])))
		return SS_KL_OTHER;
	p += n;
	p += strspn(p, " \t");
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		*--end = '\0';
	if (!*p)
		return *why = "slabsim-phase marker without a name", -1;
	rec->name = p;
	return SS_KL_PHASE;
}

/* Read the label=value pairs after the event name. */
static int payload(char *p, const struct ss_kmem_labels *l, struct ss_kmem_rec *rec,
		   const char **why)
{
	const char *val[SS_KF_NR] = {0};
	const char (*want)[SS_KMEM_LABEL_MAX] = l->label[rec->event];
	int alloc = rec->event == SS_KE_KMALLOC || rec->event == SS_KE_CACHE_ALLOC;

	while (*p) {
		char *tok = p + strspn(p, " \t\r\n"), *eq;

		p = tok + strcspn(tok, " \t\r\n");
		if (*p)
			*p++ = '\0';
		eq = strchr(tok, '=');
		if (!eq)
			continue;
		*eq = '\0';
		/* before 4.15 %p printed NULL as "(null)" right-aligned in the
		 * pointer's width: "ptr=          (null)" */
		if (!eq[1] && !strncmp(p + strspn(p, " "), "(null)", 6)) {
			p += strspn(p, " ") + 6;
			if (*p)
				*p++ = '\0';
			eq = (char *)"=(null)";
		}
		for (int f = 0; f < SS_KF_NR; f++)
			if (want[f][0] && !val[f] && !strcmp(tok, want[f]))
				val[f] = eq + 1;
	}
	if (!val[SS_KF_PTR] || parse_ptr(val[SS_KF_PTR], &rec->ptr))
		return *why = "no ptr= or a bad pointer", -1;
	if (alloc && (!val[SS_KF_BYTES_REQ] || !val[SS_KF_BYTES_ALLOC]))
		return *why = "allocation without bytes_req= and bytes_alloc=", -1;
	if (alloc && (ss_parse_u64(val[SS_KF_BYTES_REQ], 1ull << 40, &rec->bytes_req) ||
		      ss_parse_u64(val[SS_KF_BYTES_ALLOC], 1ull << 40, &rec->bytes_alloc)))
		return *why = "bad bytes_req= or bytes_alloc=", -1;
	/* the kernel reports what it handed out: at least what was asked
	 * (mm/slub.c, 6.1: trace_kmalloc() gets s->size or PAGE_SIZE <<
	 * order; kmem_cache_alloc: s->object_size <= s->size).  More asked
	 * than given is a cut value or a format file that swapped labels. */
	if (alloc && rec->bytes_req > rec->bytes_alloc)
		return *why = "bytes_req= is larger than bytes_alloc= (a value cut short, or a --format-file that names the wrong fields)", -1;
	rec->call_site = val[SS_KF_CALL_SITE] && *val[SS_KF_CALL_SITE]
				 ? val[SS_KF_CALL_SITE] : "unknown";
	rec->name = val[SS_KF_NAME] && *val[SS_KF_NAME] ? val[SS_KF_NAME] : NULL;
	if (alloc)
		rec->gfp = ss_import_gfp(val[SS_KF_GFP], val[SS_KF_ACCOUNTED]);
	return SS_KL_EVENT;
}

/* kmem:mm_page_free's "page=P pfn=0xF order=O" (include/trace/events/
 * kmem.h: pfn in hex since 4.x, in decimal before; the labels have not
 * changed since 3.x).  A page, not a slab object: it tells which slabs the
 * kernel freed (pagefree.c). */
static int page_free(char *p, struct ss_kmem_rec *rec, const char **why)
{
	const char *pfn = NULL, *order = NULL, *page = NULL;
	uint64_t o;

	while (*p) {
		char *tok = p + strspn(p, " \t\r\n");

		p = tok + strcspn(tok, " \t\r\n");
		if (*p)
			*p++ = '\0';
		if (!strncmp(tok, "pfn=", 4))
			pfn = tok + 4;
		else if (!strncmp(tok, "order=", 6))
			order = tok + 6;
		else if (!strncmp(tok, "page=", 5))
			page = tok + 5;
	}
	if (!pfn || !order)
		return *why = "mm_page_free without pfn= and order=", -1;
	if ((strncmp(pfn, "0x", 2) ? ss_parse_u64(pfn, UINT64_MAX, &rec->pfn)
				   : parse_ptr(pfn, &rec->pfn)) ||
	    ss_parse_u64(order, 63, &o))
		return *why = "mm_page_free: bad pfn= or order=", -1;
	rec->order = (unsigned)o;
	/* (a hashed or odd page= says nothing: 0) */
	if (!page || parse_ptr(page, &rec->page))
		rec->page = 0;
	return SS_KL_PAGE_FREE;
}

/* "mm_page_free" (or "kmem:mm_page_free") is the n bytes at s */
static bool is_page_free(const char *s, size_t n)
{
	static const char name[] = "mm_page_free";
	const size_t len = sizeof(name) - 1;

	return n >= len && !memcmp(s + n - len, name, len) &&
	       (n == len || (n > len && s[n - len - 1] == ':'));
}

int ss_kmem_parse_line(char *line, const struct ss_kmem_labels *l,
		       struct ss_kmem_rec *rec, const char **why)
{
	char *p = line + strspn(line, " \t");
	char *lost;
	const char *prev = NULL;
	size_t prev_n = 0;
	int saw_cpu = 0;

	memset(rec, 0, sizeof(*rec));
	rec->pid = -1;
	if (*p == '#')
		return header_line(p, rec);
	lost = strstr(p, "[LOST ");
	if (lost)
		return lost_line(lost, rec);
	while (*p) {
		char *tok = p + strspn(p, " \t\r\n");
		size_t n = strcspn(tok, " \t\r\n");
		int ev;

		if (!n)
			break;
		p = tok + n;
		if (!cpu_column(tok, n, &rec->cpu)) {
			if (!saw_cpu && prev)
				rec->pid = pid_of(prev, prev_n);
			saw_cpu = rec->has_cpu = 1;
			/* the latency flags after the CPU ("d.s1."), where the
			 * tracer prints them: not the timestamp, no colon */
			tok = p + strspn(p, " \t");
			n = strcspn(tok, " \t\r\n");
			if (n >= 3 && !isdigit((unsigned char)tok[0]) && tok[n - 1] != ':') {
				rec->in_irq = tok[2] != '.';
				p = tok + n;
			}
			continue;
		}
		prev = tok;
		prev_n = n;
		/* the first "word:" after the timestamp is the event name */
		if (tok[n - 1] != ':' || isdigit((unsigned char)tok[0]))
			continue;
		ev = event_named(tok, n - 1);
		/* trace-cmd report prints the event ftrace:print first:
		 * "print:  tracing_mark_write: TEXT" */
		if (ev < 0 && saw_cpu && n - 1 == strlen("print") && !memcmp(tok, "print", 5)) {
			char *next = p + strspn(p, " \t");

			if (!strncmp(next, "tracing_mark_write:", 19))
				return marker(next + 19, rec, why);
		}
		if (ev < 0 && saw_cpu && n - 1 == strlen("tracing_mark_write") &&
		    !memcmp(tok, "tracing_mark_write", n - 1))
			return marker(p, rec, why);
		if (ev < 0 && saw_cpu && is_page_free(tok, n - 1))
			return page_free(p, rec, why);
		if (ev < 0) {
			if (saw_cpu)
				return SS_KL_OTHER;
			continue; /* a comm with a colon, before the columns */
		}
		rec->event = (enum ss_kmem_event)ev;
		return payload(p, l, rec, why);
	}
	return SS_KL_SKIP;
}

int ss_kmem_text_read(const char *path, const struct ss_kmem_labels *l, ss_kmem_rec_fn fn,
		      void *ctx, unsigned long *lineno, struct ss_error *err)
{
	struct ss_inbuf in;
	char *line;
	size_t len;
	int rc;

	if (ss_inbuf_open(&in, path, err))
		return -1;
	while ((rc = ss_inbuf_line(&in, &line, &len, path, err)) == 1) {
		struct ss_kmem_rec rec;
		const char *why = NULL;
		int kind;

		if (memchr(line, '\0', len))
			continue;
		if (lineno)
			*lineno = in.lines;
		kind = ss_kmem_parse_line(line, l, &rec, &why);
		if (fn(ctx, kind, &rec, why, err)) {
			rc = -1;
			break;
		}
	}
	ss_inbuf_close(&in);
	return rc < 0 ? -1 : 0;
}
