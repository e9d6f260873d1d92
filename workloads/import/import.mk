# workloads/import/import.mk - your own workload (docs/own-trace.md):
#   make sim TRACE=PATH [NAME=N] [MODELS="..."] [TARGET=T] [INITIAL=SNAPSHOT]
#            [IMPORT_FLAGS="..."]
#   make compare TRACE=PATH [NAME=N]
#
# PATH is a `make capture` directory, or a trace or capture file: ftrace,
# trace-cmd report or perf script text, a trace-cmd trace.dat, or a
# slabsim trace.  A capture (or a file next to its slab-before.txt) is
# imported with the kernel's own caches and CPU count, every model
# replays it starting from the kernel's caches as they were before
# (INITIAL=, default slab-before.txt; INITIAL= with nothing starts them
# empty), and with slab-after.txt the report compares the simulator with
# the live kernel.  Outputs: datasets/import/N/ (the imported trace,
# totals.csv) and reports/N/ like any workload's.  IMPORT_FLAGS= adds
# `slabsim import` options (--drop-untraced: the what-if of dropping the
# objects no event allocated, docs/import.md).

ifeq ($(strip $(TRACE)),)
.PHONY: sim runs report
sim runs report:
	@echo "make: WORKLOAD=import needs TRACE=PATH (a capture directory or a trace file; docs/own-trace.md)" >&2; exit 2
else

OWN_TRACE := $(patsubst %/,%,$(TRACE))
OWN_KIND := $(shell scripts/trace-kind.sh $(call sh_quote,$(OWN_TRACE)) 2>&1)
ifeq ($(filter capture slabsim dat text,$(OWN_KIND)),)
$(error TRACE=$(TRACE): $(OWN_KIND))
endif
# NAME: the capture directory's or the file's name without its suffixes
own_strip = $(basename $(basename $(basename $(1))))
NAME ?= $(call own_strip,$(notdir $(OWN_TRACE)))
ifneq ($(shell printf '%s' $(call sh_quote,$(NAME)) | grep -Eqx '[A-Za-z0-9._+-]{1,60}' && echo ok),ok)
$(error NAME='$(NAME)': 1-60 of A-Z a-z 0-9 . _ + - (set NAME=))
endif
DATA := datasets/import/$(NAME)
REPORT := reports/$(NAME)
WORKLOAD_ARG := TRACE=$(TRACE)

# the capture's files: in its directory, or beside the trace file
OWN_DIR := $(if $(filter capture,$(OWN_KIND)),$(OWN_TRACE),$(patsubst %/,%,$(dir $(OWN_TRACE))))
OWN_INPUT := $(if $(filter capture,$(OWN_KIND)),$(firstword $(wildcard $(OWN_TRACE)/capture.ftrace.zst $(OWN_TRACE)/trace.dat)),$(OWN_TRACE))
OWN_BEFORE := $(wildcard $(OWN_DIR)/slab-before.txt)
# the node partial slabs' fills (slab-fill), with the before-snapshot only
OWN_FILL := $(if $(OWN_BEFORE),$(wildcard $(OWN_DIR)/slab-fill-before.txt))
OWN_WALK := $(wildcard $(OWN_DIR)/walk.ftrace.zst)
# the slab page frames and the listed slabs' free objects as tracing
# began (slab-pages, slab-fill again), with the fill they are checked by
OWN_PAGES := $(if $(OWN_FILL),$(wildcard $(OWN_DIR)/slab-pages-start.txt))
OWN_FREE := $(if $(OWN_FILL),$(wildcard $(OWN_DIR)/slab-fill-start.txt))
OWN_AFTER := $(wildcard $(OWN_DIR)/slab-after.txt)
OWN_META := $(wildcard $(OWN_DIR)/meta)
# the CPU slabs' fill after (slab-fill after the after-snapshot)
OWN_FILL_AFTER := $(if $(OWN_AFTER),$(wildcard $(OWN_DIR)/slab-fill-after.txt))
INITIAL ?= $(OWN_BEFORE)
# meta's cpus_possible ("0-1", "0-3,6") as a count
OWN_CPUS := $(if $(OWN_META),$(shell sed -n 's/^cpus_possible=//p' $(call sh_quote,$(OWN_META)) | \
	awk -F, '{n = 0; for (i = 1; i <= NF; i++) { k = split($$i, a, "-"); n += k == 2 ? a[2] - a[1] + 1 : 1 } print n}'))

VARIANTS := trace
MODELS ?= traced kmalloc-buckets kmem_cache
TARGET ?= x86_64-6.x
RUN_SUMMARIES := $(foreach m,$(MODELS),$(REPORT)/runs/trace__$(m)/summary.csv)

# A slabsim trace is replayed as it is; anything else is imported once.
ifeq ($(OWN_KIND),slabsim)
OWN_SBT := $(OWN_TRACE)
else
OWN_SBT := $(DATA)/trace.sbt.zst
IMPORT_PARAMS := --target $(TARGET) $(if $(OWN_BEFORE),--snapshot $(OWN_BEFORE)) \
	$(if $(OWN_FILL),--slab-fill $(OWN_FILL)) \
	$(if $(OWN_WALK),--walk $(OWN_WALK)) \
	$(if $(OWN_PAGES),--slab-pages $(OWN_PAGES)) \
	$(if $(OWN_FREE),--free-objects $(OWN_FREE)) \
	$(if $(OWN_CPUS),--cpus $(OWN_CPUS)) $(IMPORT_FLAGS)
$(eval $(call param_stamp,$(DATA)/import-params,IMPORT_PARAMS))
$(OWN_SBT): $(OWN_INPUT) $(OWN_BEFORE) $(OWN_FILL) $(OWN_WALK) $(OWN_PAGES) $(OWN_FREE) $(DATA)/import-params $(SLABSIM)
	$(SLABSIM) import $(IMPORT_PARAMS) --totals $(DATA)/totals.csv -o $@ $(OWN_INPUT) > $(DATA)/import.txt
endif

# the fill goes with the capture's own before-snapshot only (INITIAL= may name another)
OWN_RUN_FILL := $(if $(and $(OWN_FILL),$(filter $(OWN_BEFORE),$(INITIAL))),$(OWN_FILL))
OWN_RUN_PARAMS := --target $(TARGET) $(if $(INITIAL),--initial-state $(INITIAL)) \
	$(if $(OWN_RUN_FILL),--slab-fill $(OWN_RUN_FILL)) \
	$(if $(and $(INITIAL),$(OWN_AFTER)),--final-state $(OWN_AFTER)) \
	$(if $(CPUS),--cpus $(CPUS)) $(if $(COSTS),--costs $(COSTS)) $(RUN_FLAGS)
$(eval $(call param_stamp,$(REPORT)/run-params,OWN_RUN_PARAMS))

define own_run_rule
$(REPORT)/runs/trace__$(1)/summary.csv: $(OWN_SBT) $(INITIAL) $(OWN_RUN_FILL) $(OWN_AFTER) $(SLABSIM) $(REPORT)/run-params
	$(SLABSIM) run --trace $$< --model $(1) --variant trace $(OWN_RUN_PARAMS) --out $$(@D)
endef
$(foreach m,$(MODELS),$(eval $(call own_run_rule,$(m))))

# report.md's section "the live kernel and the simulator"
REPORT_EXTRA_ARGS := $(if $(and $(INITIAL),$(OWN_AFTER)),--kernel-before $(INITIAL) --kernel-after $(OWN_AFTER) $(if $(OWN_META),--capture-meta $(OWN_META)) $(if $(OWN_FILL_AFTER),--kernel-fill-after $(OWN_FILL_AFTER)))
REPORT_EXTRA_DEPS := $(INITIAL) $(OWN_AFTER) $(OWN_META) $(OWN_FILL_AFTER)

.PHONY: runs sim
runs: $(RUN_SUMMARIES)

sim: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@$(MAKE) --no-print-directory -j2 runs
	@$(MAKE) --no-print-directory report SIM_GOAL=sim
	@echo "slabsim: $(REPORT)/report.md, summary.csv, waste.png, latency.png written"

endif
