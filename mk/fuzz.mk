# mk/fuzz.mk - fuzz targets and their regression replay (tests/fuzz/).
#
#   make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="trace_text rules"]
#       builds every tests/fuzz/fuzz_<target>.c with clang
#       -fsanitize=fuzzer,address,undefined and runs each for N seconds
#       (default 60); `make -j2 fuzz` runs two at once.  New corpus entries
#       go to $(BUILD)/fuzz/corpus/<target>, crashes to
#       $(BUILD)/fuzz/crashes/<target>/, logs to $(BUILD)/fuzz/<target>.log.
#       A crash fails the run; keep its input under
#       tests/fuzz/regressions/<target>/ once the bug is fixed, or under
#       tests/fuzz/regressions/<target>/open/ (replayed by nothing) until then.
#   make fuzz-replay
#       every regression input and seed through the plain (gcc) builds of
#       the harnesses, normal and ASan + UBSan.  `make test` runs the same
#       through tests/e2e/fuzz_regressions.sh.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_OUT := $(BUILD)/fuzz
FUZZ_ALL := $(patsubst tests/fuzz/fuzz_%.c,%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_TARGETS ?= $(FUZZ_ALL)
# util.c: what every harness shares; strict.c: the strict readers of the
# output formats (fuzz_roundtrip, and check_outputs for the e2e tests)
FUZZ_SUPPORT := tests/fuzz/util.c tests/fuzz/strict.c
# -Werror off for clang: a clang-only warning in someone's file must not
# stop a fuzz run (the gcc build keeps the tree warning-free).
FUZZ_CFLAGS := $(filter-out -Werror,$(CFLAGS)) $(INC_tests) -Itests/fuzz -O1 -g \
	-fno-omit-frame-pointer -fno-sanitize-recover=all
FUZZ_SAN := address,undefined
FUZZ_LIBOBJ := $(patsubst %.c,$(FUZZ_OUT)/obj/%.o,$(LIBSRC) $(FUZZ_SUPPORT))

# The plain replay programs, one per harness and build flavour.
FUZZ_REPLAY := $(patsubst %,$(BUILD)/tests/fuzz_%,$(FUZZ_ALL))
FUZZ_REPLAY_ASAN := $(patsubst %,$(BUILD)/asan/tests/fuzz_%,$(FUZZ_ALL))

# ---- libFuzzer builds -------------------------------------------------------
# clang and its libFuzzer runtime are needed here only, not by `make test`.
.PHONY: fuzz-deps
fuzz-deps:
	@scripts/deps.sh check fuzz >/dev/null 2>&1 || scripts/deps.sh install fuzz
	@command -v $(FUZZ_CC) >/dev/null && echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; return (int)n * 0; }' | \
	  $(FUZZ_CC) -x c -fsanitize=fuzzer -o /dev/null - 2>/dev/null || \
	  { echo "make fuzz: needs $(FUZZ_CC) with libFuzzer; as root: apt-get install -y clang libclang-rt-14-dev" >&2; exit 1; }
# (the sanitizer list holds a comma: a variable keeps it out of $(call))
FUZZ_OBJ_SAN := -fsanitize=fuzzer-no-link,$(FUZZ_SAN)
$(FUZZ_OUT)/obj/%.o: %.c | deps-auto fuzz-deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<)
	$(call compile_obj,$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_OBJ_SAN))
$(FUZZ_OUT)/libfuzzsim.a: $(FUZZ_LIBOBJ)
	@rm -f $@
	$(call say,AR,$@)
	ar rcs $@ $^
$(FUZZ_OUT)/fuzz_%: $(FUZZ_OUT)/obj/tests/fuzz/fuzz_%.o $(FUZZ_OUT)/libfuzzsim.a
	$(call say,LD,$@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer,$(FUZZ_SAN) -o $@ $^ $(LDLIBS)
-include $(shell find $(FUZZ_OUT)/obj -name '*.d' 2>/dev/null)

# One phony run per target, so `make -j2 fuzz` fuzzes two at a time.
# tests/fuzz/<target>.dict (a dictionary) and <target>.options (more
# libFuzzer flags) are used when present.
.PHONY: fuzz fuzz-build $(patsubst %,fuzz-run-%,$(FUZZ_ALL))
fuzz-build: $(patsubst %,$(FUZZ_OUT)/fuzz_%,$(FUZZ_TARGETS))
fuzz: $(patsubst %,fuzz-run-%,$(FUZZ_TARGETS))
	@echo "make fuzz: $(FUZZ_TARGETS): $(FUZZ_SECONDS) s each, no crash"
$(patsubst %,fuzz-run-%,$(FUZZ_ALL)): fuzz-run-%: $(FUZZ_OUT)/fuzz_%
	@mkdir -p $(FUZZ_OUT)/corpus/$* $(FUZZ_OUT)/crashes/$*
	@# fixed regressions seed the corpus; open/ (unfixed) would crash at once
	@find tests/fuzz/regressions/$* -maxdepth 1 -type f -exec cp {} $(FUZZ_OUT)/corpus/$*/ \; 2>/dev/null || true
	@echo "fuzz $*: $(FUZZ_SECONDS) s, log $(FUZZ_OUT)/$*.log"
	@UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  LSAN_OPTIONS=suppressions=$(abspath tests/fuzz/lsan.supp):print_suppressions=0 $< \
	  $(FUZZ_OUT)/corpus/$* tests/fuzz/corpus/$* \
	  -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
	  -max_len=65536 -print_final_stats=1 \
	  -artifact_prefix=$(FUZZ_OUT)/crashes/$*/ \
	  $(if $(wildcard tests/fuzz/$*.dict),-dict=tests/fuzz/$*.dict) \
	  $(shell cat tests/fuzz/$*.options 2>/dev/null) \
	  >$(FUZZ_OUT)/$*.log 2>&1 || \
	  { tail -60 $(FUZZ_OUT)/$*.log; echo "fuzz $*: CRASH, input in $(FUZZ_OUT)/crashes/$*/" >&2; exit 1; }
	@grep -E '^stat::(number_of_executed_units|peak_rss_mb)|^#[0-9]+.*DONE' $(FUZZ_OUT)/$*.log | tr '\n' ' '; echo
	@echo "fuzz $*: corpus $$(ls $(FUZZ_OUT)/corpus/$* | wc -l) files"

# ---- plain replay builds (gcc, through the flavour pattern rules) -----------
$(BUILD)/tests/fuzz_%: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/driver.o \
		$(BUILD)/obj/tests/fuzz/util.o $(BUILD)/obj/tests/fuzz/strict.o $(BUILD)/libslabsim.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/asan/tests/fuzz_%: $(BUILD)/asan/obj/tests/fuzz/fuzz_%.o \
		$(BUILD)/asan/obj/tests/fuzz/driver.o $(BUILD)/asan/obj/tests/fuzz/util.o \
		$(BUILD)/asan/obj/tests/fuzz/strict.o $(BUILD)/asan/libslabsim.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# check_outputs DIR|FILE...: the strict readers on result files, for the
# e2e tests (tests/e2e/bad_input.sh: escaped names, wrapped figures).
$(BUILD)/tests/check_outputs: $(BUILD)/obj/tests/fuzz/check_outputs.o \
		$(BUILD)/obj/tests/fuzz/strict.o $(BUILD)/libslabsim.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/asan/tests/check_outputs: $(BUILD)/asan/obj/tests/fuzz/check_outputs.o \
		$(BUILD)/asan/obj/tests/fuzz/strict.o $(BUILD)/asan/libslabsim.a
	@mkdir -p $(dir $@)
	$(call say,LD,$@)
	$(CC) $(CFLAGS) $(SAN_FLAGS) -o $@ $^ $(LDLIBS)

# make test: tests/e2e/fuzz_regressions.sh runs these next to $(SLABSIM).
e2e-bins: $(FUZZ_REPLAY) $(BUILD)/tests/check_outputs
asan-bins: $(FUZZ_REPLAY_ASAN) $(BUILD)/asan/tests/check_outputs

.PHONY: fuzz-replay
fuzz-replay: $(FUZZ_REPLAY) $(FUZZ_REPLAY_ASAN) $(SLABSIM) $(BUILD)/asan/slabsim
	@SLABSIM=$(abspath $(SLABSIM)) bash tests/e2e/fuzz_regressions.sh
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	  SLABSIM=$(abspath $(BUILD)/asan/slabsim) bash tests/e2e/fuzz_regressions.sh

# Harness objects are built through pattern chains: keep them between runs.
FUZZ_SRC := $(wildcard tests/fuzz/*.c)
.SECONDARY: $(foreach d,$(BUILD)/obj $(BUILD)/asan/obj $(FUZZ_OUT)/obj,$(patsubst %.c,$(d)/%.o,$(FUZZ_SRC)))
