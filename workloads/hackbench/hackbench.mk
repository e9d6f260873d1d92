# workloads/hackbench/hackbench.mk - `hackbench -g 20 -l 1000` under slub_debug=P in
# three kernel eras (shared/seeds/003_*, docs/workloads/hackbench.md).
#   make sim WORKLOAD=hackbench [HB_GROUPS=G HB_LOOPS=L HB_FDS=N HB_DATASIZE=B
#                                HB_QUANTUM=Q CPUS=N | TOPOLOGY=SPEC [MAP=P]
#                                COSTS=FILE HB_TRACE_EXT=trace]
#
# One trace, generated once, replayed six times from one pass over it:
# each variant is a (kernel target, slub_debug) pair.

# `make sweep PARAM=...`: the parameters of this workload (mk/sweep.mk)
SWEEP_VAR_groups := HB_GROUPS
SWEEP_VAR_loops := HB_LOOPS

VARIANTS := none-4.5 P-4.5 none-4.6 P-4.6 none-6.1 P-6.1
MODELS := traced traced+P
HB_GROUPS ?= 20
HB_LOOPS ?= 1000
HB_FDS ?= 20
HB_DATASIZE ?= 100
HB_QUANTUM ?= 64
# The seed's machine: a QEMU guest with one CPU (the series' v1 cover
# letter).  CPUS=8 spreads the tasks over 8 CPUs (most frees remote).
# TOPOLOGY=SPEC: the trace spreads its tasks over the topology's PUs and
# every replay instantiates per-PU and per-node state from it.
HB_TOPO_PUS := $(if $(TOPOLOGY),$(shell $(SLABSIM) topology --topology '$(subst ",,$(TOPOLOGY))' 2>/dev/null | sed -n 's/^pus=//p'))
HB_CPUS := $(or $(HB_TOPO_PUS),$(CPUS),1)
# Binary traces (.sbt) read ~3x faster than text; HB_TRACE_EXT=trace for text.
HB_TRACE_EXT ?= sbt
HB_TRACE := $(DATA)/hackbench.$(HB_TRACE_EXT)
# `make sensitivity` (mk/sensitivity.mk): the three x86_64 targets share
# the clock and its range; the quantum is an estimate, varied over the
# range hb_consts.h gives it.
SENS_TARGET := x86_64-4.5
SENS_GEN := $(shell awk '/^\#define HB_(DEFAULT_QUANTUM|QUANTUM_LOW|QUANTUM_HIGH) /{v[$$2] = $$3; sub(/u$$/, "", v[$$2])} \
	END {printf "HB_QUANTUM:%s:%s:%s", v["HB_DEFAULT_QUANTUM"], v["HB_QUANTUM_LOW"], v["HB_QUANTUM_HIGH"]}' workloads/hackbench/hb_consts.h)
# The constant fitted once (docs/cost-model.md), read from its definition.
CALIBRATION := $(shell awk '/^\#define HB_MSG_CYCLES /{sub(/u$$/, "", $$3); printf "%s=%s", $$2, $$3}' workloads/hackbench/hb_consts.h)
GEN_PARAMS := -g $(HB_GROUPS) -l $(HB_LOOPS) --fds $(HB_FDS) --datasize $(HB_DATASIZE) \
	--quantum $(HB_QUANTUM) --cpus $(HB_CPUS)
# ALLOCATOR, CONFIG, COSTS, TOPOLOGY and MAP as every workload's runs take
# them (mk/runparams.inc); the CPUs are the trace's, HB_CPUS.
include mk/runparams.inc
HB_RUN_PARAMS := $(if $(TOPOLOGY),$(RUN_TOPOLOGY),--cpus $(HB_CPUS)) \
	$(if $(COSTS),--costs $(COSTS)) $(RUN_FLAGS) $(RUN_KERNEL)

# variant -> model and target
hb_model = $(if $(filter P-%,$(1)),traced+P,traced)
hb_target = x86_64-$(lastword $(subst -, ,$(1)))
RUN_SUMMARIES := $(foreach v,$(VARIANTS),$(REPORT)/runs/$(v)__$(call hb_model,$(v))/summary.csv)

# Stamps that change only with the parameters, so that a new CPUS or
# HB_LOOPS regenerates and reruns what it must and nothing else.
$(eval $(call param_stamp,$(DATA)/gen-params,GEN_PARAMS))
$(eval $(call param_stamp,$(REPORT)/run-params,HB_RUN_PARAMS))

$(HB_TRACE): $(DATA)/gen-params $(SLABSIM) workloads/hackbench/hb_consts.h
	$(call say,GEN,$@)
	$(SLABSIM) gen hackbench $(GEN_PARAMS) -o $@

# All six replays from one pass over the trace (`slabsim run --runs`:
# decode once, replay many; threads: JOBS, default one per CPU).
HB_RUN_LIST := $(REPORT)/runs.list
$(RUN_SUMMARIES) &: $(HB_TRACE) $(SLABSIM) $(REPORT)/run-params $(COSTS)
	@mkdir -p $(REPORT)
	$(call say,RUN,$(REPORT)/runs/V__M for $(VARIANTS))
	@printf '%s\n' $(foreach v,$(VARIANTS),'--model $(call hb_model,$(v)) --target $(call hb_target,$(v)) --variant $(v) --out $(REPORT)/runs/$(v)__$(call hb_model,$(v))') > $(HB_RUN_LIST)
	$(SLABSIM) run --quiet --trace $< $(HB_RUN_PARAMS) $(if $(JOBS),--jobs $(JOBS)) --runs $(HB_RUN_LIST)

# A variant of a 7.x target (VARIANTS="none-7.2 P-7.2", hackbench's way
# of asking for another kernel: its variants name their targets): the
# same run under 6.18's rules on that target's machine and options, for
# report.md's section on what 7.x changes (mk/runs.inc does the same for
# the other workloads' TARGET).
hb_era_major = $(shell sed -n 's/^era *= *\([0-9]*\)\..*/\1/p' allocators/targets/$(call hb_target,$(1)).target 2> /dev/null | head -1)
HB_VARIANTS_7X := $(strip $(foreach v,$(VARIANTS),$(if $(filter 7 8 9,$(call hb_era_major,$(v))),$(v))))
ifneq ($(HB_VARIANTS_7X),)
HB_ERA_DIR := $(REPORT)/era-6.18
hb_era_target = $(HB_ERA_DIR)/$(call hb_target,$(1))-rules-6.18.target
$(HB_ERA_DIR)/%-rules-6.18.target: allocators/targets/%.target
	@mkdir -p $(@D)
	@{ echo "name = $(basename $(@F))"; sed '/^name *=/d; s/^era *=.*/era = 6.18/' $<; } > $@.tmp && mv $@.tmp $@
define hb_era_rule
$(HB_ERA_DIR)/runs/$(1)__$(call hb_model,$(1))/summary.csv: $(HB_TRACE) $(SLABSIM) $(REPORT)/run-params $(COSTS) $(call hb_era_target,$(1))
	$$(call say,RUN,$$(@D))
	$(SLABSIM) run --quiet --trace $$< --model $(call hb_model,$(1)) --target $(call hb_era_target,$(1)) --variant $(1) $(HB_RUN_PARAMS) --out $$(@D)
endef
$(foreach v,$(HB_VARIANTS_7X),$(eval $(call hb_era_rule,$(v))))
RUN_SUMMARIES += $(foreach v,$(HB_VARIANTS_7X),$(HB_ERA_DIR)/runs/$(v)__$(call hb_model,$(v))/summary.csv)
REPORT_EXTRA_ARGS += --era-base $(HB_ERA_DIR)
endif

# time.dat is written by the same `slabsim report` as report.md.
$(REPORT)/time.dat: $(REPORT)/report.md ;
$(eval $(call gnuplot_rule,$(REPORT)/time,$(REPORT)/time.dat,workloads/hackbench/time.gp,$(REPORT_TITLE),$(REPORT)/title.gp))

.PHONY: runs hackbench-plots sim
runs: $(RUN_SUMMARIES)
WORKLOAD_PLOTS := $(REPORT)/time.png $(REPORT)/time.svg
hackbench-plots: $(WORKLOAD_PLOTS)

sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory runs report hackbench-plots SIM_GOAL=sim $(WHATIF_UNDO)
	@echo "slabsim: $(REPORT)/report.md, summary.csv, time.png, latency.png written"
