/* topology.c - topologies: flat ones from a CPU and node count, and hwloc
 * ones (this host, a synthetic description, an XML export); the per-node
 * zonelists and the trace-CPU maps derived from them. */
#include "topology.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <hwloc.h>

/* What a loader hands to finish(): per-PU scatter keys and node distances. */
struct topo_build {
	uint32_t *keys;	   /* nr_cpus rows of depth: sibling ranks, PU first */
	unsigned depth;
	uint32_t *dist;	   /* nr_nodes x nr_nodes, 0 on the diagonal */
};

static int topo_alloc(struct ss_topology *topo, unsigned nr_cpus,
		      unsigned nr_nodes, struct ss_error *err)
{
	if (!nr_cpus || !nr_nodes || nr_nodes > nr_cpus || nr_cpus > SS_TOPO_MAX_PUS ||
	    nr_nodes > SS_TOPO_MAX_NODES)
		return ss_errorf(err, "topology: %u PUs on %u NUMA nodes is not a machine slabsim can model (1..%u PUs, 1..%u nodes, no more nodes than PUs)",
				 nr_cpus, nr_nodes, SS_TOPO_MAX_PUS, SS_TOPO_MAX_NODES);
	topo->nr_cpus = nr_cpus;
	topo->nr_nodes = nr_nodes;
	topo->cpu_node = calloc(nr_cpus, sizeof(*topo->cpu_node));
	topo->cpu_package = calloc(nr_cpus, sizeof(*topo->cpu_package));
	topo->cpu_os = calloc(nr_cpus, sizeof(*topo->cpu_os));
	topo->scatter = calloc(nr_cpus, sizeof(*topo->scatter));
	topo->node_order = calloc((size_t)nr_nodes * nr_nodes, sizeof(*topo->node_order));
	if (!topo->cpu_node || !topo->cpu_package || !topo->cpu_os ||
	    !topo->scatter || !topo->node_order)
		return ss_errorf(err, "topology: out of memory");
	return 0;
}

/* ---- zonelists: build_zonelists() orders nodes by node_distance() ---- */

struct zone_rank {
	uint32_t dist, after; /* distance, then how far after the local node */
	uint16_t node;
};

static int zone_cmp(const void *a, const void *b)
{
	const struct zone_rank *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return x->after < y->after ? -1 : x->after > y->after;
}

static int build_zonelists(struct ss_topology *topo, const uint32_t *dist)
{
	unsigned n = topo->nr_nodes;
	struct zone_rank *r = malloc(n * sizeof(*r));

	if (!r)
		return -1;
	for (unsigned local = 0; local < n; local++) {
		uint16_t *row = topo->node_order + (size_t)local * n;

		for (unsigned i = 0; i < n; i++) {
			unsigned node = (local + i) % n;

			/* the local node first, whatever the matrix says */
			r[i] = (struct zone_rank){.dist = i ? dist[(size_t)local * n + node] + 1 : 0,
						  .after = i, .node = (uint16_t)node};
		}
		qsort(r, n, sizeof(*r), zone_cmp);
		for (unsigned i = 0; i < n; i++)
			row[i] = r[i].node;
	}
	free(r);
	return 0;
}

/* ---- scatter order: sort PUs by their sibling ranks, innermost first ---- */

struct pu_key {
	const uint32_t *key;
	unsigned depth;
	uint16_t pu;
};

static int pu_key_cmp(const void *a, const void *b)
{
	const struct pu_key *x = a, *y = b;

	for (unsigned d = 0; d < x->depth; d++)
		if (x->key[d] != y->key[d])
			return x->key[d] < y->key[d] ? -1 : 1;
	return x->pu < y->pu ? -1 : x->pu > y->pu;
}

static int build_scatter(struct ss_topology *topo, const struct topo_build *b)
{
	unsigned n = topo->nr_cpus;
	struct pu_key *k = malloc(n * sizeof(*k));

	if (!k)
		return -1;
	for (unsigned i = 0; i < n; i++)
		k[i] = (struct pu_key){b->keys + (size_t)i * b->depth, b->depth, (uint16_t)i};
	qsort(k, n, sizeof(*k), pu_key_cmp);
	for (unsigned i = 0; i < n; i++)
		topo->scatter[i] = k[i].pu;
	free(k);
	return 0;
}

/* ---- maps ---- */

int ss_cpu_map_parse(const char *name, enum ss_cpu_map *out)
{
	static const char *const names[] = {"identity", "compact", "scatter", "fold"};

	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(name, names[i])) {
			*out = (enum ss_cpu_map)i;
			return 0;
		}
	return -1;
}

const char *ss_cpu_map_name(enum ss_cpu_map map)
{
	switch (map) {
	case SS_MAP_COMPACT: return "compact";
	case SS_MAP_SCATTER: return "scatter";
	case SS_MAP_FOLD: return "fold";
	default: return "identity";
	}
}

/* Quotes, backslashes and control bytes would break summary.json. */
static void json_safe(char *s)
{
	for (; *s; s++) {
		if (*s == '"')
			*s = '\'';
		else if (*s == '\\')
			*s = '/';
		else if ((unsigned char)*s < 0x20)
			*s = ' ';
	}
}

static void make_desc(struct ss_topology *topo)
{
	snprintf(topo->desc, sizeof(topo->desc),
		 "%.150s: %u package%s, %u NUMA node%s, %u cores, %u PUs; map %s",
		 topo->spec, topo->nr_packages, topo->nr_packages == 1 ? "" : "s",
		 topo->nr_nodes, topo->nr_nodes == 1 ? "" : "s", topo->nr_cores,
		 topo->nr_cpus, ss_cpu_map_name(topo->map));
	json_safe(topo->desc);
}

int ss_topology_set_map(struct ss_topology *topo, enum ss_cpu_map map,
			struct ss_error *err)
{
	unsigned nr = topo->nr_cpus;

	if (map == SS_MAP_IDENTITY) /* OS indexes may have holes */
		for (unsigned p = 0; p < topo->nr_cpus; p++)
			if (topo->cpu_os[p] + 1 > nr)
				nr = topo->cpu_os[p] + 1;
	if (map == SS_MAP_FOLD) /* every trace CPU (at most 65535) has a PU */
		nr = SS_TOPO_MAX_PUS + 1;
	else if (nr > SS_TOPO_MAX_PUS)
		return ss_errorf(err, "topology: OS index %u is too large for the identity map",
				 nr - 1);
	free(topo->cpu_map);
	topo->cpu_map = malloc(nr * sizeof(*topo->cpu_map));
	if (!topo->cpu_map)
		return ss_errorf(err, "topology: out of memory");
	topo->nr_map = nr;
	topo->map = map;
	for (unsigned c = 0; c < nr; c++)
		topo->cpu_map[c] = map == SS_MAP_FOLD ? topo->scatter[c % topo->nr_cpus] : SS_NO_PU;
	for (unsigned p = 0; p < topo->nr_cpus; p++) {
		if (map == SS_MAP_IDENTITY)
			topo->cpu_map[topo->cpu_os[p]] = (uint16_t)p;
		else if (map == SS_MAP_COMPACT)
			topo->cpu_map[p] = (uint16_t)p;
		else if (map == SS_MAP_SCATTER)
			topo->cpu_map[p] = topo->scatter[p];
	}
	make_desc(topo);
	return 0;
}

static int finish(struct ss_topology *topo, const struct topo_build *b,
		  struct ss_error *err)
{
	if (build_zonelists(topo, b->dist) || build_scatter(topo, b))
		return ss_errorf(err, "topology: out of memory");
	return ss_topology_set_map(topo, SS_MAP_IDENTITY, err);
}

/* ---- flat ---- */

int ss_topology_flat(struct ss_topology *topo, unsigned nr_cpus,
		     unsigned nr_nodes, struct ss_error *err)
{
	struct topo_build b = {.depth = 2};
	int rc = -1;

	memset(topo, 0, sizeof(*topo));
	if (topo_alloc(topo, nr_cpus, nr_nodes, err))
		goto out;
	topo->nr_packages = nr_nodes;
	topo->nr_cores = nr_cpus;
	snprintf(topo->spec, sizeof(topo->spec), "flat");
	b.keys = calloc((size_t)nr_cpus * b.depth, sizeof(*b.keys));
	b.dist = calloc((size_t)nr_nodes * nr_nodes, sizeof(*b.dist));
	if (!b.keys || !b.dist) {
		ss_errorf(err, "topology: out of memory");
		goto out;
	}
	for (unsigned c = 0; c < nr_cpus; c++) {
		unsigned node = (unsigned)((uint64_t)c * nr_nodes / nr_cpus);
		unsigned first = (unsigned)(((uint64_t)node * nr_cpus + nr_nodes - 1) / nr_nodes);

		topo->cpu_node[c] = (uint16_t)node;
		topo->cpu_package[c] = (uint16_t)node;
		topo->cpu_os[c] = c;
		b.keys[c * 2] = c - first; /* rank within the node */
		b.keys[c * 2 + 1] = node;
	}
	for (unsigned i = 0; i < nr_nodes; i++)
		for (unsigned j = 0; j < nr_nodes; j++)
			b.dist[i * nr_nodes + j] = i != j;
	rc = finish(topo, &b, err);
out:
	free(b.keys);
	free(b.dist);
	if (rc)
		ss_topology_release(topo);
	return rc;
}

/* ---- hwloc ---- */

static unsigned count_type(hwloc_topology_t t, hwloc_obj_type_t type,
			   unsigned fallback)
{
	int n = hwloc_get_nbobjs_by_type(t, type);

	return n > 0 ? (unsigned)n : fallback;
}

/* Node distances: hwloc's latency matrix if the topology has one, else
 * the tree: nodes under a deeper common ancestor are closer. */
static void node_distances(hwloc_topology_t t, unsigned nn, uint32_t *dist)
{
	struct hwloc_distances_s *d = NULL;
	unsigned nr = 1;
	int depth = hwloc_topology_get_depth(t);

	if (!hwloc_distances_get_by_type(t, HWLOC_OBJ_NUMANODE, &nr, &d,
					 HWLOC_DISTANCES_KIND_MEANS_LATENCY, 0) &&
	    nr == 1 && d->nbobjs == nn) {
		for (unsigned i = 0; i < nn; i++)
			for (unsigned j = 0; j < nn; j++)
				dist[d->objs[i]->logical_index * nn + d->objs[j]->logical_index] =
					(uint32_t)d->values[i * nn + j];
		hwloc_distances_release(t, d);
		return;
	}
	if (nr == 1 && d)
		hwloc_distances_release(t, d);
	for (unsigned i = 0; i < nn; i++) {
		hwloc_obj_t a = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, i);

		for (unsigned j = 0; j < nn; j++) {
			hwloc_obj_t b = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, j);
			hwloc_obj_t c = hwloc_get_common_ancestor_obj(t, a->parent, b->parent);

			dist[(size_t)i * nn + j] = i == j ? 0 : (uint32_t)(depth + 1 - c->depth);
		}
	}
}

/* Each PU's node: the first node (in logical order) whose cpuset holds it;
 * a PU outside every node's cpuset stays on node 0. */
static void pu_nodes(hwloc_topology_t t, struct ss_topology *topo)
{
	unsigned char *done = calloc(topo->nr_cpus, 1);

	if (!done)
		return;
	for (unsigned n = 0; n < topo->nr_nodes; n++) {
		hwloc_obj_t node = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, n);
		hwloc_obj_t pu = NULL;

		while ((pu = hwloc_get_next_obj_inside_cpuset_by_type(t, node->cpuset,
								       HWLOC_OBJ_PU, pu)))
			if (pu->logical_index < topo->nr_cpus && !done[pu->logical_index]) {
				done[pu->logical_index] = 1;
				topo->cpu_node[pu->logical_index] = (uint16_t)n;
			}
	}
	free(done);
}

static int from_hwloc(struct ss_topology *topo, hwloc_topology_t t,
		      struct ss_error *err)
{
	unsigned npu = count_type(t, HWLOC_OBJ_PU, 0);
	unsigned nn = count_type(t, HWLOC_OBJ_NUMANODE, 1);
	struct topo_build b = {.depth = (unsigned)hwloc_topology_get_depth(t)};
	int rc = -1;

	if (topo_alloc(topo, npu, nn, err))
		return -1;
	topo->nr_packages = count_type(t, HWLOC_OBJ_PACKAGE, 1);
	topo->nr_cores = count_type(t, HWLOC_OBJ_CORE, npu);
	b.keys = calloc((size_t)npu * b.depth, sizeof(*b.keys));
	b.dist = calloc((size_t)nn * nn, sizeof(*b.dist));
	if (!b.keys || !b.dist) {
		ss_errorf(err, "topology: out of memory");
		goto out;
	}
	for (unsigned p = 0; p < npu; p++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, p);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_PACKAGE, pu);
		unsigned d = 0;

		topo->cpu_os[p] = pu->os_index;
		topo->cpu_package[p] = pkg ? (uint16_t)pkg->logical_index : 0;
		for (hwloc_obj_t o = pu; o->parent && d < b.depth; o = o->parent)
			b.keys[(size_t)p * b.depth + d++] = o->sibling_rank;
	}
	pu_nodes(t, topo);
	node_distances(t, nn, b.dist);
	rc = finish(topo, &b, err);
out:
	free(b.keys);
	free(b.dist);
	return rc;
}

/* synth:"pack:2 core:4" -> pack:2 core:4 (make and shells keep quotes) */
static void unquote(const char *in, char *out, size_t n)
{
	size_t len = strlen(in);

	if (len >= 2 && in[0] == '"' && in[len - 1] == '"') {
		in++;
		len -= 2;
	}
	snprintf(out, n, "%.*s", (int)len, in);
}

/* hwloc builds every object of a synthetic description before slabsim
 * can count them, and takes minutes over thousands of NUMA nodes: count
 * PUs and nodes from the text first.  A level is TYPE:N (or a bare N) at
 * the top level of the string; "[numa...]" attaches one node to each
 * object of the level before it.  Forms this misses are still bounded
 * after loading. */
struct synth_count {
	uint64_t pus, nodes;
};

static int is_numa_type(const char *s, size_t len)
{
	return len >= 2 && (!strncasecmp(s, "numanode", len < 8 ? len : 8) ||
			    (len <= 4 && !strncasecmp(s, "node", len)));
}

static void count_token(const char *tok, size_t len, struct synth_count *c)
{
	size_t name = strcspn(tok, ":([ ");
	uint64_t v = 0;
	const char *p = tok + name;

	if (tok[0] == '[') { /* memory attached to every object so far */
		if (is_numa_type(tok + 1, strcspn(tok + 1, "(]")))
			c->nodes += c->pus;
		return;
	}
	if (name < len && *p == ':')
		p++;
	else if (name)
		return; /* a type without an arity: hwloc will say */
	while (p < tok + len && *p >= '0' && *p <= '9' && v < (1ull << 32))
		v = v * 10 + (uint64_t)(*p++ - '0');
	c->pus *= v ? v : 1;
	if (c->pus > (1ull << 32))
		c->pus = 1ull << 32;
	if (is_numa_type(tok, name))
		c->nodes += c->pus;
}

static void synth_count(const char *d, struct synth_count *c)
{
	int depth = 0;
	const char *tok = NULL;

	c->pus = 1;
	c->nodes = 0;
	for (const char *p = d;; p++) {
		int end = !*p || (!depth && (*p == ' ' || *p == '\t'));

		if (end && tok) {
			count_token(tok, (size_t)(p - tok), c);
			tok = NULL;
		} else if (!end && !tok) {
			tok = p;
		}
		if (!*p)
			break;
		depth += (*p == '(' || *p == '[') - ((*p == ')' || *p == ']') && depth > 0);
	}
}

static int synth_check(const char *d, struct ss_error *err)
{
	struct synth_count c;

	synth_count(d, &c);
	if (c.pus > SS_TOPO_MAX_PUS)
		return ss_errorf(err, "topology: synthetic description '%.200s' has more than %u PUs",
				 d, SS_TOPO_MAX_PUS);
	if (c.nodes > SS_TOPO_MAX_NODES)
		return ss_errorf(err, "topology: synthetic description '%.200s' has more than %u NUMA nodes",
				 d, SS_TOPO_MAX_NODES);
	return 0;
}

static int hwloc_source(hwloc_topology_t t, const char *spec, char *arg,
			size_t n, struct ss_error *err)
{
	if (!strcmp(spec, "host"))
		return 0;
	if (!strncmp(spec, "synth:", 6)) {
		unquote(spec + 6, arg, n);
		if (synth_check(arg, err))
			return -1;
		if (hwloc_topology_set_synthetic(t, arg))
			return ss_errorf(err, "topology: bad synthetic description '%s' (hwloc syntax, e.g. \"pack:2 numa:2 core:16 pu:2\")",
					 arg);
		return 0;
	}
	if (!strncmp(spec, "xml:", 4)) {
		unquote(spec + 4, arg, n);
		if (access(arg, R_OK))
			return ss_errorf(err, "topology: %s: cannot read: %s", arg, strerror(errno));
		if (hwloc_topology_set_xml(t, arg))
			return ss_errorf(err, "topology: %s: not an hwloc XML topology", arg);
		return 0;
	}
	return ss_errorf(err, "topology: unknown spec '%.100s' (want host, synth:\"DESCRIPTION\" or xml:FILE)",
			 spec);
}

int ss_topology_load(struct ss_topology *topo, const char *spec,
		     struct ss_error *err)
{
	hwloc_topology_t t;
	char arg[4096];
	int rc = -1;

	memset(topo, 0, sizeof(*topo));
	if (hwloc_topology_init(&t))
		return ss_errorf(err, "topology: hwloc_topology_init failed");
	if (hwloc_source(t, spec, arg, sizeof(arg), err))
		goto out;
	if (hwloc_topology_load(t)) {
		ss_errorf(err, "topology: hwloc could not load '%.200s': %s", spec,
			  strerror(errno));
		goto out;
	}
	if (!strcmp(spec, "host"))
		snprintf(topo->spec, sizeof(topo->spec), "host");
	else
		snprintf(topo->spec, sizeof(topo->spec), "%s%.150s",
			 spec[0] == 's' ? "synth:" : "xml:", arg);
	rc = from_hwloc(topo, t, err);
out:
	hwloc_topology_destroy(t);
	if (rc)
		ss_topology_release(topo);
	return rc;
}

void ss_topology_release(struct ss_topology *topo)
{
	free(topo->cpu_node);
	free(topo->cpu_package);
	free(topo->cpu_os);
	free(topo->node_order);
	free(topo->cpu_map);
	free(topo->scatter);
	memset(topo, 0, sizeof(*topo));
}
