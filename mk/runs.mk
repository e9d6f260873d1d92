# mk/runs.mk - one replay per (variant, model) of the current workload.
# Included after workloads/$(WORKLOAD).mk, which sets VARIANTS, MODELS,
# TARGET and a rule for $(DATA)/<variant>.trace.  A run's directory is
# $(REPORT)/runs/<variant>__<model>; its summary.csv marks it complete.

RUN_FLAGS ?=
RUN_PARAMS := --target $(TARGET) $(RUN_FLAGS) $(if $(COSTS),--costs $(COSTS)) $(if $(CPUS),--cpus $(CPUS))
RUN_SUMMARIES := $(foreach v,$(VARIANTS),$(foreach m,$(MODELS),$(REPORT)/runs/$(v)__$(m)/summary.csv))

# A stamp that changes only when the run parameters change, so that
# `make sim TARGET=...` reruns what it must and nothing else.
$(REPORT)/run-params: FORCE
	@mkdir -p $(@D)
	@echo '$(RUN_PARAMS)' | cmp -s - $@ || echo '$(RUN_PARAMS)' > $@

define run_rule
$(REPORT)/runs/$(1)__$(2)/summary.csv: $(DATA)/$(1).trace $(SLABSIM) $(REPORT)/run-params
	$(SLABSIM) run --trace $$< --model $(2) $(RUN_PARAMS) --out $$(@D)
endef
$(foreach v,$(VARIANTS),$(foreach m,$(MODELS),$(eval $(call run_rule,$(v),$(m)))))

.PHONY: runs FORCE
runs: $(RUN_SUMMARIES)
FORCE:
