# mk/sweep.mk - `make sweep`: one workload at several values of a parameter.
#
#   make sweep WORKLOAD=smack17k PARAM=rules VALUES="1000 2000 5000 17000 50000 100000" -j2
#              [MODELS="..."] [SWEEP_FIGURES="footprint_kib sim_time_ms"]
#              [SWEEP_KEEP_TRACES=1]
#
# Each value is one sub-make of the workload, with the parameter's make
# variable set to the value and DATA and REPORT redirected to
# $(REPORT)/sweep-PARAM/VALUE/ (traces in its data/, removed when done; a
# setting that leaves the traces alone, such as target or costs, replays
# the workload's own, generated once):
# it generates, replays and writes that directory's summary.csv and
# report.md (the `sweep-point` goal: `slabsim report`, no plots).  The values are independent targets,
# so `make -j` runs them in parallel.  Then `slabsim sweep` gathers them
# into $(REPORT)/sweep-PARAM/: sweep.csv, sweep.md and FIGURE.dat, and
# gnuplot draws FIGURE.png/.svg for each of SWEEP_FIGURES against the
# parameter: one panel per variant, one line per model (analysis/sweep.gp).
# `make clean` removes it all (it is under reports/).  A line per point
# done says how many are left and about how long (scripts/progress.sh).
#
# ENGINE= says who runs the points (docs/distributed.md); the results are
# the same files, byte for byte:
#   make       (default) sub-makes, in parallel with -jN
#   parallel   GNU parallel: locally, or over ssh on the hosts of
#              SSHLOGINFILE=F (one sshlogin a line, as `parallel -S`);
#              each point gets a kit (the tree and build/slabsim), makes
#              the point and sends its directory back.  SWEEP_JOBS=N per
#              host (default: one per CPU there).
#   slurm      an `sbatch --array` job, one point per task, on a shared
#              filesystem; make waits for the array (SLURM_WAIT=0: submit
#              and return, then `make sweep-collect` with the same
#              arguments gathers).  SLURM_OPTS="..." go to sbatch.

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
# Who ran the points is not part of the result, and the command line is
# written in one order (the variables sorted, spaces as \ ), whichever
# make wrote it (sweep-collect runs a sub-make).
SWEEP_ENGINE_VARS := ENGINE SSHLOGINFILE SWEEP_JOBS SLURM_WAIT SLURM_OPTS
# (MODELS is `override` when the Makefile respelled it: still the command line's)
SWEEP_CMDLINE_VARS := $(sort $(foreach v,$(.VARIABLES),$(if $(filter command line override,$(origin $(v))),$(v))))
sweep_space := $(subst ,, )
sweep_var_word = $(1)=$(subst $(sweep_space),\$(sweep_space),$($(1)))
SWEEP_COMMAND := make sweep WORKLOAD=$(WORKLOAD) \
	$(foreach v,$(filter-out WORKLOAD $(SWEEP_ENGINE_VARS),$(SWEEP_CMDLINE_VARS)),$(call sweep_var_word,$(v)))
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

# A point's make arguments: the workload, the value, and every variable
# given on the command line but those that place the sweep or say who runs
# it.  sweep-point is made with these by every engine, and its report.md
# records `make sweep-point` with them (no paths of the host it ran on).
SWEEP_NOT_POINT := $(SWEEP_ENGINE_VARS) WORKLOAD DATA REPORT PARAM VALUES SLABSIM \
	DEPS_OK SWEEP_POINT SWEEP_POINT_COMMAND SWEEP_FIGURES SWEEP_KEEP_TRACES $(SWEEP_VAR)
SWEEP_POINT_VARS := $(filter-out $(SWEEP_NOT_POINT),$(SWEEP_CMDLINE_VARS))
sweep_common_args = $(call sh_quote,WORKLOAD=$(WORKLOAD)) \
	$(foreach v,$(SWEEP_POINT_VARS),$(call sh_quote,$(v)=$($(v)))) \
	$(if $(SWEEP_KEEP_TRACES),$(call sh_quote,SWEEP_KEEP_TRACES=$(SWEEP_KEEP_TRACES)))
sweep_point_cmd = make sweep-point WORKLOAD=$(WORKLOAD) $(SWEEP_VAR)=$(1) \
	$(foreach v,$(SWEEP_POINT_VARS),$(call sweep_var_word,$(v)))

ENGINE ?= make
SWEEP_ERROR += $(if $(filter-out make parallel slurm collected,$(ENGINE)),unknown ENGINE '$(ENGINE)' (make, parallel, slurm))
SWEEP_ERROR := $(strip $(SWEEP_ERROR))

ifeq ($(ENGINE),make)
# Every value's sub-make runs (it knows what is up to date); a value's
# summary.csv changes only when its runs did, and only then is the sweep
# gathered again.  The binary is passed by absolute path so that parallel
# sub-makes never try to rebuild it, and the dependency check's verdict so
# that they do not redo it.
#
# A setting that leaves the traces alone (mk/whatif.inc's WHATIF_RUN_ONLY:
# TARGET, COSTS, ...) shares the workload's traces: generated once, by the
# first point, which the others wait for (order only), and kept.
SWEEP_SHARED_DATA := $(if $(filter $(SWEEP_VAR),$(WHATIF_RUN_ONLY)),$(DATA))
$(SWEEP_POINTS): $(SWEEP_DIR)/%/summary.csv: $(SLABSIM) FORCE
	+@$(MAKE) --no-print-directory sweep-point WORKLOAD=$(WORKLOAD) $(SWEEP_VAR)=$* \
		DATA=$(or $(SWEEP_SHARED_DATA),$(SWEEP_DIR)/$*/data) REPORT=$(SWEEP_DIR)/$* \
		SLABSIM=$(abspath $(SLABSIM)) SWEEP_POINT=1 DEPS_OK=$(DEPS_OK) \
		$(if $(SWEEP_SHARED_DATA),SWEEP_KEEP_TRACES=1) \
		SWEEP_POINT_COMMAND=$(call sh_quote,$(call sweep_point_cmd,$*))
	@scripts/progress.sh done $(SWEEP_DIR)/.progress $(PARAM)=$*
ifneq ($(SWEEP_SHARED_DATA),)
$(wordlist 2,$(words $(SWEEP_POINTS)),$(SWEEP_POINTS)): | $(firstword $(SWEEP_POINTS))
endif
else ifneq ($(ENGINE),collected)
# The other engines run every point again (each point is one job) and
# write the same directories; scripts/sweep-engine.sh does the work.
SWEEP_ENGINE_ARGS = --engine $(ENGINE) --dir $(SWEEP_DIR) --slabsim $(abspath $(SLABSIM)) \
	--var $(SWEEP_VAR) --sshloginfile $(call sh_quote,$(SSHLOGINFILE)) \
	--jobs $(call sh_quote,$(SWEEP_JOBS)) --slurm-wait $(or $(SLURM_WAIT),1) \
	--slurm-opts $(call sh_quote,$(SLURM_OPTS)) \
	$(foreach v,$(VALUES),--point $(call sh_quote,$(v)) $(call sh_quote,$(call sweep_point_cmd,$(v)))) \
	-- $(sweep_common_args)
$(SWEEP_POINTS) &: $(SLABSIM) FORCE
	scripts/sweep-engine.sh $(SWEEP_ENGINE_ARGS)
endif

$(eval $(call param_stamp,$(SWEEP_DIR)/params,SWEEP_STAMP))

$(SWEEP_DATA) &: $(SWEEP_POINTS) $(SLABSIM) $(SWEEP_DIR)/params
	$(call say,SWEEP,$(SWEEP_DIR)/sweep.md)
	$(SLABSIM) sweep --workload $(WORKLOAD) --param $(PARAM) --dir $(SWEEP_DIR) \
		--values $(call sh_quote,$(strip $(VALUES))) --figures $(call sh_quote,$(strip $(SWEEP_FIGURES))) \
		--variants $(call sh_quote,$(strip $(VARIANTS))) --models $(call sh_quote,$(strip $(MODELS))) \
		--command $(call sh_quote,$(strip $(SWEEP_COMMAND)))

# mk/plot.inc's rule, one figure at a time.
$(foreach f,$(SWEEP_FIGURES),$(eval $(call gnuplot_rule,$(SWEEP_DIR)/$(f),$(SWEEP_DIR)/$(f).dat,analysis/sweep.gp,load '$(SWEEP_DIR)/title.gp',$(SWEEP_DIR)/title.gp)))

# After `make sweep ENGINE=slurm SLURM_WAIT=0`: gather the array's points
# (every summary.csv must be there) and plot.
.PHONY: sweep-collect
sweep-collect:
	$(if $(SWEEP_ERROR),@echo "make sweep-collect: $(SWEEP_ERROR)" >&2; exit 2)
	@missing=; for p in $(SWEEP_POINTS); do [ -s "$$p" ] || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then echo "make sweep-collect: not done yet:$$missing" >&2; \
		[ -f $(SWEEP_DIR)/.slurm/job-id ] && echo "  (slurm job $$(cat $(SWEEP_DIR)/.slurm/job-id): squeue -j $$(cat $(SWEEP_DIR)/.slurm/job-id))" >&2; exit 1; fi
	@$(MAKE) --no-print-directory sweep ENGINE=collected
	rm -rf $(SWEEP_DIR)/.slurm

# A line per point done (scripts/progress.sh), from `make sweep` itself:
# the count starts as it reads this file.
ifneq ($(and $(filter make,$(ENGINE)),$(filter sweep,$(MAKECMDGOALS)),$(if $(SWEEP_ERROR),,ok)),)
$(shell scripts/progress.sh start $(SWEEP_DIR)/.progress sweep $(words $(VALUES)))
endif

.PHONY: sweep sweep-check
sweep-check:
	$(if $(SWEEP_ERROR),@echo "make sweep: $(SWEEP_ERROR)" | sed 's/@@ */; /g; s/; $$//' >&2; \
		echo "usage: make sweep WORKLOAD=W PARAM=P VALUES=\"V1 V2 ...\" [-jN]" >&2; exit 2)

ifneq ($(SWEEP_ERROR),)
sweep: sweep-check
else ifeq ($(ENGINE)$(SLURM_WAIT),slurm0)
# submit the array and return; `make sweep-collect` gathers
sweep: deps-auto $(SLABSIM)
	scripts/sweep-engine.sh $(SWEEP_ENGINE_ARGS)
else
sweep: deps-auto $(SWEEP_DATA) $(SWEEP_PLOTS)
	@scripts/progress.sh end $(SWEEP_DIR)/.progress
	$(if $(INDEX_AUTO),$(call say,INDEX,$(INDEX)))
	$(if $(INDEX_AUTO),$(SLABSIM) index --dir $(REPORTS_ROOT))
	@echo "slabsim: $(SWEEP_DIR)/sweep.md, sweep.csv, $(addsuffix .png,$(SWEEP_FIGURES)) written"
endif
endif # SWEEP_POINT

else
.PHONY: sweep
sweep:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
