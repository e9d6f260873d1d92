# slabsim - trace-driven simulator of Linux slab allocator models.
#
#   make sim WORKLOAD=smack17k   generate, replay every variant x model, plot, report
#                                (WORKLOAD=smack17k | audit | hackbench)
#   make sim TRACE=PATH          your own capture or trace (docs/own-trace.md); every
#                                setting (ALLOCATOR= CONFIG= TARGET= CPUS= ...) of a
#                                workload's runs or a capture's is a what-if (mk/whatif.inc)
#   make check-captures CAPTURES="DIR ..."  every capture there against the live kernel, one table
#   make test                    unit + end-to-end tests, then again under ASan+UBSan
#   make compare | sweep | index reports across models, allocators, parameters, workloads (mk/)
#   make sensitivity             every estimated cost at both ends of its range: intervals (mk/)
#   make advise                  the slab changes worth making for a trace (mk/advise.mk)
#   make help                    every target and variable; V=1 prints each command
#   make validate                check the geometry rules against this machine's /sys/kernel/slab
#   make bench | topo-plot | fuzz  replay speed, topology sizes, fuzzing (mk/)
#   make deps                    install the Debian packages (apt-get, as root)
#
# Workloads are declared in workloads/<name>/<name>.mk (variants, models,
# target); feature targets in mk/<feature>.mk.

SHELL := /bin/bash
# plain `make` builds the binary (build/slabsim)
.DEFAULT_GOAL := all
# One line per step ("  CC       base/parse.c", "  RUN      ..."): every
# recipe that does a step says it with $(call say,TAG,WHAT); V=1 prints
# each command in full instead (and no say lines).  Sub-makes inherit
# both through MAKEFLAGS.
V ?= 0
ifeq ($(V),1)
say :=
else
MAKEFLAGS += -s
say = @printf '  %-8s %s\n' $(call sh_quote,$(1)) $(call sh_quote,$(2))
endif
# A recipe that fails leaves no target behind for the next make to take
# for finished (a half-written report, an empty .o).
.DELETE_ON_ERROR:
CC ?= cc
BUILD ?= build
OPT ?= -O2
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS ?=
CFLAGS += -std=c11 $(WARN) -g -D_GNU_SOURCE
# hwloc (topologies, pinning), libpfm4 (counters), zstd (binary traces),
# cmark (the reports' Markdown as HTML).  Before `make deps` has run,
# pkg-config is absent: fall back to plain -l.
# libtracecmd and libtraceevent read trace-cmd's trace.dat (slabsim import).
PKG_LIBS := hwloc libzstd libcmark libtracecmd libtraceevent
CFLAGS += $(or $(shell pkg-config --cflags $(PKG_LIBS) 2>/dev/null),\
	-I/usr/include/trace-cmd -I/usr/include/tracefs -I/usr/include/traceevent)
LDLIBS := $(or $(shell pkg-config --libs $(PKG_LIBS) 2>/dev/null),-lhwloc -lzstd -lcmark \
	-ltracecmd -ltracefs -ltraceevent) -lpfm -lpthread -lm

# ---- layers -----------------------------------------------------------------
# Each layer sees only the headers of the layers below it (README.md, Layout):
# an include that points up does not compile.
#   0 base/   1 trace/ topology/   2 allocators/ (the allocator families in
#   allocators/slub/ and allocators/slab/, which only this layer, reconcile/
#   and the tests see)   2.5 reconcile/ (what makes
#   a real capture fit the model: initial state, prior objects, settling)
#   3 sim/ (host/, bench/, advise/)   4 analysis/, then workloads/ (a
#   workload's report section builds on analysis/)   5 cli/.   Tests and
#   fuzzers see every layer.
INC_base := -Ibase
INC_trace := $(INC_base) -Itrace
INC_topology := $(INC_base) -Itopology
INC_models := $(INC_base) -Itrace -Itopology -Iallocators
INC_allocators := $(INC_models) -Iallocators/slub -Iallocators/slab
INC_reconcile := $(INC_allocators) -Ireconcile
INC_sim := $(INC_models) -Ireconcile -Isim -Isim/host -Isim/bench -Isim/advise
INC_analysis := $(INC_base) -Ianalysis
INC_workloads := $(INC_sim) -Ianalysis -Iworkloads
INC_cli := $(INC_workloads) -Icli
INC_tests := $(INC_cli) -Iallocators/slub -Iallocators/slab
LAYERS := base trace topology allocators reconcile sim analysis workloads cli tests
# the layer of a source path: its first directory
layer_inc = $(INC_$(firstword $(subst /, ,$(1))))
# sim/ sees allocators/ for the model interface, which sits beside the
# cache model's own headers (an allocator family's folder is not on its
# include path): the engine naming the cache model is caught by a check
# instead (scripts/check-layers.sh), before the library is archived.
LAYER_CHECK = $(BUILD)/layers.ok
$(LAYER_CHECK): scripts/check-layers.sh $(wildcard sim/*.[ch] sim/*/*.[ch])
	@mkdir -p $(@D)
	@scripts/check-layers.sh . && touch $@

SRC := $(sort $(wildcard base/*.c trace/*.c topology/*.c allocators/*.c allocators/*/*.c \
	reconcile/*.c reconcile/*/*.c sim/*.c sim/*/*.c analysis/*.c workloads/*.c \
	workloads/*/*.c cli/*.c))
MAIN := cli/main.c
LIBSRC := $(filter-out $(MAIN),$(SRC))
# test_util.c is no test: it is linked into every one.
TEST_UTIL := tests/unit/test_util.c
TEST_SRC := $(filter-out $(TEST_UTIL),$(sort $(wildcard tests/unit/test_*.c)))

# ---- dependencies -----------------------------------------------------------
# `make sim` and `make test` install missing packages first (deps-auto).
DEPS_OK := $(shell scripts/deps.sh check >/dev/null 2>&1 && echo yes)
.PHONY: deps deps-auto
deps:
	@scripts/deps.sh install
deps-auto:
ifneq ($(DEPS_OK),yes)
	@scripts/deps.sh install
endif

# ---- build ------------------------------------------------------------------
# Compile $< into $@ with the compiler and flags $(1).  The object is
# written under a name unique to the recipe's shell and renamed once
# complete: a compile killed half-way (an interrupt, the OOM killer) would
# otherwise leave a truncated .o newer than its source, which every later
# link would fail on until `make clean`.  -MT/-MF name the target and the
# dependency file as if the object had been written directly.
compile_obj = $(1) -MMD -MP -MT $@ -MF $(@:.o=.d) -c $< -o $@.tmp.$$$$ && \
	mv -f $@.tmp.$$$$ $@ || { rm -f $@.tmp.$$$$; exit 1; }

# $(1) = build dir; its flags are FLAGS_$(1) (compile and link) and
# OPTFLAGS_$(1) (compile), named, not passed: a comma in them (the
# sanitizers' list) would split compile_obj's arguments.  One object tree
# per flavour.
define flavour
$(1)/obj/%.o: %.c | deps-auto
	@mkdir -p $$(dir $$@)
	$$(call say,CC,$$<)
	$$(call compile_obj,$$(CC) $$(CFLAGS) $$(call layer_inc,$$<) $$(FLAGS_$(1)) $$(OPTFLAGS_$(1)))
$(1)/libslabsim.a: $$(patsubst %.c,$(1)/obj/%.o,$$(LIBSRC)) | $(LAYER_CHECK)
	@rm -f $$@
	$$(call say,AR,$$@)
	ar rcs $$@ $$^
$(1)/slabsim: $(1)/obj/$$(MAIN:.c=.o) $(1)/libslabsim.a
	$$(call say,LD,$$@)
	$$(CC) $$(CFLAGS) $$(FLAGS_$(1)) -o $$@ $$^ $$(LDLIBS)
$(1)/tests/%: $(1)/obj/tests/unit/%.o $(1)/obj/$(TEST_UTIL:.c=.o) $(1)/libslabsim.a
	@mkdir -p $$(dir $$@)
	$$(call say,LD,$$@)
	$$(CC) $$(CFLAGS) $$(FLAGS_$(1)) -o $$@ $$^ -lcmocka $$(LDLIBS)
-include $$(shell find $(1)/obj -name '*.d' 2>/dev/null)
endef
# The block checksum's AVX2 build (trace/trace_hash.h): one file, chosen at
# run time only on a CPU that has AVX2.
ifeq ($(shell uname -m),x86_64)
$(BUILD)/obj/trace/trace_hash_avx2.o $(BUILD)/asan/obj/trace/trace_hash_avx2.o: CFLAGS += -mavx2
$(BUILD)/obj/trace/trace_hash.o $(BUILD)/asan/obj/trace/trace_hash.o: CFLAGS += -DSS_HAVE_AVX2_BUILD
endif
OPTFLAGS_$(BUILD) := $(OPT)
OPTFLAGS_$(BUILD)/asan := -O1
FLAGS_$(BUILD) :=
FLAGS_$(BUILD)/asan := $(SAN_FLAGS)
$(eval $(call flavour,$(BUILD)))
$(eval $(call flavour,$(BUILD)/asan))

SLABSIM := $(BUILD)/slabsim
UNIT_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(TEST_SRC))
ASAN_TESTS := $(patsubst tests/unit/%.c,$(BUILD)/asan/tests/%,$(TEST_SRC))

.PHONY: all
all: $(SLABSIM)

# ---- make help ----------------------------------------------------------------
# Every target and variable README.md names (tests/e2e/make_help.sh checks).
.PHONY: help
help:
	@printf '%s\n' \
	  'usage: make [TARGET] [VARIABLE=VALUE ...]' '' \
	  'targets:' \
	  '  all (default)     build build/slabsim' \
	  '  sim               generate (or import), replay every variant x model, plot, report:' \
	  '                    reports/W/ (WORKLOAD=) or reports/NAME/ (TRACE=)' \
	  '  report            report.md, summary.csv and plots from the runs there' \
	  '  compare           models side by side: reports/W/compare/; with ALLOCATORS= or' \
	  '                    CONFIGS=, allocators and kernel options: reports/W/kernels/compare/' \
	  '  sweep             one parameter swept: reports/W/sweep-PARAM/ (PARAM=, VALUES=, ENGINE=)' \
	  '  sensitivity       every estimated cost at both ends of its range: sensitivity.csv,' \
	  '                    tornado.png, and report.md gives each headline figure its interval' \
	  '  advise            the slab changes worth making for a trace, each priced by a replay' \
	  '                    (WORKLOAD= [VARIANT=] or TRACE=): docs/advise.md' \
	  '  index             reports/index.html and one HTML page per report' \
	  '  validate          the geometry rules against this machine'"'"'s /sys/kernel/slab' \
	  '  capture           record CMD'"'"'s kmem events and slab state (root; NAME=, CMD=): docs/capture.md' \
	  '  check-captures    every capture under CAPTURES= through make sim TRACE=, one table (DRAWS=)' \
	  '  lab               (root) a Debian kernel booted under QEMU, WORK= run in it, a capture' \
	  '                    brought back (KERNEL= ARCH= BOOT= CPUS= NAME=): docs/lab.md' \
	  '  lab-matrix        what-ifs predicted from one boot, measured on another: docs/lab-matrix.md' \
	  '  bench             replay speed and memory beside glibc malloc' \
	  '  topo-plot         footprint and p99 against topology size: reports/topology/' \
	  '  fuzz              the fuzz targets (clang libFuzzer; FUZZ_SECONDS=)' \
	  '  test              unit + end-to-end tests, then again under ASan + UBSan' \
	  '  unit, e2e         one of the two suites' \
	  '  test-slurm        ENGINE=slurm on a one-node Slurm cluster on localhost (root)' \
	  '  deps              install the Debian packages (as root)' \
	  '  clean             remove builds, outputs and generated traces' \
	  '  help              this text' '' \
	  'what to run:' \
	  '  WORKLOAD          $(filter-out import,$(WORKLOADS)) (default smack17k)' \
	  '  TRACE             your own capture or trace (make capture directory, ftrace, perf' \
	  '                    script, trace.dat or slabsim trace): docs/own-trace.md' \
	  '  NAME              TRACE=: the report'"'"'s name (default the capture'"'"'s); capture: the capture'"'"'s' \
	  '  MODELS VARIANTS   which runs (slabsim list models; kmem-cache = kmem_cache)' \
	  '' 'settings of every run, for WORKLOAD= and TRACE= alike (mk/whatif.inc):' \
	  '  TARGET            a file in allocators/targets/ (slabsim list targets); a capture'"'"'s' \
	  '                    default is its own kernel'"'"'s (slabsim pick-target)' \
	  '  ALLOCATOR         slub, slub-tiny or slab (the target'"'"'s era must have it)' \
	  '  CONFIG            kernel options, "CONFIG_X=y,..." (docs/strategies.md)' \
	  '  CPUS, TOPOLOGY    per-CPU and per-node state: N, or host, synth:"...", xml:FILE (MAP=)' \
	  '  COSTS             a cost table (allocators/costs/, slabsim costs)' \
	  '  SEED              the generator seed; for TRACE=, the draw of the initial state' \
	  '  INITIAL           TRACE=: the snapshot the caches start from (default slab-before.txt;' \
	  '                    empty: empty caches)' \
	  '  IMPORT_FLAGS      TRACE=: more slabsim import options (--drop-untraced)' \
	  '  and each workload'"'"'s own: RULES LABELS (smack17k), SYSCALLS AUDIT_RULES (audit),' \
	  '                    HB_GROUPS HB_LOOPS (hackbench): docs/workloads/W.md' '' \
	  'other targets'"'"' variables:' \
	  '  ALLOCATORS        compare: "slub slab slub-tiny", every model under each' \
	  '  CONFIGS           compare: lists of kernel options, each a column' \
	  '  PARAM VALUES      sweep: the parameter (rules, cpus, seed, ...) and its values' \
	  '  ENGINE            sweep: make (default), parallel [SSHLOGINFILE=F] or slurm' \
	  '  VARIANT           advise: the variant whose trace is advised (default the first)' \
	  '  CMD               capture: the command to record (with NAME=)' \
	  '  CAPTURES DRAWS    check-captures: capture directories; draws of each initial state' \
	  '  KERNEL ARCH BOOT  lab: 6.1, 6.12 or 7.2; x86_64 or arm32; the kernel command line' \
	  '  WORK              lab: a workload of lab/work/ or a shell snippet run in the guest' \
	  '  FUZZ_SECONDS      fuzz: seconds per target' \
	  '  REPORT DATA       where this make'"'"'s report and traces go (default: below)' \
	  '  REPORTS DATASETS  the roots of reports/ and datasets/' \
	  '  V=1               print every command in full (default: one line per step)' '' \
	  'A setting given with a value other than the default is a what-if: its results' \
	  'go to reports/W--name-value/ (and datasets/W--name-value/ when the traces' \
	  'differ), never over the default ones; a setting the workload does not read is' \
	  'refused.  The binary: build/slabsim --help.'

# ---- tests ------------------------------------------------------------------
# `make test`: the plain and the ASan + UBSan builds in one parallel make,
# then the four suites in one pool of TEST_JOBS tests at a time (default:
# the -j given to make, else the CPUs), each test's output kept and
# printed in order (scripts/run-tests.sh).  A test that cannot run here
# says SKIP (exit 77); under CI=true one that skips for want of root,
# tracefs or a package `make deps` installs fails (tests/e2e/lib/common.bash).
MAKE_J := $(patsubst -j%,%,$(filter -j%,$(MAKEFLAGS)))
TEST_JOBS ?= $(or $(MAKE_J),$(shell nproc 2>/dev/null || echo 2))
E2E_SCRIPTS := $(sort $(wildcard tests/e2e/*.sh))
# The tests that capture this machine's kernel (make capture, as root)
# run one at a time (run-tests.sh -x): a capture mounts tracefs and
# unmounts it at its end.  The sanitizer pass (SLABSIM_QUICK: the tests
# leave out what only make and gnuplot do) runs every e2e test but these:
# what they replay is whatever the machine did meanwhile (ten minutes
# under ASan on a busy machine); there the import and replay of a real
# capture run on the captures checked in under tests/data.
E2E_LIVE := capture.sh own_trace.sh
# ... nor these, whose C code the others already run under the sanitizers:
# a capture interrupted and the slab-fill server (shell and BPF around an
# import captures_replay.sh makes), the jobs interrupted (make's and the
# shell's; bad_output.sh interrupts slabsim itself under them)
E2E_ASAN_OUT := $(E2E_LIVE) capture_interrupt.sh capture_slabfill.sh interrupt_jobs.sh
E2E_ASAN_SCRIPTS := $(filter-out $(addprefix tests/e2e/,$(E2E_ASAN_OUT)),$(E2E_SCRIPTS))
SAN_ENV := ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0
# each suite for run-tests.sh: its name, its environment, its tests
SUITE_UNIT = unit $(UNIT_TESTS)
SUITE_E2E = e2e SLABSIM=$(abspath $(SLABSIM)) $(E2E_SCRIPTS)
SUITE_UNIT_ASAN = unit-asan $(SAN_ENV) $(ASAN_TESTS)
SUITE_E2E_ASAN = e2e-asan $(SAN_ENV) SLABSIM=$(abspath $(BUILD)/asan/slabsim) SLABSIM_QUICK=1 \
	$(E2E_ASAN_SCRIPTS)
RUN_TESTS = scripts/run-tests.sh -j $(TEST_JOBS) -x '$(E2E_LIVE)'

# What each suite runs (mk/fuzz.mk adds the fuzz harnesses' replay builds).
.PHONY: unit-bins e2e-bins asan-bins
unit-bins: $(UNIT_TESTS)
# (build/slab-fill: capture.sh and own_trace.sh each run make capture,
# which needs it; built here, not by two of them at once)
e2e-bins: $(SLABSIM) $(BUILD)/slab-fill
asan-bins: $(ASAN_TESTS) $(BUILD)/asan/slabsim

.PHONY: test unit e2e asan-test
test: deps-auto
	@$(MAKE) --no-print-directory $(if $(MAKE_J)$(filter -j,$(MAKEFLAGS)),,-j$(TEST_JOBS)) \
	  unit-bins e2e-bins asan-bins
	@$(RUN_TESTS) $(SUITE_UNIT) --- $(SUITE_E2E) --- $(SUITE_UNIT_ASAN) --- $(SUITE_E2E_ASAN)
	@echo "make test: all suites passed"

unit: unit-bins
	@$(RUN_TESTS) $(SUITE_UNIT)

e2e: e2e-bins
	@$(RUN_TESTS) $(SUITE_E2E)

# Opt-in: ENGINE=slurm on a one-node Slurm cluster the test starts on
# localhost (root, Debian slurm-wlm; docs/distributed.md).
.PHONY: test-slurm
test-slurm: $(SLABSIM)
	@scripts/deps.sh check slurm >/dev/null 2>&1 || scripts/deps.sh install slurm
	@SLABSIM=$(abspath $(SLABSIM)) bash tests/slurm/test-slurm.sh

asan-test: asan-bins
	@$(RUN_TESTS) $(SUITE_UNIT_ASAN) --- $(SUITE_E2E_ASAN)

# What the workloads' and the features' fragments share: the one gnuplot
# rule, shell quoting and parameter stamps, estimated constants.
include mk/plot.inc
include mk/stamp.inc
include mk/estimates.inc

# ---- workloads --------------------------------------------------------------
WORKLOAD ?= smack17k
REPORTS ?= reports
DATASETS ?= datasets
# `make sim TRACE=PATH [NAME=N]`: a trace or capture of your own is the
# workload `import` (workloads/import/import.mk, docs/own-trace.md);
# capture.inc reads what PATH holds, names the report NAME and picks the
# capture's own target before the what-ifs are worked out.
ifneq ($(strip $(TRACE)),)
override WORKLOAD := import
include workloads/import/capture.inc
endif
SEED ?= 1
# How a command shown in a report names its workload; import.mk says
# TRACE=... instead (it is among the command-line variables).
WORKLOAD_ARG = WORKLOAD=$(WORKLOAD)
# A workload is a folder workloads/W/ holding its make fragment W.mk.
WORKLOADS := $(foreach f,$(wildcard workloads/*/*.mk),$(if $(filter $(notdir $(f)),$(notdir $(patsubst %/,%,$(dir $(f)))).mk),$(notdir $(patsubst %/,%,$(dir $(f))))))
# Model names as the registry spells them (allocators/registry.c, where
# '-' and '_' are one letter: kmem-cache is kmem_cache): run directories
# are named by them, so MODELS from the command line takes that spelling
# before anything reads it (slabsim itself does the same: ss_model_canon).
SS_MODEL_NAMES := $(shell sed -n 's/^\t{"\([a-z_-]*\)", "[^"]*",$$/\1/p' allocators/registry.c)
ss_model_base = $(or $(firstword $(foreach n,$(SS_MODEL_NAMES),$(if $(filter $(subst _,-,$(n)),$(subst _,-,$(1))),$(n)))),$(1))
ss_models_canon = $(foreach w,$(1),$(call ss_model_base,$(firstword $(subst +, ,$(w))))$(if $(findstring +,$(w)),+$(patsubst $(firstword $(subst +, ,$(w)))+%,%,$(w))))
ifeq ($(origin MODELS),command line)
ifneq ($(call ss_models_canon,$(MODELS)),$(strip $(MODELS)))
override MODELS := $(call ss_models_canon,$(MODELS))
endif
endif
# Every setting of a run, for workloads and captures alike, and what-ifs
# (a setting other than the default) in directories of their own,
# reports/W--name-value (mk/whatif.inc); REPORT=DIR and DATA=DIR on the
# command line put them anywhere.
ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
include mk/whatif.inc
endif
DATA := $(DATASETS)/$(WHATIF_DATA_NAME)$(WHATIF_DATA_SUFFIX)
REPORT := $(REPORTS)/$(WHATIF_NAME)$(WHATIF_SUFFIX)
# A what-if that fails leaves none of its own directories this make
# would create (a workload's `sim` ends its steps with WHATIF_UNDO).
WHATIF_NEW := $(foreach d,$(if $(WHATIF_SUFFIX),$(if $(filter command line,$(origin REPORT)),,$(REPORT))) \
	$(if $(WHATIF_DATA_SUFFIX),$(if $(filter command line,$(origin DATA)),,$(DATA))),$(if $(wildcard $(d)),,$(d)))
WHATIF_UNDO := $(if $(strip $(WHATIF_NEW)),|| { rm -rf $(WHATIF_NEW); echo "make: the what-if failed; removed $(strip $(WHATIF_NEW))" >&2; exit 1; })
# Loaded into gnuplot before each of the report's plot scripts: the title
# names the workload, target, kernel era and CPUs (slabsim report writes
# title.gp beside report.md).
REPORT_TITLE = load '$(REPORT)/title.gp'
ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
include workloads/$(WORKLOAD)/$(WORKLOAD).mk
include mk/report.inc
else
.PHONY: sim
sim:
	@echo "make: unknown WORKLOAD '$(WORKLOAD)'; known: $(WORKLOADS)" >&2; exit 2
endif

# Feature fragments (bench, fuzz, compare, ...): one file each in mk/.
include $(sort $(wildcard mk/*.mk))

.PHONY: validate
validate: $(SLABSIM)
	$(SLABSIM) validate

# Everything make and slabsim made: the build, the reports, each
# workload's generated inputs (text and binary traces, rule files, the
# parameter stamps), and what a killed process left (*.tmp.PID files and
# staging directories, make's own temporary objects included).  The
# topologies under datasets/topologies/ are sources.
.PHONY: clean
clean:
	rm -rf $(BUILD) reports
	rm -f datasets/*/*.trace datasets/*/*.sbt datasets/*/*.zst \
	  datasets/*/rules.txt datasets/*/*-params datasets/*/params
	find . -path ./.git -prune -o -name '*.tmp.*' -prune -exec rm -rf {} +
