# slabsim - trace-driven simulator of Linux slab allocator models.
#
#   make sim WORKLOAD=smack17k   generate, replay every variant x model, plot, report
#                                (WORKLOAD=smack17k | audit | hackbench)
#   make sim TRACE=PATH          your own capture or trace (docs/own-trace.md)
#   make check-captures CAPTURES="DIR ..."  every capture there against the live kernel, one table
#   make test                    unit + end-to-end tests, then again under ASan+UBSan
#   make compare | sweep | index reports across models, parameters, workloads (mk/)
#   make sensitivity             every estimated cost at both ends of its range: intervals (mk/)
#   make validate                check the geometry rules against this machine's /sys/kernel/slab
#   make bench | topo-plot | fuzz  replay speed, topology sizes, fuzzing (mk/)
#   make deps                    install the Debian packages (apt-get, as root)
#
# Workloads are declared in workloads/<name>/<name>.mk (variants, models,
# target); feature targets in mk/<feature>.mk.

SHELL := /bin/bash
# plain `make` builds the binary (build/slabsim)
.DEFAULT_GOAL := all
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
#   0 base/   1 trace/ topology/   2 allocators/   3 sim/ (host/, bench/, advise/)
#   4 analysis/, then workloads/ (a workload's report section builds on
#   analysis/)   5 cli/.   Tests and fuzzers see every layer.
INC_base := -Ibase
INC_trace := $(INC_base) -Itrace
INC_topology := $(INC_base) -Itopology
INC_allocators := $(INC_base) -Itrace -Itopology -Iallocators
INC_sim := $(INC_allocators) -Isim -Isim/host -Isim/bench -Isim/advise
INC_analysis := $(INC_base) -Ianalysis
INC_workloads := $(INC_sim) -Ianalysis -Iworkloads
INC_cli := $(INC_workloads) -Icli
INC_tests := $(INC_cli)
LAYERS := base trace topology allocators sim analysis workloads cli tests
# the layer of a source path: its first directory
layer_inc = $(INC_$(firstword $(subst /, ,$(1))))

SRC := $(sort $(wildcard base/*.c trace/*.c topology/*.c allocators/*.c sim/*.c \
	sim/*/*.c analysis/*.c workloads/*.c workloads/*/*.c cli/*.c))
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
	$$(call compile_obj,$$(CC) $$(CFLAGS) $$(call layer_inc,$$<) $$(FLAGS_$(1)) $$(OPTFLAGS_$(1)))
$(1)/libslabsim.a: $$(patsubst %.c,$(1)/obj/%.o,$$(LIBSRC))
	@rm -f $$@
	ar rcs $$@ $$^
$(1)/slabsim: $(1)/obj/$$(MAIN:.c=.o) $(1)/libslabsim.a
	$$(CC) $$(CFLAGS) $$(FLAGS_$(1)) -o $$@ $$^ $$(LDLIBS)
$(1)/tests/%: $(1)/obj/tests/unit/%.o $(1)/obj/$(TEST_UTIL:.c=.o) $(1)/libslabsim.a
	@mkdir -p $$(dir $$@)
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
.PHONY: help
help:
	@printf '%s\n' \
	  'usage: make [TARGET] [VARIABLE=VALUE ...]' '' \
	  'targets:' \
	  '  all (default)     build build/slabsim' \
	  '  sim               generate, replay every variant x model, plot, report: reports/W/' \
	  '  report            report.md, summary.csv and plots from the runs there' \
	  '  compare           models side by side: reports/W/compare/' \
	  '  sweep             one parameter swept: reports/W/sweep-PARAM/ (PARAM=, VALUES=)' \
	  '  index             reports/index.html and one HTML page per report' \
	  '  validate          the geometry rules against this machine'"'"'s /sys/kernel/slab' \
	  '  capture           record CMD'"'"'s kmem events and slab state (root; NAME=, CMD=): docs/capture.md' \
	  '  check-captures    every capture under CAPTURES= through make sim TRACE=, one table' \
	  '  bench             replay speed and memory beside glibc malloc' \
	  '  topo-plot         footprint and p99 against topology size: reports/topology/' \
	  '  fuzz              the fuzz targets (clang libFuzzer; FUZZ_SECONDS=)' \
	  '  test              unit + end-to-end tests, then again under ASan + UBSan' \
	  '  unit, e2e         one of the two suites' \
	  '  deps              install the Debian packages (as root)' \
	  '  clean             remove builds and outputs' '' \
	  'variables:' \
	  '  WORKLOAD          $(WORKLOADS) (default smack17k)' \
	  '  MODELS VARIANTS   which runs (slabsim list models)' \
	  '  TARGET            a file in allocators/targets/ (slabsim list targets)' \
	  '  CPUS, TOPOLOGY    per-CPU and per-node state: N, or host, synth:"...", xml:FILE (MAP=)' \
	  '  COSTS SEED        a cost table; the generator seed' \
	  '  REPORT DATA       where outputs and traces go (default: below)' '' \
	  'A parameter given with a value other than the workload'"'"'s default is a what-if:' \
	  'its results go to reports/W--name-value/ (and datasets/W--name-value/ when the' \
	  'traces differ), never over the default ones (mk/whatif.inc).  Each workload'"'"'s' \
	  'own parameters: docs/workloads/W.md.  The binary: build/slabsim --help.'

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
E2E_ASAN_SCRIPTS := $(filter-out $(addprefix tests/e2e/,$(E2E_LIVE)),$(E2E_SCRIPTS))
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
SEED ?= 1
# `make sim TRACE=PATH [NAME=N]`: a trace or capture of your own is the
# workload `import` (workloads/import/import.mk, docs/own-trace.md).
ifneq ($(strip $(TRACE)),)
override WORKLOAD := import
endif
# How a command shown in a report names its workload; import.mk says
# TRACE=... instead (it is among the command-line variables).
WORKLOAD_ARG = WORKLOAD=$(WORKLOAD)
# A workload is a folder workloads/W/ holding its make fragment W.mk.
WORKLOADS := $(foreach f,$(wildcard workloads/*/*.mk),$(if $(filter $(notdir $(f)),$(notdir $(patsubst %/,%,$(dir $(f)))).mk),$(notdir $(patsubst %/,%,$(dir $(f))))))
# What-ifs (a parameter other than the workload's default) go to their
# own directories, reports/W--name=value (mk/whatif.inc); REPORT=DIR and
# DATA=DIR on the command line put them anywhere.
REPORTS ?= reports
DATASETS ?= datasets
ifneq ($(filter $(WORKLOAD),$(WORKLOADS)),)
include mk/whatif.inc
endif
DATA := $(DATASETS)/$(WORKLOAD)$(WHATIF_DATA_SUFFIX)
REPORT := $(REPORTS)/$(WORKLOAD)$(WHATIF_SUFFIX)
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
