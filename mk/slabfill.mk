# mk/slabfill.mk - build/slab-fill, the capture's reader of every SLUB
# cache's node partial and CPU slabs (capture/slabfill.c, docs/capture.md): a BPF
# kmem_cache iterator compiled with clang (-target bpf, CO-RE against the
# running kernel's BTF), linked into a small libbpf program as bytes, with
# the slab page frames' reader of base/ (slabpages.c) for its --serve mode.
# Not part of build/slabsim: only `make capture` needs it, as root.

SLAB_FILL := $(BUILD)/slab-fill
# <asm/types.h> for <linux/bpf.h> under -target bpf: the host's multiarch dir
BPF_INC := $(firstword $(wildcard /usr/include/$(shell $(CC) -dumpmachine 2>/dev/null)))

$(BUILD)/slabfill.bpf.o: capture/slabfill.bpf.c capture/slabfill_rec.h
	@mkdir -p $(@D)
	$(call say,CLANG,$@)
	clang -target bpf -O2 -g -Wall -Werror $(if $(BPF_INC),-I$(BPF_INC)) -c $< -o $@

SLAB_FILL_BASE := base/error.c base/atomic_file.c base/slabpages.c
$(SLAB_FILL): capture/slabfill.c capture/slabfill_obj.S capture/slabfill_rec.h $(BUILD)/slabfill.bpf.o \
		$(SLAB_FILL_BASE) $(SLAB_FILL_BASE:.c=.h)
	$(call say,CC,$@)
	$(CC) -std=c11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -pthread -Ibase \
		-DSLABFILL_BPF_OBJ='"$(abspath $(BUILD)/slabfill.bpf.o)"' \
		-o $@ capture/slabfill.c capture/slabfill_obj.S $(SLAB_FILL_BASE) \
		$(shell pkg-config --libs libbpf 2>/dev/null || echo -lbpf)

# (here: SLAB_FILL is set by the time these prerequisites are read)
all capture: $(SLAB_FILL)
