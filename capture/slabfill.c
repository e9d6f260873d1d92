/* slabfill.c - `slab-fill`: every SLUB cache's partial and CPU slabs, each
 * with its fill, in list order, read from the running kernel through a BPF
 * kmem_cache iterator (slabfill.bpf.c, linked in as bytes: slabfill_obj.S).
 *
 *   slab-fill OUT   (root; the capture's slab-fill-before.txt and slab-fill-after.txt,
 *                    docs/capture.md)
 *
 * Output, written to OUT.tmp and renamed:
 *   slabsim-slabfill 3 nodes=M cpus=N
 *   cache=NAME
 *   n NODE SLAB FREE INUSE OBJECTS BITS   a node partial slab, head of the list first
 *   c CPU SLAB FREE INUSE OBJECTS CPUFREE BITS
 *                                         a CPU's active slab
 *   p CPU SLAB FREE INUSE OBJECTS BITS    a CPU partial slab, head of the list first
 * SLAB is the struct slab address (an identity), FREE the address of a free
 * object on it (hex, 0 when the slab shows none): the slab's pages are
 * FREE rounded down to the slab size, which is how a trace's pointers name
 * it.  INUSE is the slab's own count (an active slab's counts the objects
 * on its CPU's freelist as in use, as SLUB does); CPUFREE those objects,
 * counted by walking the list, '-' when the walk failed (the list changed
 * as it was read).  BITS: which objects were free, a hex digit per four
 * from the slab's start (bit 0 the lowest), '-' when not known.  Exit 0
 * written, 1 on error, 3 when BPF or the iterator is not available here
 * (the capture then goes on without the file).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "slabfill_rec.h"

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

/* the iterator's text: "cache N NAME" lines */
static char *read_all(int fd, size_t *n)
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
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			fprintf(stderr, "slab-fill: reading the kmem_cache iterator: %s\n", strerror(errno));
			break;
		}
		if (!got) {
			buf[len] = 0;
			*n = len;
			return buf;
		}
		len += (size_t)got;
	}
	free(buf);
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

/* cache lines in iterator order, each followed by its slabs (the ring keeps
 * each cache's records in the order they were sent) */
static int write_out(FILE *f, char *text, const struct slabs *s, unsigned nodes, unsigned cpus)
{
	size_t at = 0;
	char *line, *save = NULL;

	fprintf(f, "slabsim-slabfill 3 nodes=%u cpus=%u\n", nodes, cpus);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned idx;
		int name_at = 0;

		if (sscanf(line, "cache %u %n", &idx, &name_at) != 1 || !name_at) {
			fprintf(stderr, "slab-fill: unexpected iterator line '%s'\n", line);
			return -1;
		}
		fprintf(f, "cache=%s\n", line + name_at);
		while (at < s->nr && s->r[at].cache < idx)
			at++; /* (a record of no header: none expected) */
		for (; at < s->nr && s->r[at].cache == idx; at++) {
			const struct slabfill_rec *r = &s->r[at];

			static const char kind[] = {[SLABFILL_NODE] = 'n', [SLABFILL_CPU] = 'c',
						    [SLABFILL_CPU_PARTIAL] = 'p'};

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
	return ferror(f) ? -1 : 0;
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

int main(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .object_name = "slabfill");
	struct bpf_object *obj = NULL;
	struct bpf_program *prog;
	struct bpf_link *link = NULL;
	struct ring_buffer *ring = NULL;
	struct slabs s = {0};
	char *text = NULL, tmp[4096];
	size_t len = 0;
	int rc = 3, fd = -1;
	unsigned nodes = count_nodes();
	int cpus = libbpf_num_possible_cpus();
	FILE *f;

	if (argc != 2 || !strcmp(argv[1], "--help")) {
		fprintf(argc == 2 ? stdout : stderr,
			"usage: slab-fill OUT\n"
			"  every SLUB cache's node partial, CPU and CPU partial slabs with\n"
			"  their fill and free objects, in list order, read through a BPF\n"
			"  kmem_cache iterator (root, Linux 6.13+)\n");
		return argc == 2 ? 0 : 2;
	}
	libbpf_set_print(print_libbpf);
	if (cpus <= 0) {
		fprintf(stderr, "slab-fill: cannot count the possible CPUs\n");
		return 1;
	}
	obj = bpf_object__open_mem(slabfill_bpf_obj, (size_t)(slabfill_bpf_obj_end - slabfill_bpf_obj), &opts);
	if (!obj) {
		fprintf(stderr, "slab-fill: cannot open the BPF object\n");
		return 1;
	}
	/* rodata before load */
	{
		struct bpf_map *ro = map_ending(obj, ".cfg");
		/* (slabfill.bpf.c's .rodata.cfg: nr_nodes, then nr_cpus) */
		__u32 v[2] = {nodes, (__u32)cpus};

		if (!ro || bpf_map__set_initial_value(ro, v, sizeof(v))) {
			fprintf(stderr, "slab-fill: cannot set the node and CPU counts\n");
			goto out;
		}
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "slab-fill: the kernel refused the BPF program (no kmem_cache iterator before 6.13, or no BPF here; SLABFILL_VERBOSE=1 says more)\n");
		goto out;
	}
	prog = bpf_object__find_program_by_name(obj, "slab_fill");
	link = prog ? bpf_program__attach_iter(prog, NULL) : NULL;
	if (!link || (fd = bpf_iter_create(bpf_link__fd(link))) < 0) {
		fprintf(stderr, "slab-fill: cannot start the kmem_cache iterator: %s\n", strerror(errno));
		goto out;
	}
	rc = 1;
	ring = ring_buffer__new(bpf_map__fd(bpf_object__find_map_by_name(obj, "slabs")), take, &s, NULL);
	if (!ring || !(text = read_all(fd, &len)))
		goto out;
	if (ring_buffer__consume(ring) < 0 || s.oom) {
		fprintf(stderr, "slab-fill: reading the slab records failed\n");
		goto out;
	}
	{
		struct bpf_map *bss = map_ending(obj, ".bss");
		/* (slabfill.bpf.c's .bss: cache_index, then dropped and
		 * cpu_unread, 8-aligned) */
		struct { __u32 cache_index, pad; __u64 dropped, cpu_unread; } b;
		__u32 zero = 0;

		if (!bss || bpf_map_lookup_elem(bpf_map__fd(bss), &zero, &b)) {
			fprintf(stderr, "slab-fill: cannot read the drop count\n");
			goto out;
		}
		if (b.dropped) {
			fprintf(stderr, "slab-fill: the ring buffer dropped %llu slab records\n",
				(unsigned long long)b.dropped);
			goto out;
		}
		if (b.cpu_unread) {
			fprintf(stderr, "slab-fill: %llu CPU areas could not be found\n",
				(unsigned long long)b.cpu_unread);
			goto out;
		}
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	if (!(f = fopen(tmp, "w"))) {
		fprintf(stderr, "slab-fill: %s: %s\n", tmp, strerror(errno));
		goto out;
	}
	if (write_out(f, text, &s, nodes, (unsigned)cpus) | fclose(f) || rename(tmp, argv[1])) {
		fprintf(stderr, "slab-fill: writing %s failed\n", argv[1]);
		unlink(tmp);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	ring_buffer__free(ring);
	bpf_link__destroy(link);
	bpf_object__close(obj);
	free(text);
	free(s.r);
	return rc;
}
