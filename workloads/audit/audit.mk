# workloads/audit/audit.mk - a stat/access/open loop on a 2.6.16 SELinux MLS kernel
# with syscall audit off and on (shared/seeds/001_*, docs/workloads/audit.md).
#
#   make sim WORKLOAD=audit [SYSCALLS=N MIX=SPEC AUDIT_RULES=R RECORDS=PCT
#                            CPUS=C FILES=F CONTEXTS="CTX ..." MODELS="..." TARGET=T]
#   make audit-sweep WORKLOAD=audit   the rules sweep beside lspp.16 (part of sim)
#   make audit-fit WORKLOAD=audit     re-derive AUDIT_PROFILE_SCALE_PERMILLE, print it
#
# off and on-2.6.16 also run on the seed's own kernel, AUDIT_SEED_TARGET
# (x86_64-2.6.16: SLAB), for the allocator share of the hit under SLAB.
# Variants: off, on-2.6.16 (strings per lookup), on-sid (the 2.6.17 fix),
# on-cached (the 5.6 sidtab string cache), on-ctxcache (a dedicated cache
# for the strings).  CPUS sets both the looping processes (gen --cpus) and
# the CPUs the replay models.

# `make sweep PARAM=...`: the parameters of this workload (mk/sweep.mk)
SWEEP_VAR_audit_rules := AUDIT_RULES
SWEEP_VAR_syscalls := SYSCALLS
SWEEP_VAR_records := RECORDS

VARIANTS := off on-2.6.16 on-sid on-cached on-ctxcache
# summary.csv gets overhead_pct: each run's sim_time_ms against `off` (same model).
REPORT_BASELINE := off
MODELS ?= traced kmalloc-buckets kmem_cache traced+P
# `make sensitivity`: the headline overheads are model traced's.
SENS_MODELS := traced
TARGET ?= x86_64-6.1
SYSCALLS ?= 50000
MIX ?= access:100
# empty: the generator's default, the seed's 4 rules
AUDIT_RULES ?=
RECORDS ?= 0
FILES ?=
CONTEXTS ?=
# The one fitted constant, read from its definition (docs/cost-model.md).
CALIBRATION := $(shell awk '/^\#define AUDIT_PROFILE_SCALE_PERMILLE /{v = $$3; sub(/u$$/, "", v); printf "%s=%s ", $$2, v}' workloads/audit/audit_consts.h)

# The estimated constants of audit_consts.h with a stated range (NAME_LOW,
# NAME_HIGH; mk/estimates.inc): `make sensitivity` varies each (new
# traces), and NAME=V sets one for `make sim`.
SENS_GEN := $(call estimates_sens,workloads/audit/audit_consts.h)
AUDIT_GEN_COMMON := --syscalls $(SYSCALLS) --mix $(MIX) --records $(RECORDS) \
	--cpus $(or $(CPUS),1) $(if $(FILES),--files $(FILES)) \
	$(foreach c,$(CONTEXTS),--context $(c)) $(call estimates_args,$(SENS_GEN))
GEN_PARAMS := $(AUDIT_GEN_COMMON) $(if $(AUDIT_RULES),--rules $(AUDIT_RULES))

$(eval $(call param_stamp,$(DATA)/gen-params,GEN_PARAMS))

$(DATA)/%.trace: $(DATA)/gen-params $(SLABSIM)
	$(call say,GEN,$@)
	$(SLABSIM) gen audit --variant $* $(GEN_PARAMS) -o $@

include mk/runs.inc

# ---- the rules sweep: on-sid (lspp.16 has the fix), model traced ----------
AUDIT_SWEEP_RULES := 0 10 25 50 75 90
AUDIT_SWEEP_DIR := $(REPORT)/sweep
AUDIT_SWEEP_SUMMARIES := $(foreach r,$(AUDIT_SWEEP_RULES),$(AUDIT_SWEEP_DIR)/r$(r)/summary.csv)

# kept like the variants' traces (not make intermediates)
.SECONDARY: $(foreach r,$(AUDIT_SWEEP_RULES),$(DATA)/sweep-r$(r).trace)
$(DATA)/sweep-r%.trace: $(DATA)/gen-params $(SLABSIM)
	$(call say,GEN,$@)
	$(SLABSIM) gen audit --variant on-sid $(AUDIT_GEN_COMMON) --rules $* -o $@

$(AUDIT_SWEEP_DIR)/r%/summary.csv: $(DATA)/sweep-r%.trace $(SLABSIM) $(REPORT)/run-params $(COSTS)
	$(call say,RUN,$(@D))
	$(SLABSIM) run --quiet --trace $< --model traced $(RUN_PARAMS) --out $(@D)

.PHONY: audit-sweep
audit-sweep: $(AUDIT_SWEEP_SUMMARIES)

# ---- the seed's own kernel: off and on-2.6.16 on 2.6.16's SLAB ------------
# The report's allocator share of the hit under SLAB (a prediction: same
# traces, costs and fitted scale), beside the seed profile's.
AUDIT_SEED_TARGET ?= x86_64-2.6.16
AUDIT_SEEDK_DIR := $(REPORT)/seedkernel
AUDIT_SEEDK_SUMMARIES := $(AUDIT_SEEDK_DIR)/off/summary.csv $(AUDIT_SEEDK_DIR)/on-2.6.16/summary.csv
AUDIT_SEEDK_PARAMS := --target $(AUDIT_SEED_TARGET) $(RUN_PARAMS_MACHINE)
$(eval $(call param_stamp,$(AUDIT_SEEDK_DIR)/run-params,AUDIT_SEEDK_PARAMS))
$(AUDIT_SEEDK_DIR)/%/summary.csv: $(DATA)/%.trace $(SLABSIM) $(AUDIT_SEEDK_DIR)/run-params
	$(call say,RUN,$(@D))
	$(SLABSIM) run --quiet --trace $< --model traced $(AUDIT_SEEDK_PARAMS) --out $(@D)

# The report reads the sweep and the seed kernel's runs (unless this is a
# point of mk/sweep.mk's generic sweep, which wants only its own runs).
ifndef SWEEP_POINT
RUN_SUMMARIES += $(AUDIT_SWEEP_SUMMARIES) $(AUDIT_SEEDK_SUMMARIES)
endif

# ---- the extra plots: breakdown.png (time per call by category), sweep.png
AUDIT_EXTRA_DAT := $(REPORT)/breakdown.dat $(REPORT)/sweep.dat $(REPORT)/overhead.csv
AUDIT_PLOTS := $(foreach p,breakdown sweep,$(REPORT)/$(p).png $(REPORT)/$(p).svg)
WORKLOAD_PLOTS := $(AUDIT_PLOTS)

# `slabsim report` writes them with report.md; rerun it if one went missing.
$(AUDIT_EXTRA_DAT): $(REPORT)/report.md
	@test -f $@ || $(SLABSIM) report $(REPORT_ARGS)

# mk/plot.inc's rule, each plot with its script beside this file.
$(foreach p,breakdown sweep,$(eval $(call gnuplot_rule,$(REPORT)/$(p),$(REPORT)/$(p).dat,workloads/audit/$(p).gp,$(REPORT_TITLE),$(REPORT)/title.gp)))

report: $(REPORT)/overhead.csv

.PHONY: sim
sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory report SIM_GOAL=sim $(WHATIF_UNDO)
	@echo "slabsim: $(REPORT)/report.md, summary.csv, overhead.csv, waste.png, latency.png, breakdown.png, sweep.png written"

# ---- re-deriving the fitted constant --------------------------------------
# Model traced on $(TARGET): off, and on-2.6.16 with the scale at 0 and
# 1000; the scale that makes on-2.6.16 = off x 2.46 is linear in between.
# Traces in $(DATA)/fit-*.trace, runs in $(REPORT)/fit/ (make clean removes both).
AUDIT_FIT_DIR := $(REPORT)/fit
.PHONY: audit-fit
audit-fit: $(SLABSIM)
	@mkdir -p $(DATA) $(AUDIT_FIT_DIR)
	$(SLABSIM) gen audit --variant off $(GEN_PARAMS) -o $(DATA)/fit-off.trace
	$(SLABSIM) gen audit --variant on-2.6.16 $(GEN_PARAMS) --profile-scale-permille 0 -o $(DATA)/fit-on0.trace
	$(SLABSIM) gen audit --variant on-2.6.16 $(GEN_PARAMS) --profile-scale-permille 1000 -o $(DATA)/fit-on1000.trace
	@for t in off on0 on1000; do \
		$(SLABSIM) run --quiet --trace $(DATA)/fit-$$t.trace --model traced $(RUN_PARAMS) \
			--out $(AUDIT_FIT_DIR)/$$t > /dev/null || exit 1; done
	@awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) if ($$i == "sim_time_ms") c = i; next } \
		{ t[++n] = $$c } \
		END { s = (2.46 * t[1] - t[2]) / (t[3] - t[2]); \
		      printf "off %.3f ms, on-2.6.16 %.3f ms at scale 0, %.3f ms at 1000\n", t[1], t[2], t[3]; \
		      printf "AUDIT_PROFILE_SCALE_PERMILLE = %.0f (in use: $(subst AUDIT_PROFILE_SCALE_PERMILLE=,,$(strip $(CALIBRATION))))\n", s * 1000 }' \
		$(AUDIT_FIT_DIR)/off/summary.csv $(AUDIT_FIT_DIR)/on0/summary.csv $(AUDIT_FIT_DIR)/on1000/summary.csv
