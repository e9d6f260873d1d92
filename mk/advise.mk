# mk/advise.mk - `make advise`: the slab changes worth making for a trace,
# each priced by a full replay (`slabsim advise`, docs/advise.md).
#
#   make advise WORKLOAD=W [VARIANT=V] [TARGET=T] [ADVISE_MODEL=M]
#               [MAX_PROPOSALS=N]
#   make advise TRACE=PATH [NAME=N] [TARGET=T] [ADVISE_MODEL=M] [MAX_PROPOSALS=N]
#   (either: ADVISE_DIR=DIR writes there instead)
#
# WORKLOAD: the trace of VARIANT (default: the workload's first variant),
# made by the workload's own rule, on the workload's TARGET; writes
# $(REPORT)/advise-V/.  TRACE: a slabsim trace (.trace, .sbt, their .zst),
# or a kernel capture to import first (a `make capture` directory or its
# capture.ftrace.zst, any ftrace or perf-script text); the target is the
# trace's own `meta target`, which the import gives it: the capture's own
# target (workloads/import/capture.inc) unless TARGET is given; writes
# reports/advise-NAME/ (NAME: the capture directory's or the file's name;
# a what-if's with its suffix).  CONFIG reaches the baseline and every
# proposal (--config).  The settings `slabsim advise` has no
# option for (ALLOCATOR, TOPOLOGY, MAP; a capture's INITIAL, SEED
# and IMPORT_FLAGS: it replays from empty caches) are refused, not
# dropped.
# Either way: advice.csv, advice.md, proposals/NN.place, savings.dat and
# savings.png/.svg (sim/advise/advice.gp).

ADVISE_MODEL ?= traced
MAX_PROPOSALS ?=
ADV_OPTS = --model $(ADVISE_MODEL) $(if $(MAX_PROPOSALS),--max-proposals $(MAX_PROPOSALS)) \
	$(if $(CPUS),--cpus $(CPUS)) $(if $(COSTS),--costs $(COSTS)) \
	$(if $(CONFIG),--config $(call sh_quote,$(CONFIG)))

ifneq ($(TRACE),)
# a capture directory stands for its capture file
ADV_SRC := $(if $(wildcard $(TRACE)/capture.ftrace.zst),$(TRACE)/capture.ftrace.zst,$(TRACE))
ADV_BASE := $(if $(filter $(TRACE)/capture.ftrace.zst,$(ADV_SRC)),$(TRACE),$(ADV_SRC))
ADV_NAME := $(or $(NAME),$(firstword $(subst ., ,$(notdir $(patsubst %/,%,$(ADV_BASE))))))
ADV_DIR := $(or $(ADVISE_DIR),$(REPORTS)/advise-$(ADV_NAME)$(WHATIF_SUFFIX))
# slabsim traces by name; anything else is a capture for `slabsim import`
ADV_IS_TRACE := $(filter %.trace %.trace.zst %.sbt %.sbt.zst,$(ADV_SRC))
ADV_TRACE := $(if $(ADV_IS_TRACE),$(ADV_SRC),$(ADV_DIR)/trace.sbt)
# TARGET from the command line or the environment; else the trace's own
# (an import's: the capture's own target, TARGET's default there)
ADV_TARGET := $(if $(filter command line environment,$(origin TARGET)),--target $(TARGET))
ADV_IMPORT_TARGET := $(if $(TARGET),--target $(TARGET))
ADV_TITLE := $(ADV_NAME)
ifeq ($(ADV_IS_TRACE),)
$(ADV_DIR)/trace.sbt: $(ADV_SRC) $(SLABSIM)
	@mkdir -p $(@D)
	$(call say,IMPORT,$@)
	$(SLABSIM) import $(ADV_IMPORT_TARGET) -o $@ $<
endif
else ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
VARIANT ?= $(firstword $(VARIANTS))
ADV_DIR := $(or $(ADVISE_DIR),$(REPORT)/advise-$(VARIANT))
ADV_TRACE := $(DATA)/$(VARIANT).trace
ADV_TARGET := --target $(TARGET)
ADV_TITLE := $(WORKLOAD) $(VARIANT) on $(TARGET)
endif

# what `slabsim advise` cannot replay: refused before anything is written
ADV_UNSUPPORTED := $(filter ALLOCATOR TOPOLOGY MAP INITIAL IMPORT_FLAGS $(if $(TRACE),SEED),$(WHATIF))
ifneq ($(filter advise,$(MAKECMDGOALS)),)
ifneq ($(ADV_UNSUPPORTED),)
$(error make advise: $(ADV_UNSUPPORTED) refused: slabsim advise replays the target's own allocator, on its CPUs, from empty caches (docs/advise.md))
endif
endif

ifneq ($(ADV_DIR),)
ADV_DATA := $(addprefix $(ADV_DIR)/,advice.csv advice.md savings.dat)
ADV_PLOTS := $(ADV_DIR)/savings.png $(ADV_DIR)/savings.svg
ADV_PARAMS := $(ADV_TARGET) $(ADV_OPTS)
$(eval $(call param_stamp,$(ADV_DIR)/params,ADV_PARAMS))

$(ADV_DATA) &: $(ADV_TRACE) $(SLABSIM) $(ADV_DIR)/params
	$(call say,ADVISE,$(ADV_DIR))
	$(SLABSIM) advise --trace $(ADV_TRACE) $(ADV_PARAMS) --out $(ADV_DIR)

$(eval $(call gnuplot_rule,$(ADV_DIR)/savings,$(ADV_DIR)/savings.dat,sim/advise/advice.gp,title=$(call sh_quote,$(ADV_TITLE))))

.PHONY: advise
advise: deps-auto $(ADV_DATA) $(ADV_PLOTS)
	@echo "slabsim: $(ADV_DIR)/advice.md, advice.csv, savings.png written"
else
.PHONY: advise
advise:
	@echo "make: advise wants TRACE=PATH or a known WORKLOAD ($(WORKLOADS))" >&2; exit 2
endif
