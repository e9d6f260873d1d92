# mk/topology.mk - topologies (docs/topology.md).
#
#   make topo-plot [TOPO_WORKLOADS="smack17k hackbench"] [TOPO_MODEL=traced]
#                  [TOPO_MAP=fold] [TOPO_SIZES="1 2 4 ... 256"]
#       footprint and p99 latency against the number of PUs of a synthetic
#       topology, one row of panels per workload, the sizes where NUMA
#       nodes begin marked: reports/topology/topology.png/.svg, data in
#       reports/topology/W.dat
#   make topologies
#       rewrite datasets/topologies/*.xml from the synthetic descriptions
#       below with hwloc's own exporter (lstopo)
#
# `make sim WORKLOAD=W TOPOLOGY=SPEC [MAP=POLICY]` replays every run on a
# topology (mk/runs.inc passes them to `slabsim run`).

TOPO_DIR := reports/topology
TOPO_SIZES ?= 1 2 4 8 16 32 64 128 256
TOPO_MODEL ?= traced
TOPO_MAP ?= fold
# The workloads that exist among the two the plot is for.
TOPO_WORKLOADS ?= $(filter smack17k hackbench,$(WORKLOADS))

# One synthetic machine per size: up to 8 PUs one package of 2-thread
# cores, from 16 two packages, from 128 two NUMA nodes per package.
TOPO_SHAPE_1 := pack:1 core:1 pu:1
TOPO_SHAPE_2 := pack:1 core:1 pu:2
TOPO_SHAPE_4 := pack:1 core:2 pu:2
TOPO_SHAPE_8 := pack:1 core:4 pu:2
TOPO_SHAPE_16 := pack:2 numa:1 core:4 pu:2
TOPO_SHAPE_32 := pack:2 numa:1 core:8 pu:2
TOPO_SHAPE_64 := pack:2 numa:1 core:16 pu:2
TOPO_SHAPE_128 := pack:2 numa:2 core:16 pu:2
TOPO_SHAPE_256 := pack:2 numa:4 core:16 pu:2

# ---- the plot: one sub-make per workload (its TARGET, VARIANTS, DATA) ----
.PHONY: topo-plot topo-series topo-all-series
topo-plot: $(TOPO_DIR)/topology.png $(TOPO_DIR)/topology.svg
	@echo "slabsim: $(TOPO_DIR)/topology.png written"
# Phony, so the plot is always redrawn: TOPO_WORKLOADS, TOPO_MODEL or
# TOPO_MAP may differ from the last time with every W.dat up to date.
topo-all-series: $(SLABSIM)
	$(if $(TOPO_WORKLOADS),,@echo "make topo-plot: none of smack17k, hackbench is a workload here" >&2; exit 2)
	+@for w in $(TOPO_WORKLOADS); do \
		$(MAKE) --no-print-directory topo-series WORKLOAD=$$w \
			SLABSIM=$(abspath $(SLABSIM)) || exit 1; \
	done
# mk/plot.inc's rule; topology.gp reads dir/W.dat for each of workloads.
$(eval $(call gnuplot_rule,$(TOPO_DIR)/topology,,analysis/topology.gp,$\
	dir='$(TOPO_DIR)'; workloads='$(TOPO_WORKLOADS)'; model='$(TOPO_MODEL)'; map='$(TOPO_MAP)',$\
	topo-all-series))

# Inside a workload's sub-make from here on.  What is replayed: the first
# variant's trace on the workload's target, unless the workload's trace
# and target are named below (hackbench: one trace for every variant, a
# target per variant).
TOPO_TRACE_hackbench := hackbench.sbt
TOPO_TARGET_hackbench := x86_64-6.1
TOPO_VARIANT ?= $(firstword $(VARIANTS))
TOPO_TRACE = $(or $(TOPO_TRACE_$(WORKLOAD)),$(TOPO_VARIANT).trace)
TOPO_TARGET = $(or $(TOPO_TARGET_$(WORKLOAD)),$(TARGET))
TOPO_W := $(TOPO_DIR)/$(WORKLOAD)
# One trace per workload, generated for the largest size, replayed on
# every size from one pass over it (`slabsim run --runs`; the map folds
# its CPUs onto fewer PUs); the trace is removed afterwards (hackbench's
# is 200 MB).  trace_cpus: the CPUs its events run on; N/nodes: the
# NUMA nodes of size N.
TOPO_MAX := $(shell echo $(TOPO_SIZES) | tr ' ' '\n' | sort -n | tail -1)
TOPO_POINTS := $(foreach n,$(TOPO_SIZES),$(TOPO_W)/$(n)/summary.csv)
$(TOPO_POINTS) &: $(SLABSIM)
	+@$(MAKE) --no-print-directory WORKLOAD=$(WORKLOAD) CPUS=$(TOPO_MAX) \
		DATA=$(TOPO_W)/data $(TOPO_W)/data/$(TOPO_TRACE)
	$(call say,RUN,$(TOPO_W)/N for N in $(TOPO_SIZES))
	printf '%s\n' $(foreach n,$(TOPO_SIZES),"--topology 'synth:$(TOPO_SHAPE_$(n))' --out $(TOPO_W)/$(n)") \
		> $(TOPO_W)/runs.list
	$(SLABSIM) run --quiet --trace $(TOPO_W)/data/$(TOPO_TRACE) --model $(TOPO_MODEL) \
		--target $(TOPO_TARGET) --map $(TOPO_MAP) --runs $(TOPO_W)/runs.list
	$(SLABSIM) convert --to text $(TOPO_W)/data/$(TOPO_TRACE) - | \
		awk '$$1 == "a" || $$1 == "f" { c[$$2] = 1 } END { print length(c) }' > $(TOPO_W)/trace_cpus
	$(foreach n,$(TOPO_SIZES),$(SLABSIM) topology --topology 'synth:$(TOPO_SHAPE_$(n))' | \
		sed -n 's/^numa_nodes=//p' > $(TOPO_W)/$(n)/nodes &&) true
	rm -rf $(TOPO_W)/data

# W.dat, one row per size: pus footprint_kib p99_ns nodes trace_cpus
# node_start target, node_start = 1 on the first size with more NUMA nodes
# than the size before (the plot marks it).
$(TOPO_DIR)/$(WORKLOAD).dat: $(foreach n,$(TOPO_SIZES),$(TOPO_W)/$(n)/summary.csv)
	@mkdir -p $(@D)
	@{ echo "# pus footprint_kib p99_ns nodes trace_cpus node_start target ($(WORKLOAD), trace $(TOPO_TRACE), model $(TOPO_MODEL), map $(TOPO_MAP))"; \
	  for f in $^; do d=$$(dirname $$f); awk -F, -v nodes=$$(cat $$d/nodes) -v tc=$$(cat $(TOPO_W)/trace_cpus) \
		-v tgt=$(TOPO_TARGET) 'NR == 1 { for (i = 1; i <= NF; i++) c[$$i] = i; next } \
		{ print $$c["cpus"], $$c["footprint_kib"], $$c["p99_ns"], nodes, tc, 0, tgt }' $$f; done; } | \
	awk '/^#/ { print; next } { $$6 = (n != "" && $$4 > n); n = $$4; print }' > $@.tmp.$$$$ && \
	  mv -f $@.tmp.$$$$ $@ || { rm -f $@.tmp.$$$$; exit 1; }

topo-series: $(TOPO_DIR)/$(WORKLOAD).dat

# ---- the shipped XML topologies ----
# Synthetic descriptions of real machines from their vendors' published
# sizes (cores, threads, caches; Linux CPU numbering: all first threads,
# then the second ones), exported by hwloc.  oxide-turin-vm-2pu.xml is
# the real export of the 2-PU VM this project was developed on
# (`lstopo --no-io`, HostName removed): it is not rewritten here.
TOPO_XML_xeon-gold-6248-2s := pack:2 [numa(memory=206158430208)] l3:1(size=28835840) l2:20(size=1048576) l1d:1(size=32768) core:1 pu:2(indexes=core:pack)
TOPO_XML_epyc-7742-2s-nps4 := pack:2 numa:4(memory=68719476736) l3:4(size=16777216) l2:4(size=524288) l1d:1(size=32768) core:1 pu:2(indexes=core:pack)
TOPO_XML_i7-4790k := pack:1 [numa(memory=17179869184)] l3:1(size=8388608) l2:4(size=262144) l1d:1(size=32768) core:1 pu:2(indexes=core:pack)

.PHONY: topologies
topologies:
	$(foreach m,xeon-gold-6248-2s epyc-7742-2s-nps4 i7-4790k,\
		lstopo-no-graphics --input '$(TOPO_XML_$(m))' -f datasets/topologies/$(m).xml &&) true
