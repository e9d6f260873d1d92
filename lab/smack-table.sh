#!/bin/bash
# smack-table.sh CAPTURE SMACK_REPORT - the SMACK seed's load on a real
# kernel beside slabsim (docs/lab.md, make lab-smack): SUnreclaim before
# and after (the capture's meminfo files), and each cache that moved by
# 100 objects or more, the kernel's change beside `make sim
# WORKLOAD=smack17k`'s (SMACK_REPORT: its report directory, the change
# of each variant's replay of model traced: from the phase `system` to
# the end).  Markdown on stdout.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: smack-table.sh CAPTURE SMACK_REPORT" >&2; exit 2; }
cap=$1 rep=$2
for f in meminfo-before meminfo-after slabinfo-before slabinfo-after meta; do
	[ -r "$cap/$f" ] || { echo "smack-table.sh: $cap/$f missing" >&2; exit 1; }
done
su() { awk '$1 == "SUnreclaim:" { print $2 }' "$1"; }
b=$(su "$cap/meminfo-before") a=$(su "$cap/meminfo-after")
variants=$(ls -d "$rep"/runs/*__traced 2> /dev/null | sed 's|.*/runs/||; s|__traced$||' | sort)
echo "Kernel: $(sed -n 's/^kernel=//p' "$cap/meta"), $(sed -n 's/^lab_cpus=//p' "$cap/meta") CPU(s); the workload: $(sed -n 's/^command=//p' "$cap/meta")."
echo
echo "| | before | after | Δ |"
echo "|---|--:|--:|--:|"
echo "| SUnreclaim kB (/proc/meminfo) | $b | $a | $((a - b)) |"
echo
# per cache: the kernel's change (objects, slabs, kB), then each variant's
{
	echo "K $(awk 'NR > 2 { print $1, $2, $15, $6 }' "$cap/slabinfo-before" | tr '\n' ';')"
	echo "A $(awk 'NR > 2 { print $1, $2, $15, $6 }' "$cap/slabinfo-after" | tr '\n' ';')"
	for v in $variants; do
		r=$rep/runs/${v}__traced
		s0=$(ls "$r"/slabinfo.1-* 2> /dev/null | head -1)
		echo "V $v $(awk 'NR > 2 { print $1, $2, $15, $6 }' "$s0" | tr '\n' ';')"
		echo "W $v $(awk 'NR > 2 { print $1, $2, $15, $6 }' "$r/slabinfo" | tr '\n' ';')"
	done
} | awk -v variants="$variants" '
	function load(s, arr_o, arr_s, arr_p,   n, i, f, parts) {
		n = split(s, parts, ";")
		for (i = 1; i <= n; i++) if (split(parts[i], f, " ") == 4) { arr_o[f[1]] = f[2]; arr_s[f[1]] = f[3]; arr_p[f[1]] = f[4] }
	}
	$1 == "K" { sub(/^K /, ""); load($0, ko0, ks0, kp0) }
	$1 == "A" { sub(/^A /, ""); load($0, ko1, ks1, kp1) }
	$1 == "V" { v = $2; sub(/^V [^ ]+ /, ""); delete t_o; delete t_s; delete t_p; load($0, t_o, t_s, t_p); for (c in t_o) { vo0[v, c] = t_o[c]; vs0[v, c] = t_s[c] } }
	$1 == "W" { v = $2; sub(/^W [^ ]+ /, ""); delete t_o; delete t_s; delete t_p; load($0, t_o, t_s, t_p); for (c in t_o) { vo1[v, c] = t_o[c]; vs1[v, c] = t_s[c]; vp[v, c] = t_p[c]; names[c] = 1 } }
	END {
		nv = split(variants, vv, " ")
		hdr = "| cache | kernel Δobjects | kernel Δslabs | kernel ΔkB |"
		sep = "|---|--:|--:|--:|"
		for (i = 1; i <= nv; i++) { hdr = hdr " " vv[i] " Δobjects | ΔkB |"; sep = sep "--:|--:|" }
		print hdr; print sep
		for (c in ko1) names[c] = 1
		for (c in names) {
			ktot += (ks1[c] * kp1[c] - ks0[c] * kp0[c]) * 4
			for (i = 1; i <= nv; i++) vtot[vv[i]] += (vs1[vv[i], c] - vs0[vv[i], c]) * vp[vv[i], c] * 4
			d = ko1[c] - ko0[c]; big = (d >= 100 || d <= -100)
			for (i = 1; i <= nv; i++) { m = vo1[vv[i], c] - vo0[vv[i], c]; if (m >= 100 || m <= -100) big = 1 }
			if (!big) continue
			line = sprintf("| %s | %+d | %+d | %+d |", c, d, ks1[c] - ks0[c], (ks1[c] * kp1[c] - ks0[c] * kp0[c]) * 4)
			for (i = 1; i <= nv; i++) {
				v = vv[i]
				line = line sprintf(" %+d | %+d |", vo1[v, c] - vo0[v, c], (vs1[v, c] - vs0[v, c]) * vp[v, c] * 4)
			}
			print line
		}
		line = sprintf("| all caches (slab kB) | | | %+d |", ktot)
		for (i = 1; i <= nv; i++) line = line sprintf(" | %+d |", vtot[vv[i]])
		print line
	}'
