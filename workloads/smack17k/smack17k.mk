# workloads/smack17k/smack17k.mk - smackctl loading ~17K SMACK rules over 500 labels
# (shared/seeds/000_*, docs/workloads/smack17k.md).
#   make sim WORKLOAD=smack17k [RULES=N LABELS=M SEED=S MODELS="..." TARGET=T
#                               SMACK_ALT_TARGETS="T ..."]

# `make sweep PARAM=...`: the parameters of this workload (mk/sweep.mk)
SWEEP_VAR_rules := RULES
SWEEP_VAR_labels := LABELS

VARIANTS := ref memfix patch2 patch3 patch4
MODELS ?= traced kmalloc-buckets kmem_cache traced+FZPU
TARGET ?= arm32-3.10
RULES ?= 17000
LABELS ?= 500
# The two constants fitted once on the seed's ref row (docs/cost-model.md),
# read from their one definition so the report prints what the code uses.
CALIBRATION := $(shell awk '/^\#define SMACK_(WRITE_CYCLES|SYSTEM_SLAB_KIB) /{printf "%s=%s ", $$2, $$3}' workloads/smack17k/smack_consts.h)
GEN_PARAMS := --rules $(RULES) --labels $(LABELS) --seed $(SEED)

$(eval $(call param_stamp,$(DATA)/gen-params,GEN_PARAMS))

$(DATA)/rules.txt: $(DATA)/gen-params $(SLABSIM)
	$(call say,GEN,$@)
	$(SLABSIM) gen smack17k $(GEN_PARAMS) --write-rules $@

# The estimated cycle constants of smack_consts.h with a stated range
# (NAME_LOW, NAME_HIGH; mk/estimates.inc): `make sensitivity` varies each
# (new traces), and NAME=V sets one for `make sim`.
SENS_GEN := $(call estimates_sens,workloads/smack17k/smack_consts.h)
SMACK_EST_ARGS := $(call estimates_args,$(SENS_GEN))
$(eval $(call param_stamp,$(DATA)/trace-params,SMACK_EST_ARGS))

$(DATA)/%.trace: $(DATA)/rules.txt $(DATA)/trace-params
	$(call say,GEN,$@)
	$(SLABSIM) gen smack17k --from-rules $< --variant $* $(SMACK_EST_ARGS) -o $@

include mk/runs.inc

# The seed table again on the targets listed here, model traced only
# (docs/targets.md): arm32-3.10 has the 32-byte lines the seed's figures
# imply (an inferred parameter), arm32-3.10-v7 the 64 a mainline ARMv7
# build has.  Not for the points of a sweep or of `make sensitivity`.
# Under the same kernel settings as the runs (ALLOCATOR, CONFIG).
SMACK_ALT_TARGETS ?= arm32-3.10-v7
# `make sensitivity`: the headline times are model traced's.
SENS_MODELS := traced
ifndef SWEEP_POINT
REPORT_ALT_DIRS := $(foreach t,$(SMACK_ALT_TARGETS),$(REPORT)/alt-$(t))
define smack_alt_rule
$(REPORT)/alt-$(1)/runs/$(2)__traced/summary.csv: $(DATA)/$(2).trace $(SLABSIM) $(REPORT)/run-params $(COSTS)
	$$(call say,RUN,$$(@D))
	$(SLABSIM) run --quiet --trace $$< --model traced --target $(1) $(RUN_PARAMS_MACHINE) $(RUN_KERNEL) --out $$(@D)
endef
$(foreach t,$(SMACK_ALT_TARGETS),$(foreach v,$(VARIANTS),$(eval $(call smack_alt_rule,$(t),$(v)))))
RUN_SUMMARIES += $(foreach t,$(SMACK_ALT_TARGETS),$(foreach v,$(VARIANTS),$(REPORT)/alt-$(t)/runs/$(v)__traced/summary.csv))
endif

.PHONY: sim
sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory report SIM_GOAL=sim $(WHATIF_UNDO)
	@echo "slabsim: $(REPORT)/report.md, summary.csv, waste.png, latency.png written"
