# mk/check-captures.mk - your captures against the live kernel, in one
# table (docs/own-trace.md, "Checking your own captures"):
#
#   make check-captures CAPTURES="DIR ..." [DRAWS=N] [MODELS="..."] [TARGET=T]
#
# Each DIR is a `make capture` directory or a directory of them (a
# CAPTURE_DIR).  Every capture with both slab snapshots goes through
# `make sim TRACE=` into REPORTS/PARENT-NAME/ (reports/ by default), then
# `slabsim kernel-table` writes CHECK_OUT/kernel-table.md and
# kernel-table.csv (CHECK_OUT: REPORTS/kernel-table by default): how
# many held caches are within the bounds, a line per capture, the misses
# and what the model leaves out (scripts/check-captures.sh).  MODELS= and
# TARGET= on the command line reach each make sim as they would directly.
# DRAWS=N replays each capture N more times under `traced` with other
# draws of its initial state (run --draw-seed): each held cache's range.

CHECK_OUT ?= $(REPORTS)/kernel-table

.PHONY: check-captures
check-captures: deps-auto $(SLABSIM)
	@$(if $(strip $(CAPTURES)),,echo "make: check-captures needs CAPTURES=\"DIR ...\" (make capture directories, or directories of them)" >&2; exit 2;)
	@MAKE='$(MAKE)' SLABSIM='$(SLABSIM)' REPORTS=$(call sh_quote,$(REPORTS)) \
	  DRAWS=$(call sh_quote,$(DRAWS)) CHECK_RUN_FLAGS=$(call sh_quote,$(RUN_FLAGS)) \
	  DATASETS=$(call sh_quote,$(DATASETS)) scripts/check-captures.sh $(call sh_quote,$(CHECK_OUT)) $(CAPTURES)

# ---- a capture's other draws, replayed in the pass of its own runs -----
# scripts/check-captures.sh makes each capture's report with CHECK_DRAWS=N
# in the environment (that make sim's alone), then each draw's report
# with its own `make sim ... MODELS=traced REPORT=$(REPORT).drawS
# RUN_FLAGS="$(RUN_FLAGS) --draw-seed S"`.  The draws are runs of the
# same trace: here they join the pass that replays the capture's models
# (mk/runs.inc RUN_ALSO_trace), each with the options its own make sim
# gives it and the stamp that make sim checks, written first, so that it
# finds its run done and writes only the report.  (A draw whose stamp
# differs there is replayed by its own make sim.)
ifneq ($(and $(TRACE),$(filter-out 0,$(CHECK_DRAWS))),)
CHECK_DRAW_SEEDS := $(shell seq 1 $(CHECK_DRAWS))
# RUN_FLAGS as the draw's make sim reads its command line's
check_draw_flags = $(if $(strip $(RUN_FLAGS)),$(RUN_FLAGS) --draw-seed $(1),--draw-seed $(1))
$(foreach s,$(CHECK_DRAW_SEEDS),$(eval CHECK_DRAW_PARAMS_$(s) = $$(call run_params,$$(call check_draw_flags,$(s)))))
$(foreach s,$(CHECK_DRAW_SEEDS),$(eval $(call param_stamp,$(REPORT).draw$(s)/run-params,CHECK_DRAW_PARAMS_$(s))))
RUN_ALSO_trace = $(foreach s,$(CHECK_DRAW_SEEDS),$(call sh_quote,--model traced $(CHECK_DRAW_PARAMS_$(s)) --out $(REPORT).draw$(s)/runs/trace__traced))
$(RUN_SUMMARIES): $(foreach s,$(CHECK_DRAW_SEEDS),$(REPORT).draw$(s)/run-params)
endif
