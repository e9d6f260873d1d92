#!/bin/bash
# check-layers.sh [ROOT] - the engine (sim/) names no model: it reaches a
# model through the model interface and the reconciliation layer's only,
# never a model's own headers or types (README.md, Layout).  The include
# paths keep the allocator families (allocators/slub/, allocators/slab/)
# out of sim/'s reach but cannot say the rest (allocators/ holds both the
# interface and the cache model), so the build runs this check (Makefile,
# layers).
#
# sim/ may include, of allocators/, the headers below and no other: the
# model interface (model.h, and model_batch.h with contention_swap.h, the
# engine's books a model's batch replay keeps) and the kernel's rules and
# tables every model shares (targets, costs, steps, geometry, kmalloc
# classes, merging, placement overrides); of reconcile/, its interface.
# Each file:line that breaks this is printed; exit 1 if any.
set -u
root=${1:-.}
allowed_allocators="model.h model_batch.h contention_swap.h resource.h costs.h steps.h
	target.h kconfig.h geometry.h kmalloc.h merge.h override.h"
allowed_reconcile="recon.h settle_rule.h prior_counts.h"
# a model's types and operation tables (slub_cache.h, backend.h, cache_model*.h, ...)
types='\b(ss_cmodel|ss_kcache|ss_kcache_[a-z_]+|ss_cache_model_ops|ss_slab|ss_sheaves|ss_backend_[a-z_]+|ss_recon_cache)\b'
bad=0
while IFS= read -r -d '' f; do
	while IFS=: read -r line inc; do
		h=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"$inc")
		if [ -f "$root/allocators/$h" ] && ! grep -qw -- "$h" <<<"$allowed_allocators"; then
			echo "$f:$line: includes allocators/$h, a model's own header (model.h and the interface only)"
			bad=1
		elif [ -f "$root/reconcile/$h" ] && ! grep -qw -- "$h" <<<"$allowed_reconcile"; then
			echo "$f:$line: includes reconcile/$h, not the reconciliation layer's interface"
			bad=1
		fi
	done < <(grep -nE '^[[:space:]]*#[[:space:]]*include "' "$f" | cut -d: -f1,2-)
	if grep -nE "$types" "$f" >/dev/null; then
		grep -nE "$types" "$f" | sed "s|^|$f:|; s|$|  (names a model's type)|"
		bad=1
	fi
done < <(find "$root/sim" -name '*.[ch]' -print0 | sort -z)
exit $bad
