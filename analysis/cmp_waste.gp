# cmp_waste.gp - where the slab bytes go, every model side by side on one
# axis: a cluster per variant (its name on the top axis), for each model
# that ran it two stacked bars, at the end of the trace and at the peak of
# the footprint (lighter), split into the six parts of report.md's "Where
# the bytes go", the total on each bar.  Reads a compare directory's
# waste.dat (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/compare/waste.dat'; outfile='reports/W/compare/waste.png'" analysis/cmp_waste.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='...'" heads the title (make passes the workload, target,
# era and CPUs).  One y scale for all: a slub_debug model can dwarf the
# others, as it does on a machine.

if (!exists("datafile")) datafile = 'waste.dat'
if (!exists("outfile")) outfile = 'waste.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# waste.dat: 1 variant, 2 model, 3 moment, 4-9 the six parts, 10 total,
# 11 vi, 12 mi, 13 slot, 14 peak, 15 x (this bar's position on one axis),
# 16 centre of its variant's cluster.
stats datafile using 11 nooutput
nv = int(STATS_max) + 1

set title sprintf("%s%sWhere the slab bytes go (KiB): models side by side, end of trace and peak (lighter)", \
		  workload, strlen(workload) ? ': ' : '') font ",13"
set style fill solid 1.0 border rgb 'gray30'
set boxwidth 0.85
set grid ytics lc rgb 'gray85'
set ylabel 'slab memory (KiB)'
set xlabel 'model: end of trace, peak (bars); variant (top axis)'
set yrange [0:*]
set offsets 0.8, 0.8, graph 0.08, 0
set xtics nomirror noenhanced rotate by 40 right font ",9"
set link x2
# Variant names over the middle of their bars, on the top axis.
set x2tics () noenhanced scale 0 font ",11"
do for [v = 0:nv - 1] {
	vname = ''
	vc = NaN
	stats datafile using ($11 == v ? (vname = strcol(1), vc = $16, 0) : 0) nooutput
	if (vc == vc) { set x2tics add (vname vc) }
}
set ytics nomirror
set key outside bottom center horizontal maxcols 6 samplen 2 width 1 reverse Left

array colour[6] = ['#4575b4', '#fc8d59', '#fee090', '#d7191c', '#92c5de', '#7b3294']
array light[6] = ['#a2bad9', '#fdc6ac', '#fff0c8', '#eb8c8e', '#c9e2ef', '#bd99ca']
array part[6] = ['requested', 'rounding padding', 'alignment padding', \
		 'debug metadata', 'free slots', 'slab tail']
# the bar's tic: the model under the end bar, "peak" under the other
tic(pk) = pk > 0 ? 'peak' : strcol(2)

# Tallest first: each box covers the parts below it.  The legend comes
# from the NaN boxes at the end, bottom part first.
plot for [pk = 0:1] datafile using 15:($14 == pk ? $10 : NaN) with boxes \
		lc rgb (pk ? light[6] : colour[6]) notitle, \
     for [pk = 0:1] '' using 15:($14 == pk ? $10 - $9 : NaN) with boxes \
		lc rgb (pk ? light[5] : colour[5]) notitle, \
     for [pk = 0:1] '' using 15:($14 == pk ? $10 - $9 - $8 : NaN) with boxes \
		lc rgb (pk ? light[4] : colour[4]) notitle, \
     for [pk = 0:1] '' using 15:($14 == pk ? $4 + $5 + $6 : NaN) with boxes \
		lc rgb (pk ? light[3] : colour[3]) notitle, \
     for [pk = 0:1] '' using 15:($14 == pk ? $4 + $5 : NaN) with boxes \
		lc rgb (pk ? light[2] : colour[2]) notitle, \
     for [pk = 0:1] '' using 15:($14 == pk ? $4 : NaN) with boxes \
		lc rgb (pk ? light[1] : colour[1]) notitle, \
     '' using 15:10:(sprintf('%.0f', $10)) with labels offset 0, 0.6 font ",7" notitle, \
     '' using 15:(NaN):xticlabels(tic($14)) notitle, \
     for [i = 1:6] NaN with boxes lc rgb colour[i] title part[i]
