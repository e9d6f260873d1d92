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
