/* fuzz_roundtrip.c - every output format slabsim writes, read back by a
 * strict reader (strict.h): what a writer writes, a reader must read, and
 * read back as what was written.
 *
 * The input is a script, not a file to parse: its bytes pick names (with
 * the characters that break formats: , " # \ ' | < > & and bytes no name
 * may hold), a variant meta value, cache declarations and events.  Then:
 *  1. traces: the script goes through the trace writer in one format
 *     (text, binary, either under zstd); what the writer refused must be
 *     what the name rules refuse; the file reads back event for event and
 *     name for name, and again after `convert` into another format;
 *  2. a run (`slabsim run`, cmd_run itself, one of the models): every
 *     file of its directory passes the strict CSV, JSON and slabinfo
 *     readers (field counts, quoting, escapes, UTF-8, no wrapped unsigned),
 *     and the names come back: the variant in summary.csv and summary.json,
 *     cache names in caches.csv, labels in work.csv, phases in timeline.csv;
 *  3. when the variant is a plain name: `slabsim report` and `compare`
 *     read that run, and their CSV outputs pass the strict reader;
 *  4. an ftrace capture made of the same names goes through `import`:
 *     it imports or fails naming the capture, its trace reads back and its
 *     --totals CSV is strict.
 * New output files are covered as they come: step 2 checks whatever a run
 * directory holds (strict_dir), not a list.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "csv.h"
#include "escape.h"
#include "fuzz.h"
#include "import/import.h"
#include "strict.h"
#include "trace.h"
#include "trace_convert.h"
#include "trace_tables.h"

#define MAX_NAMES 6
#define MAX_EVENTS 96
#define NAME_LEN 24

/* ---- the script's bytes ---- */

struct cur {
	const uint8_t *p, *end;
};

static unsigned byte(struct cur *c)
{
	return c->p < c->end ? *c->p++ : 0;
}

/* Names: mostly the characters that need quoting somewhere; now and then
 * a byte no name may hold, so the writers' refusals are exercised too. */
static void make_name(struct cur *c, char *out)
{
	static const char chars[] = "abcxyzKLM0129_-.,\"#\\'|<>&;=:/%@!?()[]{}~+*$`^";
	static const char *const odd[] = {" ", "\n", "\r", "\t", "\x7f", "\xc3\xa9", "\xff", "\x01"};
	unsigned len = 1 + byte(c) % 12;
	size_t n = 0;

	for (unsigned i = 0; i < len; i++) {
		unsigned b = byte(c);

		if (b >= 244) {
			const char *o = odd[b % 8];

			memcpy(out + n, o, strlen(o));
			n += strlen(o);
		} else {
			out[n++] = chars[b % (sizeof(chars) - 1)];
		}
	}
	out[n] = '\0';
}

/* ---- what was written ---- */

struct written {
	struct ss_event ev;
	char site[NAME_LEN * 3];  /* alloc: site; work: label; phase: name */
	char cache[NAME_LEN * 3]; /* alloc: the api's name */
};

struct script {
	char names[MAX_NAMES][NAME_LEN * 3];
	char variant[NAME_LEN * 3];
	int variant_set;
	char caches[3][NAME_LEN * 3];
	unsigned cache_size[3];
	int nr_caches;
	struct written ev[MAX_EVENTS];
	int nr_ev;
};

static char root[128];

static void rm_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char path[4400];
		struct stat st;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			rm_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	rmdir(dir);
}

static void remove_root(void)
{
	rm_tree(root);
}

static void setup_root(void)
{
	if (root[0])
		return;
	/* memory-backed when there is one: a run writes a dozen files */
	snprintf(root, sizeof(root), "%s/slabsim-fuzz-rt.XXXXXX",
		 access("/dev/shm", W_OK) ? "/tmp" : "/dev/shm");
	ss_fuzz_check(mkdtemp(root) != NULL, "mkdtemp %s", root);
	atexit(remove_root);
	/* the commands' own output is not the point */
	ss_fuzz_check(freopen("/dev/null", "w", stdout) != NULL, "stdout");
}

/* ---- 1. traces ---- */

static const enum ss_trace_format formats[4] = {SS_TRACE_TEXT, SS_TRACE_TEXT_ZSTD,
						SS_TRACE_BIN, SS_TRACE_BIN_ZSTD};
static const char *const suffix[4] = {".trace", ".trace.zst", ".sbt", ".sbt.zst"};

/* Write the script; a refusal must be one the rules call for. */
/* dst (n bytes) = src cut to fit: a name of the script into another
 * field of it (snprintf there is -Wrestrict to gcc, which cannot tell the
 * two fields of one struct apart). */
static void copy_name(char *dst, size_t n, const char *src)
{
	size_t len = strnlen(src, n - 1);

	memmove(dst, src, len);
	dst[len] = '\0';
}

static void write_trace(struct script *s, struct cur *c, const char *path, int fmt)
{
	struct ss_trace_writer *w;
	struct ss_error err = {{0}};
	struct ss_idpool ids = {0};
	uint64_t live[MAX_EVENTS];
	int nlive = 0, rc;

	ss_fuzz_check(ss_trace_writer_open_format(&w, path, formats[fmt], &err) == 0,
		      "writer: %s", err.msg);
	ss_fuzz_check(ss_trace_write_meta(w, "workload", "fz") == 0, "meta workload");
	rc = ss_trace_write_meta(w, "variant", s->variant);
	ss_fuzz_check((rc == 0) == (ss_trace_meta_value_ok(s->variant) != 0),
		      "meta variant '%s' %s", s->variant, rc ? "refused" : "taken");
	s->variant_set = rc == 0;
	for (int i = 0, n = (int)(byte(c) % 3); i < n; i++) {
		const char *name = s->names[byte(c) % MAX_NAMES];
		unsigned size = 8 + byte(c) * 2, align = (unsigned[]){0, 8, 64}[byte(c) % 3];
		int dup = 0, api;

		for (int k = 0; k < s->nr_caches; k++)
			dup |= !strcmp(s->caches[k], name);
		api = ss_trace_write_cache(w, name, size, align, 0);
		ss_fuzz_check((api > 0) == (ss_trace_name_ok(name) && strcmp(name, "kmalloc") && !dup),
			      "cache '%s' %s", name, api > 0 ? "taken" : "refused");
		if (api > 0) {
			ss_fuzz_check(api == s->nr_caches + 1, "cache index %d", api);
			copy_name(s->caches[s->nr_caches], sizeof(s->caches[0]), name);
			s->cache_size[s->nr_caches++] = size;
		}
	}
	while (s->nr_ev < MAX_EVENTS && c->p < c->end) {
		struct written *x = &s->ev[s->nr_ev];
		unsigned op = byte(c) % 4, cpu = byte(c) % 4;
		const char *name = s->names[byte(c) % MAX_NAMES];

		memset(x, 0, sizeof(*x));
		x->ev.cpu = cpu;
		copy_name(x->site, sizeof(x->site), name);
		if (op == 0 || (op == 1 && !nlive)) { /* alloc */
			unsigned api = s->nr_caches ? byte(c) % (unsigned)(s->nr_caches + 1) : 0;
			uint64_t size = api ? byte(c) % (s->cache_size[api - 1] + 1)
					    : (uint64_t)byte(c) * byte(c) / 4;

			x->ev.kind = SS_EV_ALLOC;
			x->ev.id = ss_idpool_get(&ids);
			x->ev.value = size;
			copy_name(x->cache, sizeof(x->cache), api ? s->caches[api - 1] : "kmalloc");
			rc = ss_trace_write_alloc(w, cpu, x->ev.id, name, api, size);
			ss_fuzz_check((rc == 0) == ss_trace_name_ok(name), "site '%s' %s", name,
				      rc ? "refused" : "taken");
			if (rc) {
				ss_idpool_put(&ids, x->ev.id);
				continue;
			}
			live[nlive++] = x->ev.id;
		} else if (op == 1) { /* free */
			int k = (int)(byte(c) % (unsigned)nlive);

			x->ev.kind = SS_EV_FREE;
			x->ev.id = live[k];
			live[k] = live[--nlive];
			ss_idpool_put(&ids, x->ev.id);
			ss_fuzz_check(ss_trace_write_free(w, cpu, x->ev.id) == 0, "free");
			x->site[0] = '\0';
		} else if (op == 2) { /* work */
			x->ev.kind = SS_EV_WORK;
			x->ev.value = byte(c) * 1000u;
			rc = ss_trace_write_work(w, cpu, x->ev.value, name);
			ss_fuzz_check((rc == 0) == ss_trace_name_ok(name), "label '%s'", name);
			if (rc)
				continue;
		} else { /* phase */
			x->ev.kind = SS_EV_PHASE;
			x->ev.cpu = 0;
			rc = ss_trace_write_phase(w, name);
			ss_fuzz_check((rc == 0) == ss_trace_name_ok(name), "phase '%s'", name);
			if (rc)
				continue;
		}
		s->nr_ev++;
	}
	ss_idpool_release(&ids);
	ss_fuzz_check(ss_trace_writer_commit(w, &err) == 0, "commit: %s", err.msg);
}

/* The file holds the script, event for event, name for name. */
static void check_trace(const struct script *s, const char *path)
{
	struct ss_trace_reader *r;
	struct ss_error err = {{0}};
	struct ss_event ev;
	const struct ss_trace_tables *tb;
	const char *v;
	int i = 0, rc;

	ss_fuzz_check(ss_trace_open(&r, path, &err) == 0, "%s: %s", path, err.msg);
	tb = ss_trace_tables(r);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1) {
		const struct written *x = &s->ev[i];

		ss_fuzz_check(i < s->nr_ev, "%s: more events than written", path);
		/* (a free's value is unspecified, trace.h: not compared) */
		ss_fuzz_check(ev.kind == x->ev.kind && ev.cpu == x->ev.cpu &&
				      ev.id == x->ev.id &&
				      (ev.kind == SS_EV_FREE || ev.value == x->ev.value),
			      "%s: event %d differs", path, i);
		if (ev.kind != SS_EV_FREE)
			ss_fuzz_check(!strcmp(ss_trace_name(tb, ev.site), x->site),
				      "%s: event %d: name '%s', wrote '%s'", path, i,
				      ss_trace_name(tb, ev.site), x->site);
		if (ev.kind == SS_EV_ALLOC)
			ss_fuzz_check(!strcmp(ss_trace_cache_name(tb, ev.api), x->cache),
				      "%s: event %d: cache '%s', wrote '%s'", path, i,
				      ss_trace_cache_name(tb, ev.api), x->cache);
		i++;
	}
	ss_fuzz_check(rc == 0, "%s does not read back: %s", path, err.msg);
	ss_fuzz_check(i == s->nr_ev, "%s: %d events of %d", path, i, s->nr_ev);
	v = ss_trace_meta(tb, "variant");
	ss_fuzz_check(s->variant_set ? v && !strcmp(v, s->variant) : !v,
		      "%s: variant '%s', wrote '%s'", path, v ? v : "(none)", s->variant);
	ss_trace_close(r);
}

/* ---- 2, 3. a run, report and compare ---- */

static int in_list(const char *name, const char (*list)[NAME_LEN * 3], int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return 1;
	return 0;
}

/* Column col of every row of path must satisfy ok(). */
static void check_column(const char *path, const char *col, const struct script *s,
			 int (*ok)(const struct script *s, const char *v))
{
	struct ss_csv c;
	struct ss_error err;
	unsigned idx;
	int r;

	ss_fuzz_check(ss_csv_open(&c, path, NULL, NULL, &err) == 0, "%s", err.msg);
	ss_fuzz_check(ss_csv_need(&c, col, &idx, &err) == 0, "%s", err.msg);
	while ((r = ss_csv_next(&c, &err)) == 1)
		ss_fuzz_check(ok(s, ss_csv_get(&c, idx)), "%s:%lu: %s '%s' was never written",
			      path, c.line, col, ss_csv_get(&c, idx));
	ss_fuzz_check(r == 0, "%s", err.msg);
	ss_csv_close(&c);
}

static int written_name(const struct script *s, const char *v)
{
	for (int i = 0; i < s->nr_ev; i++)
		if (!strcmp(v, s->ev[i].site))
			return 1;
	return 0;
}

static int cache_ok(const struct script *s, const char *v)
{
	/* traced: the declared caches and kmalloc-N; kmem_cache: a site's
	 * own cache, named after it (or its first 48 bytes and ~siteN) */
	return !strncmp(v, "kmalloc-", 8) || in_list(v, s->caches, s->nr_caches) ||
	       written_name(s, v) || strstr(v, "~site");
}

static int label_ok(const struct script *s, const char *v)
{
	return !strcmp(v, "allocator") || written_name(s, v);
}

static int phase_ok(const struct script *s, const char *v)
{
	return !strcmp(v, "start") || written_name(s, v);
}

static int variant_ok(const struct script *s, const char *v)
{
	return !strcmp(v, s->variant_set ? s->variant : "-");
}

static void strict_or_die(const char *dir)
{
	char why[1200];
	unsigned n;

	ss_fuzz_check(strict_dir(dir, &n, why, sizeof(why)) == 0, "%s", why);
	ss_fuzz_check(n > 0, "%s: nothing to check", dir);
}

static int call(int (*cmd)(int, char **), const char *const *args)
{
	char *argv[32];
	int n = 0;

	while (args[n] && n < 31) {
		argv[n] = (char *)args[n];
		n++;
	}
	argv[n] = NULL;
	return cmd(n, argv);
}

static void check_run(const struct script *s, const char *trace, unsigned pick)
{
	static const char *const models[] = {"traced", "kmem_cache", "kmalloc-buckets",
					     "traced+FZPU", "kmem_cache+P"};
	const char *model = models[pick % 5];
	int plain = s->variant_set && !strcmp(s->variant, "v");
	char dir[4200], path[4400], json[512], sample[16];

	if (plain)
		snprintf(dir, sizeof(dir), "%s/rep/runs/v__%s", root, model);
	else
		snprintf(dir, sizeof(dir), "%s/run", root);
	snprintf(sample, sizeof(sample), "%u", 1 + pick / 5 % 7);
	ss_fuzz_check(call(ss_cmd_run, (const char *const[]){"run", "--trace", trace, "--model", model,
				"--target", "x86_64-6.x", "--cpus", "4", "--sample-every", sample,
				"--out", dir, NULL}) == 0,
		      "run %s on %s failed", model, trace);
	strict_or_die(dir);
	snprintf(path, sizeof(path), "%s/summary.csv", dir);
	check_column(path, "variant", s, variant_ok);
	snprintf(path, sizeof(path), "%s/summary.json", dir);
	ss_fuzz_check(strict_json_string(path, "variant", json, sizeof(json)) == 0 &&
			      variant_ok(s, json), "%s: variant '%s'", path, json);
	snprintf(path, sizeof(path), "%s/caches.csv", dir);
	check_column(path, "name", s, cache_ok);
	snprintf(path, sizeof(path), "%s/work.csv", dir);
	check_column(path, "label", s, label_ok);
	snprintf(path, sizeof(path), "%s/timeline.csv", dir);
	check_column(path, "phase", s, phase_ok);
	if (!plain)
		return;
	snprintf(path, sizeof(path), "%s/rep", root);
	ss_fuzz_check(call(ss_cmd_report, (const char *const[]){"report", "--workload", "fz",
				"--dir", path, NULL}) == 0, "report over %s failed", dir);
	strict_or_die(path);
	snprintf(dir, sizeof(dir), "%s/rep/compare", root);
	ss_fuzz_check(call(ss_cmd_compare, (const char *const[]){"compare", "--workload", "fz",
				"--dir", path, "--out", dir, NULL}) == 0,
		      "compare over %s failed", path);
	strict_or_die(dir);
	snprintf(path, sizeof(path), "%s/top_caches.csv", dir);
	check_column(path, "name", s, cache_ok);
}

/* ---- 4. import ---- */

static void check_import(const struct script *s, struct cur *c)
{
	char cap[4200], out[4200], totals[4200];
	struct ss_import_opts o = {.input = cap, .output = out, .target = "x86_64-6.x"};
	struct ss_import_totals t;
	struct ss_error err = {{0}};
	struct ss_trace_reader *r;
	struct ss_event ev;
	char why[1200];
	FILE *fp;
	int rc;

	snprintf(cap, sizeof(cap), "%s/cap.txt", root);
	snprintf(out, sizeof(out), "%s/imported%s", root, suffix[byte(c) % 4]);
	snprintf(totals, sizeof(totals), "%s/totals.csv", root);
	fp = fopen(cap, "w");
	ss_fuzz_check(fp != NULL, "%s", cap);
	for (int i = 0; i < s->nr_ev; i++) {
		const struct written *x = &s->ev[i];
		unsigned req = (unsigned)x->ev.value % 4096, alloc = req + byte(c) % 64;

		if (x->ev.kind == SS_EV_ALLOC)
			fprintf(fp, " t-1 [%03u] .... 1.%06d: kmem_cache_alloc: call_site=%s ptr=%llx bytes_req=%u bytes_alloc=%u gfp_flags=GFP_KERNEL name=%s\n",
				x->ev.cpu, i, x->site, 0x1000ull + x->ev.id * 64, req, alloc,
				x->cache);
		else if (x->ev.kind == SS_EV_FREE)
			fprintf(fp, " t-1 [%03u] .... 1.%06d: kmem_cache_free: call_site=f ptr=%llx name=x\n",
				x->ev.cpu, i, 0x1000ull + x->ev.id * 64);
	}
	fprintf(fp, " t-1 [000] .... 2.0: kfree: call_site=f ptr=0\n");
	ss_fuzz_check(fclose(fp) == 0, "%s", cap);
	rc = ss_import(&o, &t, &err);
	if (rc) { /* a capture it may refuse, but naming it, with no output */
		ss_fuzz_check_names_file(err.msg, cap);
		ss_fuzz_check(access(out, F_OK) != 0, "a failed import left %s", out);
		return;
	}
	ss_fuzz_check(ss_trace_open(&r, out, &err) == 0, "import output: %s", err.msg);
	while ((rc = ss_trace_next(r, &ev, &err)) == 1)
		;
	ss_fuzz_check(rc == 0, "import output does not read back: %s", err.msg);
	ss_trace_close(r);
	ss_fuzz_check(ss_import_write_totals(totals, &t, &err) == 0, "%s", err.msg);
	ss_fuzz_check(strict_csv(totals, why, sizeof(why)) == 0, "%s", why);
	unlink(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cur c = {data, data + size};
	struct script *s = calloc(1, sizeof(*s));
	char t1[4200], t2[4200], why[256];
	int f1, f2;
	uint64_t n;
	struct ss_error err = {{0}};

	if (!s)
		return 0;
	setup_root();
	snprintf(why, sizeof(why), "%s/rep", root);
	rm_tree(why);
	for (int i = 0; i < MAX_NAMES; i++)
		make_name(&c, s->names[i]);
	if (byte(&c) % 2)
		make_name(&c, s->variant);
	else
		snprintf(s->variant, sizeof(s->variant), "v");
	f1 = (int)(byte(&c) % 4);
	f2 = (int)(byte(&c) % 4);
	snprintf(t1, sizeof(t1), "%s/t%s", root, suffix[f1]);
	snprintf(t2, sizeof(t2), "%s/u%s", root, suffix[f2]);
	write_trace(s, &c, t1, f1);
	check_trace(s, t1);
	ss_fuzz_check(ss_trace_convert(t1, t2, formats[f2], &n, &err) == 0, "convert: %s", err.msg);
	ss_fuzz_check(n == (uint64_t)s->nr_ev, "convert copied %llu of %d events",
		      (unsigned long long)n, s->nr_ev);
	check_trace(s, t2);
	check_run(s, t2, byte(&c));
	check_import(s, &c);
	unlink(t1);
	unlink(t2);
	free(s);
	return 0;
}
