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

# $(1) variant, $(2) model, $(3) allocator, $(4) config index.  A
# combination no kernel has (slabsim run exits 3: slub_debug under SLAB,
# SLUB_TINY with random kmalloc caches or before 6.2, SLAB after 6.7, ...)
# leaves no run but its reason in skipped/<variant>__<label>.txt, which
# compare.md quotes.  Any failed run leaves no directory (the empty one
# base/outdir.h leaves would stop the next compare); one that failed
# otherwise stops make, with no reason taken for a skip.
cmp_run_dir = $(CMP_ROOT)/runs/$(1)__$(call cmp_label,$(2),$(3),$(4))
cmp_skip = $(CMP_ROOT)/skipped/$(1)__$(call cmp_label,$(2),$(3),$(4)).txt
define cmp_run_rule
$(CMP_ROOT)/done/$(1)__$(call cmp_label,$(2),$(3),$(4)): $(call run_trace,$(1)) $(SLABSIM) $(CMP_ROOT)/run-params $(RUN_INPUTS)
	@mkdir -p $(CMP_ROOT)/done $(CMP_ROOT)/skipped
	@rm -rf $(call cmp_run_dir,$(1),$(2),$(3),$(4)) $(call cmp_skip,$(1),$(2),$(3),$(4))
	$$(call say,RUN,$(call cmp_run_dir,$(1),$(2),$(3),$(4)))
	$(SLABSIM) run --quiet --trace $$< --variant $(1) --model $(2) $(RUN_PARAMS_BASE) \
		$(if $(filter-out -,$(3)),--allocator $(3),$(if $(ALLOCATOR),--allocator $(ALLOCATOR))) \
		$(if $(call cmp_config,$(4)),--config $(call sh_quote,$(call cmp_config,$(4)))) \
		--label $(call cmp_label,$(2),$(3),$(4)) --out $(call cmp_run_dir,$(1),$(2),$(3),$(4)) \
		2>$(call cmp_skip,$(1),$(2),$(3),$(4)).tmp; rc=$$$$?; \
	cat $(call cmp_skip,$(1),$(2),$(3),$(4)).tmp >&2; \
	if [ $$$$rc -ne 0 ]; then rm -rf $(call cmp_run_dir,$(1),$(2),$(3),$(4)); fi; \
	if [ $$$$rc -eq 3 ]; then mv -f $(call cmp_skip,$(1),$(2),$(3),$(4)).tmp $(call cmp_skip,$(1),$(2),$(3),$(4)); \
	else rm -f $(call cmp_skip,$(1),$(2),$(3),$(4)).tmp; [ $$$$rc -eq 0 ] || exit $$$$rc; fi
	@touch $$@
endef
$(foreach v,$(VARIANTS),$(foreach m,$(MODELS),$(foreach a,$(CMP_ALLOCATORS),$(foreach i,$(CMP_CFG_IDX),$(eval $(call cmp_run_rule,$(v),$(m),$(a),$(i)))))))
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

COMPARE_COMMAND := make compare $(WORKLOAD_ARG) \
	$(filter-out WORKLOAD=% TRACE=% DEPS_OK=% SWEEP_POINT=% SWEEP_POINT_COMMAND=%,$(MAKEOVERRIDES))
# What the outputs depend on besides the runs: a new model list or top-N
# redoes them even when every run already exists.
COMPARE_STAMP := variants=$(strip $(VARIANTS)) models=$(strip $(CMP_MODEL_ARG)) top=$(COMPARE_TOP)

$(eval $(call param_stamp,$(COMPARE_DIR)/params,COMPARE_STAMP))

$(COMPARE_DATA) &: $(CMP_INPUTS) $(SLABSIM) $(COMPARE_DIR)/params
	$(call say,COMPARE,$(COMPARE_DIR)/compare.md)
	$(SLABSIM) compare --workload $(WORKLOAD) --dir $(CMP_DIR_ARG) --out $(COMPARE_DIR) \
		--variants $(call sh_quote,$(strip $(VARIANTS))) --models $(call sh_quote,$(strip $(CMP_MODEL_ARG))) \
		--top $(COMPARE_TOP) --command $(call sh_quote,$(strip $(COMPARE_COMMAND)))

# mk/plot.inc's rule; the timeline also reads the phase markers.
# $(1) = plot, $(2) = extra gnuplot -e settings, $(3) = extra data file.
cmp_plot = $(call gnuplot_rule,$(COMPARE_DIR)/$(1),$(COMPARE_DIR)/$(1).dat,analysis/cmp_$(1).gp,load '$(COMPARE_DIR)/title.gp'$(2),$(COMPARE_DIR)/title.gp $(3))
$(eval $(call cmp_plot,waste))
$(eval $(call cmp_plot,latency))
$(eval $(call cmp_plot,timeline,; phasefile='$(COMPARE_DIR)/phases.dat',$(COMPARE_DIR)/phases.dat))

.PHONY: compare
compare: deps-auto $(COMPARE_DATA) $(COMPARE_PLOTS)
	$(if $(INDEX_AUTO),$(call say,INDEX,$(INDEX)))
	$(if $(INDEX_AUTO),$(SLABSIM) index --dir $(REPORTS_ROOT))
	@echo "slabsim: $(COMPARE_DIR)/compare.md, waste.png, latency.png, timeline.png written"

else
.PHONY: compare
compare:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
