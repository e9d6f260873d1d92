# mk/sweep.mk - `make sweep`: one workload at several values of a parameter.
#
#   make sweep WORKLOAD=smack17k PARAM=rules VALUES="1000 2000 5000 17000 50000 100000" -j2
#              [MODELS="..."] [SWEEP_FIGURES="footprint_kib sim_time_ms"]
#              [SWEEP_KEEP_TRACES=1]
#
# Each value is one sub-make of the workload, with the parameter's make
# variable set to the value and DATA and REPORT redirected to
# $(REPORT)/sweep-PARAM/VALUE/ (traces in its data/, removed when done):
# it generates, replays and writes that directory's summary.csv and
# report.md (the `sweep-point` goal: `slabsim report`, no plots).  The values are independent targets,
# so `make -j` runs them in parallel.  Then `slabsim sweep` gathers them
# into $(REPORT)/sweep-PARAM/: sweep.csv, sweep.md and FIGURE.dat, and
# gnuplot draws FIGURE.png/.svg for each of SWEEP_FIGURES against the
# parameter: one panel per variant, one line per model (analysis/sweep.gp).
# `make clean` removes it all (it is under reports/).

# ---- PARAM -> the make variable a value is passed in, one line each --------
# Extend with a line here, or in workloads/W/W.mk (SWEEP_VAR_<param> := VAR,
# which wins over these defaults).
SWEEP_VAR_seed ?= SEED
SWEEP_VAR_cpus ?= CPUS
SWEEP_VAR_target ?= TARGET
SWEEP_VAR_costs ?= COSTS
# Variables mk/runs.inc reads for every workload without a default:
# a sweep may set them although no workload fragment defines them.
SWEEP_RUN_VARS := CPUS COSTS

SWEEP_PARAMS = $(sort $(patsubst SWEEP_VAR_%,%,$(filter SWEEP_VAR_%,$(.VARIABLES))))
SWEEP_FIGURES ?= footprint_kib sim_time_ms

ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)

# A sub-make's goal: the value's summary.csv and report.md.
.PHONY: sweep-point
sweep-point: $(REPORT_DATA)

# A value's traces are removed once its runs are done (400 MB for the six
# smack17k values up to 100000 rules); make does not remake a missing
# intermediate file while what was built from it is up to date.
# SWEEP_KEEP_TRACES=1 keeps them.
ifdef SWEEP_POINT
ifneq ($(SWEEP_KEEP_TRACES),1)
.INTERMEDIATE: $(foreach v,$(VARIANTS),$(DATA)/$(v).trace)
endif
endif

ifndef SWEEP_POINT
SWEEP_VAR := $(SWEEP_VAR_$(PARAM))
SWEEP_DIR := $(REPORT)/sweep-$(PARAM)
# (sorted: a value listed twice is refused below, not a rule given twice)
SWEEP_POINTS := $(foreach v,$(sort $(VALUES)),$(SWEEP_DIR)/$(v)/summary.csv)
SWEEP_DATA := $(addprefix $(SWEEP_DIR)/,sweep.csv sweep.md title.gp $(addsuffix .dat,$(SWEEP_FIGURES)))
SWEEP_PLOTS := $(foreach f,$(SWEEP_FIGURES),$(SWEEP_DIR)/$(f).png $(SWEEP_DIR)/$(f).svg)
SWEEP_COMMAND := make sweep WORKLOAD=$(WORKLOAD) \
	$(filter-out WORKLOAD=% DEPS_OK=% SWEEP_POINT=% POINT_COMMAND=%,$(MAKEOVERRIDES))
SWEEP_STAMP := values=$(strip $(VALUES)) variants=$(strip $(VARIANTS)) \
	models=$(strip $(MODELS)) figures=$(strip $(SWEEP_FIGURES))

# Why a sweep cannot run, or empty.
# Each reason ends in "@@", which sweep-check prints as "; ".
SWEEP_ERROR := $(strip \
	$(if $(PARAM),,PARAM is not set@@) \
	$(if $(PARAM),$(if $(SWEEP_VAR),,unknown PARAM '$(PARAM)' (known: $(SWEEP_PARAMS))@@)) \
	$(if $(SWEEP_VAR),$(if $(filter undefined,$(origin $(SWEEP_VAR))), \
		$(if $(filter $(SWEEP_VAR),$(SWEEP_RUN_VARS)),, \
		workload $(WORKLOAD) has no variable $(SWEEP_VAR) (PARAM=$(PARAM))@@))) \
	$(if $(strip $(VALUES)),,VALUES is empty@@) \
	$(if $(filter-out $(words $(VALUES)),$(words $(sort $(VALUES)))),VALUES lists a value twice@@))

# Every value's sub-make runs (it knows what is up to date); a value's
# summary.csv changes only when its runs did, and only then is the sweep
# gathered again.  The binary is passed by absolute path so that parallel
# sub-makes never try to rebuild it, and the dependency check's verdict so
# that they do not redo it.
$(SWEEP_POINTS): $(SWEEP_DIR)/%/summary.csv: $(SLABSIM) FORCE
	+@$(MAKE) --no-print-directory sweep-point WORKLOAD=$(WORKLOAD) $(SWEEP_VAR)=$* \
		DATA=$(SWEEP_DIR)/$*/data REPORT=$(SWEEP_DIR)/$* \
		SLABSIM=$(abspath $(SLABSIM)) SWEEP_POINT=1 DEPS_OK=$(DEPS_OK) \
		POINT_COMMAND=$(call sh_quote,$(strip $(SWEEP_COMMAND)) (point $(SWEEP_VAR)=$*))

$(eval $(call param_stamp,$(SWEEP_DIR)/params,SWEEP_STAMP))

$(SWEEP_DATA) &: $(SWEEP_POINTS) $(SLABSIM) $(SWEEP_DIR)/params
	$(SLABSIM) sweep --workload $(WORKLOAD) --param $(PARAM) --dir $(SWEEP_DIR) \
		--values $(call sh_quote,$(strip $(VALUES))) --figures $(call sh_quote,$(strip $(SWEEP_FIGURES))) \
		--variants $(call sh_quote,$(strip $(VARIANTS))) --models $(call sh_quote,$(strip $(MODELS))) \
		--command $(call sh_quote,$(strip $(SWEEP_COMMAND)))

# mk/plot.inc's rule, one figure at a time.
$(foreach f,$(SWEEP_FIGURES),$(eval $(call gnuplot_rule,$(SWEEP_DIR)/$(f),$(SWEEP_DIR)/$(f).dat,analysis/sweep.gp,load '$(SWEEP_DIR)/title.gp',$(SWEEP_DIR)/title.gp)))

.PHONY: sweep sweep-check
sweep-check:
	$(if $(SWEEP_ERROR),@echo "make sweep: $(SWEEP_ERROR)" | sed 's/@@ */; /g; s/; $$//' >&2; \
		echo "usage: make sweep WORKLOAD=W PARAM=P VALUES=\"V1 V2 ...\" [-jN]" >&2; exit 2)

ifeq ($(SWEEP_ERROR),)
sweep: deps-auto $(SWEEP_DATA) $(SWEEP_PLOTS)
	$(if $(INDEX_AUTO),$(SLABSIM) index --dir $(REPORTS_ROOT))
	@echo "slabsim: $(SWEEP_DIR)/sweep.md, sweep.csv, $(addsuffix .png,$(SWEEP_FIGURES)) written"
else
sweep: sweep-check
endif
endif # SWEEP_POINT

else
.PHONY: sweep
sweep:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
