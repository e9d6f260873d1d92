/* slabfill.c - `slab-fill`: every SLUB cache's partial and CPU slabs, each
 * with its fill, in list order, read from the running kernel through a BPF
 * kmem_cache iterator (slabfill.bpf.c, linked in as bytes: slabfill_obj.S).
 *
 *   slab-fill OUT       one read into OUT (root)
 *   slab-fill --serve   the program loaded once, then one request a line
 *                       on stdin (make capture, docs/capture.md):
 *       fill OUT        a read into OUT, as above
 *       pages OUT       which page frames are slab pages (/proc/kpageflags,
 *                       base/slabpages.h: slab-pages-start.txt)
 *     answered each by one line on stdout, "ok" or "error MESSAGE".  The
 *     first line, once the program is loaded, is "ok", or "error MESSAGE"
 *     when it cannot be (fill requests then get that error; pages requests
 *     still work).  End of input ends it; the program goes with it.
 *
 * Why a server: loading the program runs the BPF verifier, whose own
 * slab objects (kernel/bpf/verifier.c copy_verifier_state(), kmalloc-cg-2k;
 * copy_array(), kmalloc-cg-4k) are ~700,000 kmem events a load on 6.18.
 * Loaded before a capture's tracing begins, a read inside the window
 * costs only the iterator's file and the output file's objects.
 *
 * Output, written to OUT.tmp.PID and renamed:
 *   slabsim-slabfill 4 nodes=M cpus=N
 *   cache=NAME
 *   n NODE SLAB FREE INUSE OBJECTS BITS   a node partial slab, head of the list first
 *   c CPU SLAB FREE INUSE OBJECTS CPUFREE BITS
 *                                         a CPU's active slab (up to 6.18)
 *   p CPU SLAB FREE INUSE OBJECTS BITS    a CPU partial slab, head of the list first
 *   b NODE FULL EMPTY OBJECTS             the node's barn: its full and empty
 *                                         sheaves, the objects in the full ones
 *                                         ('-' when its list changed as it was read)
 *   s CPU MAIN SPARE RCU                  the CPU's sheaves: the objects in its
 *                                         main, spare and rcu_free ones ('-': none)
 * (b and s lines for a cache with sheaves: 6.18's that ask, 7.x's all.)
 * SLAB is the struct slab address (an identity), FREE the address of a free
 * object on it (hex, 0 when the slab shows none): the slab's pages are
 * FREE rounded down to the slab size, which is how a trace's pointers name
 * it.  INUSE is the slab's own count (an active slab's counts the objects
 * on its CPU's freelist as in use, as SLUB does); CPUFREE those objects,
 * counted by walking the list, '-' when the walk failed (the list changed
 * as it was read).  BITS: which objects were free, a hex digit per four
 * from the slab's start (bit 0 the lowest), '-' when not known.  Exit
 * (one read) 0 written, 1 on error, 3 when BPF or the iterator is not
 * available here (the capture then goes on without the file); (--serve)
 * 0 at the end of its input, 2 bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "atomic_file.h"
#include "error.h"
#include "slabfill_rec.h"
#include "slabpages.h"

#define KPAGEFLAGS "/proc/kpageflags"

extern const unsigned char slabfill_bpf_obj[];
extern const unsigned char slabfill_bpf_obj_end[];

struct slabs {
	struct slabfill_rec *r;
	size_t nr, cap;
	int oom;
};

static int take(void *ctx, void *data, size_t len)
{
	struct slabs *s = ctx;

	if (len < sizeof(struct slabfill_rec))
		return 0;
	if (s->nr == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 4096;
		struct slabfill_rec *r = realloc(s->r, cap * sizeof(*r));

		if (!r) {
			s->oom = 1;
			return -ENOMEM;
		}
		s->r = r;
		s->cap = cap;
	}
	memcpy(&s->r[s->nr++], data, sizeof(struct slabfill_rec));
	return 0;
}

/* Bytes of the iterator's text asked for at a time: each read() runs the
 * iterator over the caches whose lines fit, and their slab records wait
 * in the ring buffer until consumed, so a small read keeps the ring from
 * filling on a machine with many slabs listed. */
#define READ_CHUNK 4096

/* the iterator's text: "cache N NAME" lines, the ring's records consumed
 * after each read; NULL with err set */
static char *read_all(int fd, struct ring_buffer *ring, size_t *n, struct ss_error *err)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap + 1);

	while (buf) {
		ssize_t got;

		if (len == cap) {
			char *b = realloc(buf, 2 * cap + 1);

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		got = read(fd, buf + len, cap - len < READ_CHUNK ? cap - len : READ_CHUNK);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ss_errorf(err, "reading the kmem_cache iterator: %s", strerror(errno));
			free(buf);
			return NULL;
		}
		if (ring_buffer__consume(ring) < 0) {
			ss_errorf(err, "reading the slab records failed");
			free(buf);
			return NULL;
		}
		if (!got) {
			buf[len] = 0;
			*n = len;
			return buf;
		}
		len += (size_t)got;
	}
	free(buf);
	ss_errorf(err, "out of memory");
	return NULL;
}

static unsigned count_nodes(void)
{
	unsigned n = 0;
	char path[64];

	for (unsigned i = 0; i < SLABFILL_MAX_NODES; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%u", i);
		if (!access(path, F_OK))
			n = i + 1;
	}
	return n ? n : 1;
}

/* " FREE": which objects were free, a hex digit per four objects from the
 * slab's start (bit 0 of a digit: the lowest), or " -" when the walk did
 * not finish inside the slab or the slab has more objects than the
 * bitmap (version 3, docs/capture.md) */
static void write_free_bits(FILE *f, const struct slabfill_rec *r)
{
	if (!r->free_ok || r->objects > SLABFILL_FREE_BITS) {
		fputs(" -", f);
		return;
	}
	fputc(' ', f);
	for (unsigned i = 0; i < (r->objects + 3u) / 4u; i++)
		fputc("0123456789abcdef"[(r->free_bits[i / 16] >> (i % 16 * 4)) & 0xf], f);
}

/* " N", or " -" for SLABFILL_NO_SHEAF */
static void write_count(FILE *f, unsigned n)
{
	if (n == SLABFILL_NO_SHEAF)
		fputs(" -", f);
	else
		fprintf(f, " %u", n);
}

/* cache lines in iterator order, each followed by its slabs (the ring keeps
 * each cache's records in the order they were sent) */
static int write_out(FILE *f, char *text, const struct slabs *s, unsigned nodes, unsigned cpus,
		     struct ss_error *err)
{
	size_t at = 0;
	char *line, *save = NULL;

	fprintf(f, "slabsim-slabfill 4 nodes=%u cpus=%u\n", nodes, cpus);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned idx;
		int name_at = 0;

		if (sscanf(line, "cache %u %n", &idx, &name_at) != 1 || !name_at)
			return ss_errorf(err, "unexpected iterator line '%s'", line);
		fprintf(f, "cache=%s\n", line + name_at);
		while (at < s->nr && s->r[at].cache < idx)
			at++; /* (a record of no header: none expected) */
		for (; at < s->nr && s->r[at].cache == idx; at++) {
			const struct slabfill_rec *r = &s->r[at];

			static const char kind[] = {[SLABFILL_NODE] = 'n', [SLABFILL_CPU] = 'c',
						    [SLABFILL_CPU_PARTIAL] = 'p'};

			if (r->kind == SLABFILL_SHEAVES) {
				fprintf(f, "s %u", r->where);
				write_count(f, r->inuse);
				write_count(f, r->objects);
				write_count(f, r->cpu_free);
				fputc('\n', f);
				continue;
			}
			if (r->kind == SLABFILL_BARN) {
				fprintf(f, "b %u %u %u", r->where, r->inuse, r->objects);
				if (r->free_ok)
					fprintf(f, " %llu\n", (unsigned long long)r->slab);
				else
					fputs(" -\n", f);
				continue;
			}
			if (r->kind > SLABFILL_CPU_PARTIAL)
				continue; /* (none sent) */
			fprintf(f, "%c %u %llx %llx %u %u", kind[r->kind], r->where,
				(unsigned long long)r->slab, (unsigned long long)r->freelist,
				r->inuse, r->objects);
			if (r->kind == SLABFILL_CPU && r->cpu_free)
				fprintf(f, " %u", r->cpu_free - 1u);
			else if (r->kind == SLABFILL_CPU)
				fprintf(f, " -");
			write_free_bits(f, r);
			fputc('\n', f);
		}
	}
	return 0;
}

/* the object's map whose name ends in suffix (libbpf names a data
 * section's map after the object, cut to 15 characters) */
static struct bpf_map *map_ending(struct bpf_object *obj, const char *suffix)
{
	struct bpf_map *m, *found = NULL;
	size_t ns = strlen(suffix);

	bpf_object__for_each_map(m, obj) {
		size_t nl = strlen(bpf_map__name(m));

		if (nl >= ns && !strcmp(bpf_map__name(m) + nl - ns, suffix))
			found = m;
	}
	return found;
}

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG || !getenv("SLABFILL_VERBOSE"))
		return 0;
	return vfprintf(stderr, fmt, ap);
}

/* The program loaded and its iterator attached, ready for reads. */
struct fill_reader {
	struct bpf_object *obj;
	struct bpf_link *link;
	struct ring_buffer *ring;
	struct bpf_map *bss;
	struct slabs s;
	unsigned nodes;
	int cpus;
};

enum load_result {
	LOAD_OK,
	LOAD_UNAVAILABLE, /* no BPF, no kmem_cache iterator (before 6.13) */
	LOAD_FAILED,
};

/* The program of the running kernel's layout (slabfill.bpf.c enum
 * layout), from its BTF: struct kmem_cache_cpu up to 6.18 (7.0 removed
 * it), struct slub_percpu_sheaves from 6.18.  NULL when the kernel has
 * no BTF. */
static const char *program_for_kernel(void)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	bool cpu_slabs, sheaves;

	if (!vmlinux)
		return NULL;
	cpu_slabs = btf__find_by_name_kind(vmlinux, "kmem_cache_cpu", BTF_KIND_STRUCT) >= 0;
	sheaves = btf__find_by_name_kind(vmlinux, "slub_percpu_sheaves", BTF_KIND_STRUCT) >= 0;
	btf__free(vmlinux);
	return !cpu_slabs ? "slab_fill_7" : sheaves ? "slab_fill_618" : "slab_fill";
}

static enum load_result reader_load(struct fill_reader *rd, struct ss_error *err)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "slabfill");
	struct bpf_program *prog;
	const char *want = program_for_kernel();
	struct bpf_map *ro;
	__u32 cfg[2];

	memset(rd, 0, sizeof(*rd));
	rd->nodes = count_nodes();
	rd->cpus = libbpf_num_possible_cpus();
	if (rd->cpus <= 0)
		return ss_errorf(err, "cannot count the possible CPUs"), LOAD_FAILED;
	rd->obj = bpf_object__open_mem(slabfill_bpf_obj,
				       (size_t)(slabfill_bpf_obj_end - slabfill_bpf_obj), &opts);
	if (!rd->obj)
		return ss_errorf(err, "cannot open the BPF object"), LOAD_FAILED;
	/* rodata before load: slabfill.bpf.c's .rodata.cfg, nr_nodes then nr_cpus */
	ro = map_ending(rd->obj, ".cfg");
	cfg[0] = rd->nodes;
	cfg[1] = (__u32)rd->cpus;
	if (!ro || bpf_map__set_initial_value(ro, cfg, sizeof(cfg)))
		return ss_errorf(err, "cannot set the node and CPU counts"), LOAD_FAILED;
	if (!want)
		return ss_errorf(err, "the kernel has no BTF (/sys/kernel/btf/vmlinux): its "
				      "slab layout is unknown"), LOAD_UNAVAILABLE;
	bpf_object__for_each_program(prog, rd->obj)
		bpf_program__set_autoload(prog, !strcmp(bpf_program__name(prog), want));
	if (bpf_object__load(rd->obj))
		return ss_errorf(err, "the kernel refused the BPF program (no kmem_cache iterator "
				      "before 6.13, or no BPF here; SLABFILL_VERBOSE=1 says more)"),
		       LOAD_UNAVAILABLE;
	prog = bpf_object__find_program_by_name(rd->obj, want);
	rd->link = prog ? bpf_program__attach_iter(prog, NULL) : NULL;
	if (!rd->link)
		return ss_errorf(err, "cannot attach the kmem_cache iterator: %s", strerror(errno)),
		       LOAD_UNAVAILABLE;
	rd->ring = ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(rd->obj, "slabs")),
				    take, &rd->s, NULL);
	rd->bss = map_ending(rd->obj, ".bss");
	if (!rd->ring || !rd->bss)
		return ss_errorf(err, "cannot open the slab records' ring"), LOAD_FAILED;
	return LOAD_OK;
}

static void reader_close(struct fill_reader *rd)
{
	ring_buffer__free(rd->ring);
	bpf_link__destroy(rd->link);
	bpf_object__close(rd->obj);
	free(rd->s.r);
	memset(rd, 0, sizeof(*rd));
}

/* slabfill.bpf.c's .bss: cache_index, then dropped and cpu_unread,
 * 8-aligned; zeroed before each read (a loaded program keeps them) */
struct bss {
	__u32 cache_index, pad;
	__u64 dropped, cpu_unread;
};

/* One pass of the iterator, written to out. */
static int reader_read(struct fill_reader *rd, const char *out, struct ss_error *err)
{
	struct ss_atomic_file f;
	struct bss b = {0};
	__u32 zero = 0;
	char *text = NULL;
	size_t len = 0;
	int fd, rc = -1;

	rd->s.nr = 0;
	rd->s.oom = 0;
	if (bpf_map__value_size(rd->bss) != sizeof(b) ||
	    bpf_map_update_elem(bpf_map__fd(rd->bss), &zero, &b, BPF_ANY))
		return ss_errorf(err, "cannot reset the iterator's counters");
	if ((fd = bpf_iter_create(bpf_link__fd(rd->link))) < 0)
		return ss_errorf(err, "cannot start the kmem_cache iterator: %s", strerror(errno));
	text = read_all(fd, rd->ring, &len, err);
	close(fd);
	if (!text)
		return -1;
	if (ring_buffer__consume(rd->ring) < 0 || rd->s.oom)
		ss_errorf(err, "reading the slab records failed");
	else if (bpf_map_lookup_elem(bpf_map__fd(rd->bss), &zero, &b))
		ss_errorf(err, "cannot read the drop count");
	else if (b.dropped)
		ss_errorf(err, "the ring buffer dropped %llu slab records",
			  (unsigned long long)b.dropped);
	else if (b.cpu_unread)
		ss_errorf(err, "%llu CPU areas could not be found",
			  (unsigned long long)b.cpu_unread);
	else if (!ss_atomic_open(&f, out, err)) {
		if (write_out(f.fp, text, &rd->s, rd->nodes, (unsigned)rd->cpus, err))
			ss_atomic_abort(&f);
		else
			rc = ss_atomic_commit(&f, err);
	}
	free(text);
	return rc;
}

/* Which page frames are slab pages now, into out (base/slabpages.h). */
static int read_pages(const char *out, struct ss_error *err)
{
	struct ss_atomic_file f;
	uint64_t slab;
	int fd = open(KPAGEFLAGS, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return ss_error_at(err, KPAGEFLAGS, 0, "%s", strerror(errno));
	rc = ss_atomic_open(&f, out, err);
	if (!rc && (rc = ss_slabpages_scan(fd, KPAGEFLAGS, f.fp, &slab, err)))
		ss_atomic_abort(&f);
	else if (!rc)
		rc = ss_atomic_commit(&f, err);
	close(fd);
	return rc;
}

/* "ok", or "error MESSAGE" on one line */
static void reply(const char *error)
{
	if (!error) {
		puts("ok");
	} else {
		fputs("error ", stdout);
		for (; *error; error++)
			putchar(*error == '\n' ? ' ' : *error);
		putchar('\n');
	}
	fflush(stdout);
}

/* --serve: requests on stdin until its end (above) */
static int serve(void)
{
	struct fill_reader rd;
	struct ss_error load_err = {{0}}, err;
	enum load_result loaded = reader_load(&rd, &load_err);
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	reply(loaded == LOAD_OK ? NULL : load_err.msg);
	while ((n = getline(&line, &cap, stdin)) > 0) {
		int rc;

		if (line[n - 1] == '\n')
			line[--n] = 0;
		err.msg[0] = 0;
		if (!strncmp(line, "fill ", 5) && line[5])
			rc = loaded == LOAD_OK ? reader_read(&rd, line + 5, &err)
					       : ss_errorf(&err, "%s", load_err.msg);
		else if (!strncmp(line, "pages ", 6) && line[6])
			rc = read_pages(line + 6, &err);
		else
			rc = ss_errorf(&err, "unknown request '%.100s' (fill OUT, pages OUT)", line);
		reply(rc ? err.msg : NULL);
	}
	free(line);
	reader_close(&rd);
	return 0;
}

int main(int argc, char **argv)
{
	struct fill_reader rd;
	struct ss_error err = {{0}};
	enum load_result loaded;
	int rc;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: slab-fill OUT | slab-fill --serve\n"
			"  every SLUB cache's node partial, CPU and CPU partial slabs with\n"
			"  their fill and free objects, in list order, and its sheaves' and\n"
			"  barns' objects (6.18+), read through a BPF kmem_cache iterator\n"
			"  (root, Linux 6.13+, 7.x included).  --serve: the program\n"
			"  loaded once, then 'fill OUT' and 'pages OUT' requests on stdin,\n"
			"  each answered 'ok' or 'error MESSAGE' (docs/capture.md)\n");
		return argc == 2 ? 0 : 2;
	}
	libbpf_set_print(print_libbpf);
	if (!strcmp(argv[1], "--serve"))
		return serve();
	loaded = reader_load(&rd, &err);
	rc = loaded != LOAD_OK ? -1 : reader_read(&rd, argv[1], &err);
	if (rc)
		fprintf(stderr, "slab-fill: %s\n", err.msg);
	reader_close(&rd);
	return loaded == LOAD_UNAVAILABLE ? 3 : rc ? 1 : 0;
}
