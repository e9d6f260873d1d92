# mk/compare.mk - `make compare`: one report across models and variants.
#
#   make compare WORKLOAD=W MODELS="traced kmem_cache traced+P" [VARIANTS="ref patch4"]
#                [COMPARE_TOP=N]
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
COMPARE_DIR := $(REPORT)/compare
COMPARE_DATA := $(addprefix $(COMPARE_DIR)/,compare.md waste.dat latency.dat \
	timeline.dat phases.dat top_caches.csv title.gp)
COMPARE_PLOTS := $(foreach p,waste latency timeline,$(COMPARE_DIR)/$(p).png $(COMPARE_DIR)/$(p).svg)

COMPARE_COMMAND := make compare $(WORKLOAD_ARG) \
	$(filter-out WORKLOAD=% TRACE=% DEPS_OK=% SWEEP_POINT=% SWEEP_POINT_COMMAND=%,$(MAKEOVERRIDES))
# What the outputs depend on besides the runs: a new model list or top-N
# redoes them even when every run already exists.
COMPARE_STAMP := variants=$(strip $(VARIANTS)) models=$(strip $(MODELS)) top=$(COMPARE_TOP)

$(eval $(call param_stamp,$(COMPARE_DIR)/params,COMPARE_STAMP))

$(COMPARE_DATA) &: $(RUN_SUMMARIES) $(SLABSIM) $(COMPARE_DIR)/params
	$(SLABSIM) compare --workload $(WORKLOAD) --dir $(REPORT) --out $(COMPARE_DIR) \
		--variants $(call sh_quote,$(strip $(VARIANTS))) --models $(call sh_quote,$(strip $(MODELS))) \
		--top $(COMPARE_TOP) --command $(call sh_quote,$(strip $(COMPARE_COMMAND)))

# mk/plot.inc's rule; the timeline also reads the phase markers.
# $(1) = plot, $(2) = extra gnuplot -e settings, $(3) = extra data file.
cmp_plot = $(call gnuplot_rule,$(COMPARE_DIR)/$(1),$(COMPARE_DIR)/$(1).dat,analysis/cmp_$(1).gp,load '$(COMPARE_DIR)/title.gp'$(2),$(COMPARE_DIR)/title.gp $(3))
$(eval $(call cmp_plot,waste))
$(eval $(call cmp_plot,latency))
$(eval $(call cmp_plot,timeline,; phasefile='$(COMPARE_DIR)/phases.dat',$(COMPARE_DIR)/phases.dat))

.PHONY: compare
compare: deps-auto $(COMPARE_DATA) $(COMPARE_PLOTS)
	$(if $(INDEX_AUTO),$(SLABSIM) index --dir $(REPORTS_ROOT))
	@echo "slabsim: $(COMPARE_DIR)/compare.md, waste.png, latency.png, timeline.png written"

else
.PHONY: compare
compare:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
