# mk/sensitivity.mk - `make sensitivity`: how far each headline figure
# moves when an estimate is off (docs/cost-model.md, "Sensitivity").
#
#   make sensitivity WORKLOAD=W [SENS_JOBS=2] [COSTS=FILE] [SENS_ONLY="NAME ..."]
#
# What is varied, one at a time, each to the low and to the high end of
# its range: every step of the cost table that has a range (`slabsim costs
# --list`), the target's clock (clock_mhz_range; the prices are scaled so
# the allocator runs at that clock while the workloads' fitted work keeps
# its time), and the workload's own estimated parameters (SENS_GEN, e.g.
# hackbench's HB_QUANTUM, smack17k's and audit's estimated cycle constants
# (mk/estimates.inc): a new trace).  Then two corners: all-low (every
# cost low, clock high: the fastest allocator) and all-high.  Fitted
# constants are held.  Memory figures never depend on any of these and
# are not varied.
#
# Settings replayed in full: the base, the two corners and each SENS_GEN
# end (its own trace, generated once and kept in its DATA for a second
# `make sensitivity`), each a sub-make of the workload with REPORT
# redirected to $(REPORT)/sensitivity/SETTING/ and COSTS to the table
# `slabsim costs` wrote there: it replays the SENS_MODELS runs (one pass
# over each trace, every core) and writes that directory's report and
# figures.csv (mk/sweep.mk's `sweep-point` goal), SENS_JOBS at a time.
# Every other setting differs from the base only in its cost table, and a
# model's decisions do not depend on prices: its figures are priced from
# the base's runs (each run's counted steps under the setting's table,
# sim/reprice.h; `slabsim report --reprice`), which writes only its
# figures.csv.  The prices are taken only when they give both corners'
# replayed figures and every base run's own time from its counts (one
# CPU, no lock waits, no clock-driven model work); otherwise every setting
# is replayed (`slabsim report` exits 4 and says why).  `slabsim
# sensitivity` gathers the figures into $(REPORT)/sensitivity.csv and
# tornado.dat, gnuplot draws tornado.png / .svg (analysis/tornado.gp), and
# report.md is rewritten to give every headline figure its interval.  A
# line per finished setting says how many are left and about how long
# (scripts/progress.sh).  `make clean` removes it all.
#
# A workload fragment may set SENS_TARGET (the target whose clock range
# applies; default TARGET), SENS_MODELS (default MODELS) and SENS_GEN
# ("VAR:VALUE:LOW:HIGH ...").  SENS_ONLY keeps only the parameters named
# (a quick look, and the tests); the corners still move every cost.

SENS_DIR := $(REPORT)/sensitivity
SENS_JOBS ?= 2
SENS_TARGET ?= $(TARGET)
SENS_MODELS ?= $(MODELS)
SENS_GEN ?=
SENS_ONLY ?=
SENS_CSV := $(REPORT)/sensitivity.csv
SENS_TORNADO := $(REPORT)/tornado

ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
ifndef SWEEP_POINT

SENS_COSTS_ARGS := $(if $(COSTS),--costs $(abspath $(COSTS))) $(if $(SENS_TARGET),--target $(SENS_TARGET))

.PHONY: sensitivity sens-params sens-settings
sensitivity: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory sens-params
	@# units: the settings replayed (the base, the corners, the SENS_GEN
	@# ends) and the pricing of the others, one unit; or every setting
	@scripts/progress.sh start $(SENS_DIR)/.progress "sensitivity" \
		$(if $(filter 1,$(SENS_REPLAY_ALL)),$$(($$(wc -l < $(SENS_DIR)/params) * 2 + 3)),$$(($$(grep -c ' gen$$' $(SENS_DIR)/params) * 2 + 4)))
	@$(MAKE) --no-print-directory $(SENS_DIR)/base/figures.csv SENS_READY=1
	@$(MAKE) --no-print-directory -j$(SENS_JOBS) $(SENS_CSV) SENS_READY=1
	@$(MAKE) --no-print-directory report $(SENS_TORNADO).png $(SENS_TORNADO).svg
	@scripts/progress.sh end $(SENS_DIR)/.progress
	@echo "slabsim: $(SENS_CSV), $(SENS_TORNADO).png written; report.md gives the intervals"

# params: what is varied, one "NAME VALUE LOW HIGH KIND" line each
# (sensitivity_data.h), rewritten only when it changes.
sens-params:
	@mkdir -p $(SENS_DIR)
	@{ $(SLABSIM) costs $(SENS_COSTS_ARGS) --list && \
	   for g in $(SENS_GEN); do echo "$$g gen" | tr ':' ' '; done; } | \
	   awk -v only='$(strip $(SENS_ONLY))' 'BEGIN { n = split(only, k, " "); for (i = 1; i <= n; i++) keep[k[i]] = 1 } \
		!n || ($$1 in keep)' > $(SENS_DIR)/params.tmp
	@cmp -s $(SENS_DIR)/params.tmp $(SENS_DIR)/params && rm -f $(SENS_DIR)/params.tmp || \
		mv -f $(SENS_DIR)/params.tmp $(SENS_DIR)/params

ifdef SENS_READY
# Field k (2 value, 3 low, 4 high, 5 kind) of a parameter's params line
# (the file read once: NAME=VALUE=LOW=HIGH=KIND words).
SENS_RECS := $(shell awk '{ print $$1 "=" $$2 "=" $$3 "=" $$4 "=" $$5 }' $(SENS_DIR)/params)
sens_field = $(word $(2),$(subst =, ,$(filter $(1)=%,$(SENS_RECS))))
SENS_NAMES := $(foreach r,$(SENS_RECS),$(firstword $(subst =, ,$(r))))
SENS_CLOCK_LOW := $(call sens_field,clock_mhz,3)
SENS_CLOCK_HIGH := $(call sens_field,clock_mhz,4)

# The `slabsim costs` arguments of a parameter at end $(2) (low|high).
sens_args = $(if $(filter cost,$(call sens_field,$(1),5)),--set $(1)=$(2), \
	$(if $(filter clock,$(call sens_field,$(1),5)),--clock-mhz $(call sens_field,$(1),$(if $(filter low,$(2)),3,4))))
# The make variables of a gen parameter at end $(2): its value and a data
# directory of its own.
sens_vars = $(if $(filter gen,$(call sens_field,$(1),5)), \
	$(1)=$(call sens_field,$(1),$(if $(filter low,$(2)),3,4)) DATA=$(abspath $(SENS_DIR)/$(1)-$(2)/data))

# The settings priced from the base (their kind cost or clock) and those
# replayed (the base, the corners, the SENS_GEN ends).
sens_kind = $(call sens_field,$(1),5)
SENS_PRICED := $(foreach n,$(SENS_NAMES),$(if $(filter cost clock,$(call sens_kind,$(n))),$(n)-low $(n)-high))
SENS_REPLAYED := base all-low all-high $(foreach n,$(SENS_NAMES),$(if $(filter cost clock,$(call sens_kind,$(n))),,$(n)-low $(n)-high))
# the sub-make of a setting and of pricing: COSTS its table, REPORT its directory
sens_submake = $(MAKE) --no-print-directory $(1) WORKLOAD=$(WORKLOAD) \
		COSTS=$(abspath $(SENS_DIR)/$(2)/costs) REPORT=$(SENS_DIR)/$(2) \
		MODELS="$(SENS_MODELS)" SLABSIM=$(abspath $(SLABSIM)) \
		SWEEP_POINT=1 SWEEP_KEEP_TRACES=1 DEPS_OK=$(DEPS_OK)

# $(1) setting, $(2) `slabsim costs` arguments, $(3) make variables.
define sens_costs_rule
$(SENS_DIR)/$(1)/costs: $(SENS_DIR)/params $(SLABSIM)
	@mkdir -p $$(@D)
	$$(call say,COSTS,$$@)
	$(SLABSIM) costs $(SENS_COSTS_ARGS) $(2) -o $$@
endef
define sens_replay_rule
$(SENS_DIR)/$(1)/figures.csv: $(SENS_DIR)/$(1)/costs $(SLABSIM) FORCE
	+@$(call sens_submake,sweep-point,$(1)) $(3)
	@scripts/progress.sh done $(SENS_DIR)/.progress $(1)
endef

$(eval $(call sens_costs_rule,base,))
$(eval $(call sens_costs_rule,all-low,--all low $(if $(SENS_CLOCK_HIGH),--clock-mhz $(SENS_CLOCK_HIGH))))
$(eval $(call sens_costs_rule,all-high,--all high $(if $(SENS_CLOCK_LOW),--clock-mhz $(SENS_CLOCK_LOW))))
$(foreach n,$(SENS_NAMES),$(foreach e,low high,$(eval $(call sens_costs_rule,$(n)-$(e),$(call sens_args,$(n),$(e))))))

SENS_FIGS := $(foreach s,$(SENS_REPLAYED) $(SENS_PRICED),$(SENS_DIR)/$(s)/figures.csv)
SENS_PRICED_FIGS := $(foreach s,$(SENS_PRICED),$(SENS_DIR)/$(s)/figures.csv)

$(foreach s,$(SENS_REPLAYED),$(eval $(call sens_replay_rule,$(s),,$(if $(filter base all-%,$(s)),,$(call sens_vars,$(patsubst %-low,%,$(patsubst %-high,%,$(s))),$(lastword $(subst -, ,$(s))))))))
ifeq ($(SENS_REPLAY_ALL),1)
$(foreach s,$(SENS_PRICED),$(eval $(call sens_replay_rule,$(s),,)))
else
# Priced from the base's runs, checked against the corners' replays; when
# the prices cannot be taken (`slabsim report` exits 4), not-priced.txt
# says why and every priced setting is replayed.
ifneq ($(SENS_PRICED),)
$(SENS_PRICED_FIGS) &: $(foreach s,$(SENS_PRICED) base,$(SENS_DIR)/$(s)/costs) \
		$(foreach s,base all-low all-high,$(SENS_DIR)/$(s)/figures.csv) $(SLABSIM)
	@rm -f $(SENS_DIR)/not-priced.txt
	+@$(call sens_submake,sens-price,base) SENS_PRICE="$(SENS_PRICED)" SENS_PRICE_DIR=$(SENS_DIR)
	+@if [ -e $(SENS_DIR)/not-priced.txt ]; then \
		echo "make sensitivity: the cost settings are replayed: $$(cat $(SENS_DIR)/not-priced.txt)" >&2; \
		scripts/progress.sh grow $(SENS_DIR)/.progress $$(($(words $(SENS_PRICED)) - 1)); \
		$(MAKE) --no-print-directory -j$(SENS_JOBS) $(SENS_PRICED_FIGS) SENS_READY=1 SENS_REPLAY_ALL=1; \
	else scripts/progress.sh done $(SENS_DIR)/.progress priced:$(words $(SENS_PRICED)); fi
endif
endif

$(SENS_CSV) $(SENS_TORNADO).dat &: $(SENS_FIGS) $(SENS_DIR)/params $(SLABSIM)
	$(call say,SENS,$(SENS_CSV))
	$(SLABSIM) sensitivity --dir $(SENS_DIR) -o $(SENS_CSV) --tornado $(SENS_TORNADO).dat
endif # SENS_READY

# mk/plot.inc's rule: the tornado plot.
$(eval $(call gnuplot_rule,$(SENS_TORNADO),$(SENS_TORNADO).dat,analysis/tornado.gp,workload='$(WORKLOAD)'))

else # SWEEP_POINT
# In the base setting's place (REPORT, COSTS and the runs its): the cost
# settings' figures priced from its runs (cli/report_reprice.h).
.PHONY: sens-price
sens-price: $(REPORT_DATA)
	@rc=0; msg=$$($(SLABSIM) report $(REPORT_ARGS) --reprice-dir $(SENS_PRICE_DIR) \
		--reprice-check "all-low all-high" --reprice $(call sh_quote,$(SENS_PRICE)) 2>&1) || rc=$$?; \
	if [ $$rc -eq 4 ]; then printf '%s\n' "$$msg" > $(SENS_PRICE_DIR)/not-priced.txt; \
	elif [ $$rc -ne 0 ]; then printf '%s\n' "$$msg" >&2; exit $$rc; fi
endif # SWEEP_POINT
else
.PHONY: sensitivity
sensitivity:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif
