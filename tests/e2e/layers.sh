#!/bin/bash
# layers.sh - the engine names no model (scripts/check-layers.sh, which
# the build runs): the tree passes, and a sim/ file that includes a
# model's own header, another reconcile/ header than the interface, or
# names a model's type is each caught, naming file and line.
. "$(dirname "$0")/lib/common.bash"
"$root/scripts/check-layers.sh" "$root" || fail "the tree breaks the layers"
mkdir -p "$tmp/t/allocators/slub" "$tmp/t/reconcile" "$tmp/t/sim/host"
touch "$tmp/t/allocators/model.h" "$tmp/t/allocators/slub/slub_cache.h" "$tmp/t/allocators/cache_model_fast.h" \
	"$tmp/t/reconcile/recon.h" "$tmp/t/reconcile/slab_prior.h"
printf '#include "model.h"\n#include "recon.h"\nint ok;\n' > "$tmp/t/sim/ok.c"
expect_rc 0 "$root/scripts/check-layers.sh" "$tmp/t"
printf '#include "model.h"\n#include "cache_model_fast.h"\n' > "$tmp/t/sim/bad_include.c"
expect_rc 1 "$root/scripts/check-layers.sh" "$tmp/t"
has "$tmp/out" "sim/bad_include.c:2: includes allocators/cache_model_fast.h"
rm "$tmp/t/sim/bad_include.c"
printf '#include "slab_prior.h"\n' > "$tmp/t/sim/host/bad_recon.c"
expect_rc 1 "$root/scripts/check-layers.sh" "$tmp/t"
has "$tmp/out" "sim/host/bad_recon.c:1: includes reconcile/slab_prior.h"
rm "$tmp/t/sim/host/bad_recon.c"
printf '#include "model.h"\nstatic struct ss_kcache *k;\n' > "$tmp/t/sim/bad_type.h"
expect_rc 1 "$root/scripts/check-layers.sh" "$tmp/t"
has "$tmp/out" "sim/bad_type.h:2:static struct ss_kcache *k; (names a model's type)"
