# workloads/smack17k/smack17k.mk - smackctl loading ~17K SMACK rules over 500 labels
# (shared/seeds/000_*, docs/workloads/smack17k.md).
#   make sim WORKLOAD=smack17k [RULES=N LABELS=M SEED=S MODELS="..." TARGET=T]

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
	$(SLABSIM) gen smack17k $(GEN_PARAMS) --write-rules $@

$(DATA)/%.trace: $(DATA)/rules.txt
	$(SLABSIM) gen smack17k --from-rules $< --variant $* -o $@

include mk/runs.inc

.PHONY: sim
sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory report SIM_GOAL=sim
	@echo "slabsim: $(REPORT)/report.md, summary.csv, waste.png, latency.png written"
