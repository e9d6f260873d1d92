# workloads/import/import.mk - your own workload (docs/own-trace.md):
#   make sim TRACE=PATH [NAME=N] [MODELS="..."] [TARGET=T] [ALLOCATOR=A]
#            [CONFIG=...] [CPUS=N] [TOPOLOGY=...] [COSTS=F] [SEED=S]
#            [INITIAL=SNAPSHOT] [IMPORT_FLAGS="..."]
#   make compare TRACE=PATH [NAME=N] [ALLOCATORS="slub slab"] [CONFIGS=...]
#
# workloads/import/capture.inc has read what PATH holds (the capture's
# files, NAME, the capture's own target: TARGET's default).  A capture
# (or a file next to its slab-before.txt) is imported with the kernel's
# own caches and CPU count, and replayed as every workload is (mk/runs.inc,
# the same settings and what-ifs: mk/whatif.inc) starting from the
# kernel's caches as they were before (INITIAL=, default slab-before.txt;
# INITIAL= with nothing starts them empty, as ALLOCATOR=slab or slub-tiny
# does: the kernel's caches are modelled for SLUB only); with
# slab-after.txt the report
# compares the simulator with the live kernel.  SEED=S replays another of
# the equally likely draws of the initial state (run --draw-seed; 0, the
# default, is each cache's own).  IMPORT_FLAGS= adds `slabsim import`
# options (--drop-untraced: the what-if of dropping the objects no event
# allocated, docs/import.md).  Outputs: datasets/import/NAME/ (the
# imported trace, totals.csv, the target picks) and reports/NAME/ like
# any workload's; a what-if's with its suffix.

ifeq ($(strip $(TRACE)),)
.PHONY: sim runs report
sim runs report:
	@echo "make: WORKLOAD=import needs TRACE=PATH (a capture directory or a trace file; docs/own-trace.md)" >&2; exit 2
else

WORKLOAD_ARG := TRACE=$(TRACE)
INITIAL ?= $(OWN_INITIAL)
IMPORT_FLAGS ?=
VARIANTS := trace
MODELS ?= traced kmalloc-buckets kmem_cache

# A slabsim trace is replayed as it is; anything else is imported once.
ifeq ($(OWN_KIND),slabsim)
RUN_TRACE_trace := $(OWN_TRACE)
else
RUN_TRACE_trace := $(DATA)/trace.sbt.zst
IMPORT_PARAMS := --target $(TARGET) $(if $(OWN_BEFORE),--snapshot $(OWN_BEFORE)) \
	$(if $(OWN_FILL),--slab-fill $(OWN_FILL)) \
	$(if $(OWN_WALK),--walk $(OWN_WALK)) \
	$(if $(OWN_PAGES),--slab-pages $(OWN_PAGES)) \
	$(if $(OWN_FREE),--free-objects $(OWN_FREE)) \
	$(if $(OWN_CPUS),--cpus $(OWN_CPUS)) $(if $(OWN_TOOL_PIDS),--tool-pids $(OWN_TOOL_PIDS)) \
	$(IMPORT_FLAGS)
$(eval $(call param_stamp,$(DATA)/import-params,IMPORT_PARAMS))
$(RUN_TRACE_trace): $(OWN_INPUT) $(OWN_BEFORE) $(OWN_FILL) $(OWN_WALK) $(OWN_PAGES) $(OWN_FREE) $(DATA)/import-params $(SLABSIM)
	$(call say,IMPORT,$@)
	exec $(SLABSIM) import $(IMPORT_PARAMS) --totals $(DATA)/totals.csv -o $@ $(OWN_INPUT) > $(DATA)/import.txt
endif

# The runs, as every workload's (mk/runs.inc), from the kernel's caches as
# they were: the fill goes with the capture's own before-snapshot only
# (INITIAL= may name another).
OWN_RUN_FILL := $(if $(and $(OWN_FILL),$(filter $(OWN_BEFORE),$(INITIAL))),$(OWN_FILL))
# the rules of the capture's kernel (its own target, CPUs and options, boot
# parameters among them: capture.inc), which the snapshot's layouts are
# checked against: a cache a what-if lays out otherwise starts in the
# run's order (docs/own-trace.md)
OWN_KERNEL_RULES := $(subst $(own_space),$(own_comma),$(strip $(OWN_PICK_TARGET.slub) \
	$(if $(OWN_CPUS),cpus=$(OWN_CPUS)) $(subst $(own_comma),$(own_space),$(OWN_PICK_CONFIG.slub) \
	$(OWN_PICK_BOOT.slub))))
RUN_EXTRA := $(if $(INITIAL),--initial-state $(INITIAL) \
		$(if $(OWN_PICK_TARGET.slub),--initial-kernel $(call sh_quote,$(OWN_KERNEL_RULES)))) \
	$(if $(OWN_RUN_FILL),--slab-fill $(OWN_RUN_FILL)) \
	$(if $(and $(INITIAL),$(OWN_AFTER)),--final-state $(OWN_AFTER)) \
	$(if $(filter-out 0,$(SEED)),--draw-seed $(SEED))
RUN_INPUTS := $(INITIAL) $(OWN_RUN_FILL) $(OWN_AFTER)
# the options the capture's snapshot shows (capture.inc), before CONFIG's
WORKLOAD_CONFIG := $(OWN_CONFIG)
include mk/runs.inc

# report.md's section "the live kernel and the simulator", and what the
# capture's own target is (section 1)
REPORT_EXTRA_ARGS := $(if $(and $(INITIAL),$(OWN_AFTER)),--kernel-before $(INITIAL) --kernel-after $(OWN_AFTER) $(if $(OWN_META),--capture-meta $(OWN_META)) $(if $(OWN_FILL_AFTER),--kernel-fill-after $(OWN_FILL_AFTER))) \
	--capture-target $(OWN_PICK_TXT) --window
# and report.md's "Every run and what-if of this capture" reads the first
# run of each report of the same capture beside it (NAME and NAME--*,
# analysis/report_capture.c): their runs are inputs too, so a what-if
# made after this report is set beside it by the next `make sim`
OWN_REPORT_ROOT := $(firstword $(subst --, ,$(notdir $(REPORT))))
OWN_SIBLING_RUNS := $(filter-out $(REPORT)/runs/%,$(wildcard \
	$(dir $(REPORT))$(OWN_REPORT_ROOT)/runs/*/summary.csv \
	$(dir $(REPORT))$(OWN_REPORT_ROOT)--*/runs/*/summary.csv))
REPORT_EXTRA_DEPS := $(INITIAL) $(OWN_AFTER) $(OWN_META) $(OWN_FILL_AFTER) $(OWN_PICK_TXT) \
	$(OWN_SIBLING_RUNS)

# A capture's plots draw what its window changed (docs/outputs.md), not
# the whole machine: no waste.png (report --window), and
# timeline.png: each model's slab memory since the run's start, over the
# trace (timeline.dat, phases.dat), with the kernel's change at the end
# when its after-snapshot gives one (change.dat's first row);
# change.png: what the command changed, cache by cache, the kernel's
# beside the model's (change.dat).  All written by the same `slabsim
# report` as report.md.
REPORT_PLOT_NAMES := latency
$(REPORT)/timeline.dat $(REPORT)/phases.dat: $(REPORT)/report.md ;
ifneq ($(and $(INITIAL),$(OWN_AFTER)),)
$(REPORT)/change.dat: $(REPORT)/report.md ;
$(eval $(call gnuplot_rule,$(REPORT)/change,$(REPORT)/change.dat,analysis/change.gp,$(REPORT_TITLE),$(REPORT)/title.gp))
WORKLOAD_PLOTS := $(REPORT)/change.png $(REPORT)/change.svg
OWN_KERNEL_CHANGE := ; kernelfile='$(REPORT)/change.dat'
endif
OWN_COMMA := ,
$(eval $(call gnuplot_rule,$(REPORT)/timeline,$(REPORT)/timeline.dat,analysis/cmp_timeline.gp,$(REPORT_TITLE); phasefile='$(REPORT)/phases.dat'$(OWN_KERNEL_CHANGE),$(REPORT)/title.gp $(REPORT)/phases.dat $(if $(OWN_KERNEL_CHANGE),$(REPORT)/change.dat)))
WORKLOAD_PLOTS += $(REPORT)/timeline.png $(REPORT)/timeline.svg

.PHONY: sim
sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory report SIM_GOAL=sim $(WHATIF_UNDO)
	@echo "slabsim: $(REPORT)/report.md, summary.csv,$(if $(filter %/change.png,$(WORKLOAD_PLOTS)), change.png$(OWN_COMMA)) timeline.png, latency.png written"

endif
