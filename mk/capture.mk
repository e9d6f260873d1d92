# mk/capture.mk - `make capture`: record the kernel's kmem tracepoints and
# the slab state around a command of yours, for `slabsim import`
# (docs/capture.md).  Root only.
#
#   make capture NAME=N CMD='...' [CAPTURE_DIR=datasets/captures]
#                [BUFFER_KB=auto] [SETTLE=10] [TRACE_CLOCK=local]
#                [RAW_PTR=0|1] [PAGE_FREES=0] [FORCE=1]
#
# Writes CAPTURE_DIR/N/: capture.ftrace.zst, slab-before.txt,
# slab-after.txt, slabinfo-before, slabinfo-after, meta.  CMD runs under
# `slabsim reap -- bash -c` in this directory (the processes it orphans
# are reaped there, traced, not by init); it may mark phases of its own with
#   echo 'slabsim-phase NAME' > /sys/kernel/tracing/trace_marker
# A lossy capture (ring buffer overrun) is kept, marked lossy=yes in meta,
# and a warning is printed: raise BUFFER_KB.  The files, the trace too,
# are written to a tmpfs first (/dev/shm, or SLABSIM_STAGE in the
# environment), so that their page cache is in no count (docs/capture.md).
# The capture's own events in the window are counted in meta
# (tool_events, tool_pids); Ctrl-C or SIGTERM leaves tracing, BPF and
# the disk as they were.

CAPTURE_DIR ?= datasets/captures
# auto: 1/32 of MemAvailable over the online CPUs, 64 MiB .. 1 GiB per CPU
BUFFER_KB ?= auto
SETTLE ?= 10
TRACE_CLOCK ?= local
# Raw kernel addresses by default where the kernel can print them (the
# hash-ptr trace option): they name each object's slab, which the replay
# needs to empty the slabs the kernel emptied (find after drop_caches: 10
# of 12 caches within with them, 5 of 14 hashed; docs/own-trace.md).  The
# capture is then readable by root only.  RAW_PTR=1 requires them,
# RAW_PTR=0 keeps pointers hashed.  PAGE_FREES=0 leaves kmem:mm_page_free
# off (on by default with raw pointers: the kernel slabs that died).
# A make value as one single-quoted shell word.
cap_sq = '$(subst ','\'',$(1))'

# CMD reaches the script through the environment: a command of several
# lines would not survive the recipe line, and $(value ...) keeps its
# $VARS and $(...) for bash instead of expanding them in make.
capture: export SLABSIM_CAPTURE_CMD = $(value CMD)

.PHONY: capture
# $(SLABSIM) for `slabsim reap`: CMD's orphans reaped, traced, by it.
# exec: the script is make's own child, so that a SIGTERM make passes on
# reaches it (and its clean-up), not a shell that would die alone.
capture: $(SLABSIM)
	@exec scripts/capture.sh -d $(call cap_sq,$(CAPTURE_DIR)) -b $(call cap_sq,$(BUFFER_KB)) \
		-s $(call cap_sq,$(SETTLE)) -c $(call cap_sq,$(TRACE_CLOCK)) \
		$(if $(filter 1,$(RAW_PTR)),-r,$(if $(filter 0,$(RAW_PTR)),,-R)) $(if $(filter 1,$(FORCE)),-f) \
		$(if $(filter 0,$(PAGE_FREES)),-P) -x $(call cap_sq,$(abspath $(SLABSIM))) \
		-- $(call cap_sq,$(NAME)) "$$SLABSIM_CAPTURE_CMD"
