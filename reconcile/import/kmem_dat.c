/* kmem_dat.c - kmem records out of trace-cmd's trace.dat, read with
 * libtracecmd and libtraceevent (Debian: libtracecmd-dev,
 * libtraceevent-dev).  trace.dat carries each event's format file, so
 * every field is found by its name in the format of the kernel that
 * recorded it (tep_get_field_val(), tep_get_field_raw()), whatever the
 * era: no label or position is assumed.  The flag names of gfp_flags are
 * the event's own print fmt (__print_flags) rendered by libtraceevent.
 * Records come in time order across CPUs and across the file's buffers
 * (the top level and each instance, `trace-cmd record -B` or `extract
 * -B`: tracecmd_iterate_events_multi()).
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "import_read.h"
#include "trace.h"

#define DAT_MAGIC "\x17\x08" "D" "tracing"

bool ss_import_is_dat(const char *path)
{
	char buf[10];
	FILE *fp;
	size_t n;

	if (!strcmp(path, "-") || !(fp = fopen(path, "rb")))
		return false;
	n = fread(buf, 1, sizeof(buf), fp);
	fclose(fp);
	return n == sizeof(buf) && !memcmp(buf, DAT_MAGIC, sizeof(buf));
}

struct dat_reader {
	struct tep_handle *tep;
	ss_kmem_rec_fn fn;
	void *ctx;
	struct ss_error *err;
	int rc;
	char site[SS_MAX_NAME + 1], name[SS_MAX_NAME + 1], gfp[256], accounted[8];
	struct trace_seq seq;
};

static const struct {
	const char *name;
	enum ss_kmem_event ev;
} kmem_events[] = {
	{"kmalloc", SS_KE_KMALLOC}, {"kmalloc_node", SS_KE_KMALLOC},
	{"kmem_cache_alloc", SS_KE_CACHE_ALLOC}, {"kmem_cache_alloc_node", SS_KE_CACHE_ALLOC},
	{"kfree", SS_KE_KFREE}, {"kmem_cache_free", SS_KE_CACHE_FREE},
};

/* call_site as the kernel's %pS prints it: function+0xoffset, or the
 * address when the file's kallsyms do not know it. */
static void site_of(struct dat_reader *d, unsigned long long addr)
{
	const char *fn = tep_find_function(d->tep, addr);

	if (fn)
		snprintf(d->site, sizeof(d->site), "%s+0x%llx", fn,
			 addr - tep_find_function_address(d->tep, addr));
	else
		snprintf(d->site, sizeof(d->site), "%llx", addr);
}

/* A string field (__string: a dynamic array) or a fixed char array. */
static const char *string_field(struct dat_reader *d, struct tep_event *ev,
				struct tep_record *rec, const char *field)
{
	struct tep_format_field *f = tep_find_field(ev, field);
	int len = 0;
	const char *p;

	if (!f)
		return NULL;
	p = tep_get_field_raw(NULL, ev, field, rec, &len, 0);
	/* a flexible array (ftrace:print's "char buf[]", size 0) runs to
	 * the end of the record */
	if (p && len <= 0 && f->offset >= 0 && f->offset < rec->size)
		len = rec->size - f->offset;
	if (!p || len <= 0)
		return NULL;
	snprintf(d->name, sizeof(d->name), "%.*s", (int)strnlen(p, (size_t)len), p);
	return d->name[0] ? d->name : NULL;
}

/* gfp_flags by name, from the event's print fmt; "" when not printed. */
static void gfp_text(struct dat_reader *d, struct tep_record *rec)
{
	const char *g;

	d->gfp[0] = '\0';
	trace_seq_reset(&d->seq);
	tep_print_event(d->tep, &d->seq, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	g = d->seq.buffer ? strstr(d->seq.buffer, "gfp_flags=") : NULL;
	if (g)
		snprintf(d->gfp, sizeof(d->gfp), "%.*s", (int)strcspn(g + 10, " \t"), g + 10);
}

static int kmem_record(struct dat_reader *d, struct tep_event *ev, enum ss_kmem_event kind,
		       struct tep_record *rec)
{
	struct ss_kmem_rec r = {.event = kind, .cpu = (unsigned)rec->cpu, .has_cpu = 1,
				.pid = tep_data_pid(d->tep, rec)};
	int flags = tep_data_flags(d->tep, rec);
	unsigned long long v;
	int alloc = kind == SS_KE_KMALLOC || kind == SS_KE_CACHE_ALLOC;

	if (tep_get_field_val(NULL, ev, "ptr", rec, &v, 0))
		return d->fn(d->ctx, -1, &r, "no ptr field", d->err);
	r.ptr = v;
	r.in_irq = flags > 0 && (flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ));
	if (alloc) {
		unsigned long long req, got;

		if (tep_get_field_val(NULL, ev, "bytes_req", rec, &req, 0) ||
		    tep_get_field_val(NULL, ev, "bytes_alloc", rec, &got, 0))
			return d->fn(d->ctx, -1, &r, "allocation without bytes_req and bytes_alloc", d->err);
		if (req > (1ull << 40) || got > (1ull << 40))
			return d->fn(d->ctx, -1, &r, "bad bytes_req or bytes_alloc", d->err);
		r.bytes_req = req;
		r.bytes_alloc = got;
		gfp_text(d, rec);
		d->accounted[0] = '\0';
		if (tep_find_field(ev, "accounted") &&
		    !tep_get_field_val(NULL, ev, "accounted", rec, &v, 0))
			snprintf(d->accounted, sizeof(d->accounted), "%s", v ? "true" : "false");
		r.gfp = ss_import_gfp(d->gfp, d->accounted[0] ? d->accounted : NULL);
	}
	if (tep_find_field(ev, "call_site") &&
	    !tep_get_field_val(NULL, ev, "call_site", rec, &v, 0))
		site_of(d, v);
	else
		snprintf(d->site, sizeof(d->site), "unknown");
	r.call_site = d->site;
	r.name = string_field(d, ev, rec, "name");
	return d->fn(d->ctx, SS_KL_EVENT, &r, NULL, d->err);
}

/* trace_marker writes are ftrace:print events, their text in "buf". */
static int marker_record(struct dat_reader *d, struct tep_event *ev, struct tep_record *rec)
{
	struct ss_kmem_rec r = {.cpu = (unsigned)rec->cpu, .has_cpu = 1, .pid = -1};
	static const char tag[] = "slabsim-phase";
	const char *text = string_field(d, ev, rec, "buf");
	char *p, *end;

	if (!text || strncmp(text, tag, sizeof(tag) - 1) ||
	    (text[sizeof(tag) - 1] && text[sizeof(tag) - 1] != ' '))
		return d->fn(d->ctx, SS_KL_OTHER, &r, NULL, d->err);
	p = d->name + sizeof(tag) - 1;
	p += strspn(p, " \t");
	end = p + strlen(p);
	while (end > p && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (!*p)
		return d->fn(d->ctx, -1, &r, "slabsim-phase marker without a name", d->err);
	r.name = p;
	return d->fn(d->ctx, SS_KL_PHASE, &r, NULL, d->err);
}

static int on_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct dat_reader *d = data;
	struct tep_event *ev = tep_find_event_by_record(d->tep, rec);
	struct ss_kmem_rec lost = {.cpu = (unsigned)cpu, .has_cpu = 1, .pid = -1};

	(void)h;
	if (d->rc)
		return -1;
	if (rec->missed_events) { /* -1: some, count unknown */
		lost.lost = rec->missed_events > 0 ? (uint64_t)rec->missed_events : 1;
		if ((d->rc = d->fn(d->ctx, SS_KL_LOST, &lost, NULL, d->err)))
			return -1;
	}
	if (!ev || !ev->system) {
		d->rc = d->fn(d->ctx, SS_KL_SKIP, &lost, NULL, d->err);
		return d->rc ? -1 : 0;
	}
	if (!strcmp(ev->system, "kmem")) {
		for (size_t i = 0; i < sizeof(kmem_events) / sizeof(kmem_events[0]); i++)
			if (!strcmp(ev->name, kmem_events[i].name)) {
				d->rc = kmem_record(d, ev, kmem_events[i].ev, rec);
				return d->rc ? -1 : 0;
			}
	} else if (!strcmp(ev->system, "ftrace") && !strcmp(ev->name, "print")) {
		d->rc = marker_record(d, ev, rec);
		return d->rc ? -1 : 0;
	}
	d->rc = d->fn(d->ctx, SS_KL_OTHER, &lost, NULL, d->err);
	return d->rc ? -1 : 0;
}

int ss_import_dat_read(const char *path, ss_kmem_rec_fn fn, void *ctx, unsigned *cpus,
		       struct ss_error *err)
{
	struct dat_reader d = {.fn = fn, .ctx = ctx, .err = err};
	struct tracecmd_input *h, **all;
	int n, nr = 1;

	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return ss_errorf(err, "%s: not a readable trace-cmd trace.dat", path);
	d.tep = tracecmd_get_tep(h);
	if (cpus)
		*cpus = d.tep ? (unsigned)tep_get_cpus(d.tep) : 0;
	n = tracecmd_buffer_instances(h);
	all = calloc((size_t)(n > 0 ? n : 0) + 1, sizeof(*all));
	if (!all) {
		tracecmd_close(h);
		return ss_errorf(err, "out of memory");
	}
	all[0] = h;
	for (int i = 0; i < n; i++)
		if ((all[nr] = tracecmd_buffer_instance_handle(h, i)))
			nr++;
	trace_seq_init(&d.seq);
	/* the instances share the top level's event formats (one tep) */
	if (d.tep && tracecmd_iterate_events_multi(all, nr, on_record, &d) < 0 && !d.rc)
		d.rc = ss_errorf(err, "%s: reading the trace.dat failed", path);
	trace_seq_destroy(&d.seq);
	for (int i = 1; i < nr; i++)
		tracecmd_close(all[i]);
	free(all);
	tracecmd_close(h);
	if (!d.tep)
		return ss_errorf(err, "%s: trace.dat without event formats", path);
	return d.rc ? -1 : 0;
}
