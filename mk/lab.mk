# mk/lab.mk - the kernel lab: Debian's kernels booted under QEMU, a workload
# run in the guest, and a capture in make capture's format brought back
# (docs/lab.md).  Root.
#
#   make lab NAME=N WORK=NAME|'shell snippet' [KERNEL=6.1|6.12|7.2]
#            [ARCH=x86_64|arm32] [BOOT='slub_debug=P ...'] [CPUS=1] [MEM=1024M]
#            [CAPTURE_DIR=datasets/captures] [TIMEOUT=900] [BUFFER_KB=65536]
#            [SETTLE=10] [MEMCG=1] [LAB_IN=DIR] [FORCE=1]
#   make lab-fetch [KERNEL=...] [ARCH=...]   the kernel only (kept in datasets/lab/)
#   make lab-deps                            QEMU and the fetch tools (apt-get)
#   make test-lab                            the lab's longer tests (opt-in)
#   make lab-kernel                          a 6.1 kernel with SMACK (opt-in, long)
#   make lab-smack                           the SMACK seed's rules loaded in it
#   make lab-matrix                          what-ifs predicted, then booted (docs/lab.md)
#
# The capture is read by `make sim TRACE=CAPTURE_DIR/N`.  LAB_DATA (default
# datasets/lab) holds the kernels, the guest userland and the private apt
# lists.

LAB_KERNEL = $(or $(KERNEL),6.1)
LAB_ARCH = $(or $(ARCH),x86_64)
lab_sq = '$(subst ','\'',$(1))'

.PHONY: lab lab-deps lab-fetch test-lab
lab-deps:
	@scripts/deps.sh check lab >/dev/null 2>&1 || scripts/deps.sh install lab

# WORK reaches the script through the environment: a snippet of several
# lines would not survive the recipe line, and $(value ...) keeps its
# $VARS for the guest's shell.
lab: export SLABSIM_LAB_WORK = $(value WORK)
lab: lab-deps
	@lab/run.sh -n $(call lab_sq,$(NAME)) -w "$$SLABSIM_LAB_WORK" \
		-k $(call lab_sq,$(LAB_KERNEL)) -a $(call lab_sq,$(LAB_ARCH)) \
		-b $(call lab_sq,$(BOOT)) -c $(call lab_sq,$(or $(CPUS),1)) -m $(call lab_sq,$(or $(MEM),1024M)) \
		-d $(call lab_sq,$(or $(CAPTURE_DIR),datasets/captures)) -t $(call lab_sq,$(or $(TIMEOUT),900)) \
		-B $(call lab_sq,$(or $(BUFFER_KB),65536)) -s $(call lab_sq,$(or $(SETTLE),10)) \
		$(if $(LAB_IN),-i $(call lab_sq,$(LAB_IN))) $(if $(filter 1,$(MEMCG)),-g) $(if $(filter 1,$(FORCE)),-f)

lab-fetch: lab-deps
	@lab/fetch-kernel.sh $(call lab_sq,$(LAB_KERNEL)) $(call lab_sq,$(LAB_ARCH))

test-lab: $(SLABSIM) lab-deps
	@SLABSIM=$(abspath $(SLABSIM)) scripts/run-tests.sh lab $(sort $(wildcard tests/lab/*.sh))

# make lab-matrix: each workload of MATRIX_WORKS booted as configuration A
# (twice) and as every cell's B of lab/matrix/cells.conf, then every B
# predicted from A's capture and compared (docs/lab.md).  Hours under TCG.
MATRIX_WORKS ?= files procs netns
MATRIX_DIR ?= datasets/lab/matrix
.PHONY: lab-matrix
lab-matrix: $(SLABSIM) lab-deps
	@mkdir -p $(MATRIX_DIR)
	@lab/matrix/boots.sh $(MATRIX_DIR)/caps $(MATRIX_WORKS) || echo "lab-matrix: some boots failed (above); their cells say so" >&2
	@lab/matrix/predict.sh $(MATRIX_DIR)/caps $(MATRIX_DIR) $(MATRIX_WORKS)

# make lab-kernel: a small x86_64 6.1 kernel with SMACK and tracing, built
# from Debian's linux-source-6.1 with lab/kernel/smack.config (docs/lab.md);
# once, opt-in, never in make test.  Then: make lab KERNEL=6.1-smack ...
.PHONY: lab-kernel
lab-kernel: lab-deps
	@scripts/deps.sh check lab-kernel >/dev/null 2>&1 || scripts/deps.sh install lab-kernel
	@nice lab/build-kernel.sh lab/kernel/smack.config 6.1-smack

# make lab-smack: the SMACK seed's rules (slabsim gen smack17k, RULES= LABELS=
# SEED= as make sim WORKLOAD=smack17k) loaded through smackfs load2 in the
# make lab-kernel kernel; the capture is LAB_SMACK_NAME (docs/lab.md).
LAB_SMACK_IN := datasets/lab/smack-in
LAB_SMACK_NAME ?= smack17k-lab
.PHONY: lab-smack
lab-smack: $(SLABSIM) lab-deps
	@mkdir -p $(LAB_SMACK_IN)
	@$(SLABSIM) gen smack17k --rules $(or $(RULES),17000) --labels $(or $(LABELS),500) --seed $(SEED) \
		--write-rules $(LAB_SMACK_IN)/rules.txt
	@lab/run.sh -n $(call lab_sq,$(LAB_SMACK_NAME)) -w smack17k -k 6.1-smack -i $(LAB_SMACK_IN) \
		-d $(call lab_sq,$(or $(CAPTURE_DIR),datasets/captures)) -c $(call lab_sq,$(or $(CPUS),1)) \
		-t $(call lab_sq,$(or $(TIMEOUT),1800)) $(if $(filter 1,$(FORCE)),-f)
