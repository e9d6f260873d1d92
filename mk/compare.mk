# mk/compare.mk - `make compare`: one report across models and variants,
# and across allocators and kernel options.
#
#   make compare WORKLOAD=W MODELS="traced kmem_cache traced+P" [VARIANTS="ref patch4"]
#                [COMPARE_TOP=N]
#   make compare WORKLOAD=W ALLOCATORS="slub slab slub-tiny" \
#                CONFIGS="CONFIG_RANDOM_KMALLOC_CACHES=y init_on_free=1,CONFIG_KFENCE=y"
#
# With ALLOCATORS or CONFIGS, every model of MODELS runs under every
# allocator (the target's when ALLOCATORS is empty) and under the target's
# options plus each entry of CONFIGS (a space-separated list of --config
# lists) into $(REPORT)/kernels/runs/<variant>__<label>, the label
# MODEL.ALLOCATOR[.cN] (cN: the N-th entry of CONFIGS); compare.md then
# says what each label ran (kernel.txt).  Outputs in $(REPORT)/kernels/compare/.
#
# Replays what is missing (the workload's runs of MODELS x VARIANTS, as
# `make sim` would), then `slabsim compare` writes $(REPORT)/compare/:
# compare.md, waste.dat, latency.dat, timeline.dat, phases.dat,
# top_caches.csv (docs/outputs.md), and gnuplot draws waste, latency and
# timeline, PNG and SVG (analysis/cmp_*.gp).  The first model is the
# baseline of compare.md's Δ columns.  Generic over WORKLOAD: it uses only
# what every workloads/W/W.mk defines (VARIANTS, MODELS, RUN_SUMMARIES).

ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)

COMPARE_TOP ?= 5

ifneq ($(strip $(ALLOCATORS)$(CONFIGS)),)
# ---- across allocators and kernel options ----
CMP_ROOT := $(REPORT)/kernels
CMP_ALLOCATORS := $(or $(strip $(ALLOCATORS)),-)
# entry 1 is the target's own options ("-"), then each of CONFIGS
CMP_CONFIGS := - $(CONFIGS)
CMP_CFG_IDX := $(shell seq 1 $(words $(CMP_CONFIGS)))
# $(call cmp_label,MODEL,ALLOCATOR,CONFIG_INDEX)
cmp_label = $(1)$(if $(filter-out -,$(2)),.$(2))$(if $(filter-out 1,$(3)),.c$(shell expr $(3) - 1))
# the --config of entry $(1): every run's (the workload's own, then
# CONFIG: mk/runparams.inc's RUN_CONFIG) joined with the entry
cmp_config = $(subst $(run_space),$(run_comma),$(strip $(RUN_CONFIG) $(filter-out -,$(word $(1),$(CMP_CONFIGS)))))
CMP_LABELS := $(foreach m,$(MODELS),$(foreach a,$(CMP_ALLOCATORS),$(foreach i,$(CMP_CFG_IDX),$(call cmp_label,$(m),$(a),$(i)))))
CMP_STAMP := $(RUN_PARAMS_BASE) allocator=$(ALLOCATOR) allocators=$(strip $(ALLOCATORS)) config=$(RUN_CONFIG) configs=$(strip $(CONFIGS))
$(eval $(call param_stamp,$(CMP_ROOT)/run-params,CMP_STAMP))

# $(1) model, $(2) allocator, $(3) config index: the run options of its
# label (the allocator, the kernel options, the label).
cmp_run_opts = --model $(1) \
	$(if $(filter-out -,$(2)),--allocator $(2),$(if $(ALLOCATOR),--allocator $(ALLOCATOR))) \
	$(if $(call cmp_config,$(3)),--config "$(call cmp_config,$(3))") --label $(call cmp_label,$(1),$(2),$(3))
cmp_run_dir = $(CMP_ROOT)/runs/$(1)__$(2)
cmp_skip = $(CMP_ROOT)/skipped/$(1)__$(2).txt
# Every label of variant $(1) from one pass over its trace (`slabsim run
# --runs`, every core: runs-VARIANT.list).  A combination no kernel has
# (slabsim run alone exits 3: slub_debug under SLAB, SLUB_TINY with
# random kmalloc caches or before 6.2, SLAB after 6.7, ...) leaves no run
# but its reason in skipped/<variant>__<label>.txt (run --no-kernel-note),
# which compare.md quotes.  A run that fails otherwise stops make, and
# the variant's runs leave no directory (the empty one base/outdir.h
# leaves would stop the next compare).
define cmp_variant_rule
$(foreach l,$(CMP_LABELS),$(CMP_ROOT)/done/$(1)__$(l)) &: $(call run_trace,$(1)) $(SLABSIM) $(CMP_ROOT)/run-params $(RUN_INPUTS)
	@mkdir -p $(CMP_ROOT)/done $(CMP_ROOT)/skipped
	@rm -rf $(foreach l,$(CMP_LABELS),$(call cmp_run_dir,$(1),$(l)) $(call cmp_skip,$(1),$(l)))
	@printf '%s\n' $(foreach m,$(MODELS),$(foreach a,$(CMP_ALLOCATORS),$(foreach i,$(CMP_CFG_IDX),'$(strip $(call cmp_run_opts,$(m),$(a),$(i))) --out $(call cmp_run_dir,$(1),$(call cmp_label,$(m),$(a),$(i))) --no-kernel-note $(call cmp_skip,$(1),$(call cmp_label,$(m),$(a),$(i)))'))) \
		> $(CMP_ROOT)/runs-$(1).list
	$$(call say,RUN,$(CMP_ROOT)/runs/$(1)__L for L in $(strip $(CMP_LABELS)))
	$(FORWARD) $(SLABSIM) run --quiet --trace $$< --variant $(1) $(RUN_PARAMS_BASE) $(if $(JOBS),--jobs $(JOBS)) \
		--runs $(CMP_ROOT)/runs-$(1).list || \
		{ rm -rf $(foreach l,$(CMP_LABELS),$(call cmp_run_dir,$(1),$(l))); exit 1; }
	@touch $(foreach l,$(CMP_LABELS),$(CMP_ROOT)/done/$(1)__$(l))
	@scripts/progress.sh done $(CMP_ROOT)/.progress $(1)
endef
$(foreach v,$(VARIANTS),$(eval $(call cmp_variant_rule,$(v))))
CMP_DONE := $(foreach v,$(VARIANTS),$(foreach l,$(CMP_LABELS),$(CMP_ROOT)/done/$(v)__$(l)))
CMP_DIR_ARG := $(CMP_ROOT)
CMP_MODEL_ARG := $(CMP_LABELS)
CMP_INPUTS := $(CMP_DONE)
COMPARE_DIR := $(CMP_ROOT)/compare
else
CMP_DIR_ARG := $(REPORT)
CMP_MODEL_ARG := $(MODELS)
CMP_INPUTS := $(RUN_SUMMARIES)
COMPARE_DIR := $(REPORT)/compare
endif
COMPARE_DATA := $(addprefix $(COMPARE_DIR)/,compare.md waste.dat latency.dat \
	timeline.dat phases.dat top_caches.csv title.gp)
COMPARE_PLOTS := $(foreach p,waste latency timeline,$(COMPARE_DIR)/$(p).png $(COMPARE_DIR)/$(p).svg)

# A capture's comparison is titled by its report's name, as its report is
# (TRACE=: the workload is `import` for every capture).
COMPARE_TITLE_ARG := $(if $(strip $(TRACE)),--title $(call sh_quote,$(notdir $(REPORT))))
COMPARE_COMMAND := make compare $(WORKLOAD_ARG) \
	$(filter-out WORKLOAD=% TRACE=% DEPS_OK=% SWEEP_POINT=% SWEEP_POINT_COMMAND=%,$(MAKEOVERRIDES))
# What the outputs depend on besides the runs: a new model list or top-N
# redoes them even when every run already exists.
COMPARE_STAMP := variants=$(strip $(VARIANTS)) models=$(strip $(CMP_MODEL_ARG)) top=$(COMPARE_TOP) $(COMPARE_TITLE_ARG)

$(eval $(call param_stamp,$(COMPARE_DIR)/params,COMPARE_STAMP))

$(COMPARE_DATA) &: $(CMP_INPUTS) $(SLABSIM) $(COMPARE_DIR)/params
	$(call say,COMPARE,$(COMPARE_DIR)/compare.md)
	$(SLABSIM) compare --workload $(WORKLOAD) --dir $(CMP_DIR_ARG) --out $(COMPARE_DIR) \
		--variants $(call sh_quote,$(strip $(VARIANTS))) --models $(call sh_quote,$(strip $(CMP_MODEL_ARG))) \
		--top $(COMPARE_TOP) --command $(call sh_quote,$(strip $(COMPARE_COMMAND))) $(COMPARE_TITLE_ARG)

# mk/plot.inc's rule; the timeline also reads the phase markers.
# $(1) = plot, $(2) = extra gnuplot -e settings, $(3) = extra data file.
cmp_plot = $(call gnuplot_rule,$(COMPARE_DIR)/$(1),$(COMPARE_DIR)/$(1).dat,analysis/cmp_$(1).gp,load '$(COMPARE_DIR)/title.gp'$(2),$(COMPARE_DIR)/title.gp $(3))
$(eval $(call cmp_plot,waste))
$(eval $(call cmp_plot,latency))
$(eval $(call cmp_plot,timeline,; phasefile='$(COMPARE_DIR)/phases.dat',$(COMPARE_DIR)/phases.dat))

# A line per variant replayed (scripts/progress.sh), from `make compare`
# itself: the count starts as it reads this file.
ifneq ($(and $(CMP_DONE),$(filter compare,$(MAKECMDGOALS))),)
$(shell scripts/progress.sh start $(CMP_ROOT)/.progress compare $(words $(VARIANTS)))
endif

.PHONY: compare
compare: deps-auto $(COMPARE_DATA) $(COMPARE_PLOTS)
	@$(if $(CMP_DONE),scripts/progress.sh end $(CMP_ROOT)/.progress)
	$(if $(INDEX_AUTO),$(call say,INDEX,$(INDEX)))
	$(if $(INDEX_AUTO),$(SLABSIM) index --dir $(REPORTS_ROOT))
	@echo "slabsim: $(COMPARE_DIR)/compare.md, waste.png, latency.png, timeline.png written"

else
.PHONY: compare
compare:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
