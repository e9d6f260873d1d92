# mk/bench.mk - `make bench`: replay throughput and memory (docs/bench.md).
#
#   make bench [BENCH_TARGET=T] [BENCH_MODELS="traced kmem_cache"] [BENCH_REPEAT=R]
#
# Generates hackbench traces (`slabsim gen hackbench`, binary .sbt) of three
# lengths -- the seed's -g 20 -l 1000 (32 M events), ~10 M and ~100 M events
# of the same shape -- and times every model beside glibc malloc/free
# replaying the same events (`slabsim bench`).  Writes and prints
# reports/bench/bench.csv, then checks the two acceptance figures: traced vs
# glibc on the hackbench trace (>= 3x) and peak RSS of the 100 M-event
# replay vs the 10 M one (<= 2x); then instructions per event under
# callgrind on the 1.29 M-event `-g 20 -l 40` trace (scripts/bench-
# instructions.sh: reports/bench/instructions.csv); then a 16-run pass
# over the hackbench trace with one worker and with two (scripts/bench-
# scaling.sh: reports/bench/scaling.csv, want >= 1.8x).
#
#   make bench-jobs
#
# Times the jobs that replay a trace many times, each with its command:
# make sensitivity WORKLOAD=hackbench, make compare across three
# allocators, slabsim advise on smack17k (scripts/bench-jobs.sh:
# reports/bench/jobs.csv).

BENCH_DIR := reports/bench
# the generated traces (~800 MB) live in the build tree: make clean removes them
BENCH_DATA := $(BUILD)/bench
BENCH_TARGET ?= x86_64-4.6
BENCH_REPEAT ?= 3
# empty: every registered model (and the read-only floor)
BENCH_MODELS ?=
# -l loops: each adds 20 x 20 x 20 messages of 2 allocs and 2 frees (32,000 events)
BENCH_TRACES := hackbench:1000 hackbench-10M:312 hackbench-100M:3125
bench_name = $(word 1,$(subst :, ,$(1)))
bench_loops = $(word 2,$(subst :, ,$(1)))

$(BENCH_DATA)/hackbench-l%.sbt: $(SLABSIM)
	@mkdir -p $(@D)
	$(call say,GEN,$@)
	$(SLABSIM) gen hackbench -g 20 -l $* -o $@

BENCH_FILES := $(foreach t,$(BENCH_TRACES),$(BENCH_DATA)/hackbench-l$(call bench_loops,$(t)).sbt)

.PHONY: bench bench-clean
bench: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM) $(BENCH_FILES)
	@mkdir -p $(BENCH_DIR)
	$(call say,BENCH,$(BENCH_DIR)/bench.csv)
	$(SLABSIM) bench --target $(BENCH_TARGET) --repeat $(BENCH_REPEAT) \
		$(if $(strip $(BENCH_MODELS)),--models '$(strip $(BENCH_MODELS))') --csv $(BENCH_DIR)/bench.csv \
		$(foreach t,$(BENCH_TRACES),$(call bench_name,$(t))=$(BENCH_DATA)/hackbench-l$(call bench_loops,$(t)).sbt)
	@scripts/bench-check.sh $(BENCH_DIR)/bench.csv || echo "make bench: an acceptance figure missed on this machine (docs/bench.md)"
	@echo "load average: $$(cut -d' ' -f1-3 /proc/loadavg) on $$(nproc) CPUs (other work slows the replays unevenly)"
	@$(MAKE) --no-print-directory $(BENCH_DATA)/hackbench-l40.sbt
	@scripts/bench-instructions.sh $(SLABSIM) $(BENCH_DATA)/hackbench-l40.sbt $(BENCH_DIR)/instructions.csv || \
		echo "make bench: an instruction-count goal missed (docs/bench.md)"
	@scripts/bench-scaling.sh $(SLABSIM) $(BENCH_DATA)/hackbench-l1000.sbt $(BENCH_DIR)/scaling.csv || \
		echo "make bench: the 16-run pass did not scale to two workers here (docs/bench.md)"

.PHONY: bench-jobs
bench-jobs: deps-auto
	@$(MAKE) --no-print-directory $(SLABSIM)
	@mkdir -p $(BENCH_DIR)
	scripts/bench-jobs.sh $(BENCH_DIR)/jobs.csv

bench-clean:
	rm -rf $(BENCH_DATA) $(BENCH_DIR)
