# cmp_waste.gp - where the slab bytes go, every model side by side on one
# axis: a cluster of stacked bars per variant (variant names on the top
# axis), one bar per model (model names on the bottom axis), the six parts
# of report.md §4 bottom to top, the total on each bar.  Reads a compare
# directory's waste.dat (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/compare/waste.dat'; outfile='reports/W/compare/waste.png'" analysis/cmp_waste.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title.  One y scale for
# all: a slub_debug model can dwarf the others (report.md's waste.png gives
# each model its own panel and scale).

if (!exists("datafile")) datafile = 'waste.dat'
if (!exists("outfile")) outfile = 'waste.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# waste.dat: 1 variant, 2 model, 3-8 the six parts, 9 total,
# 10 x = variant * (models + 1) + model, 11 centre of the variant's bars.
stats datafile using 11 nooutput
nm = int(2 * STATS_min + 1)
stats datafile using 10 nooutput
nv = int(STATS_max) / (nm + 1) + 1
vi(x) = int(x) / (nm + 1)

set title sprintf('%s%sWhere the slab bytes go (KiB): models side by side per variant', \
		  workload, strlen(workload) ? ': ' : '') font ",13"
set style fill solid 0.85 border rgb 'gray30'
set boxwidth 0.8
set grid ytics lc rgb 'gray85'
set ylabel 'slab memory (KiB)'
set xlabel 'model (bars), variant (top axis)'
set yrange [0:*]
set offsets 0.6, 0.6, graph 0.08, 0
set xtics nomirror noenhanced rotate by 40 right font ",9"
set link x2
# Variant names over the middle of their bars, on the top axis.
set x2tics () noenhanced scale 0 font ",11"
do for [v = 0:nv - 1] {
	vname = ''
	stats datafile using (vi($10) == v ? (vname = strcol(1), 0) : 0) nooutput
	set x2tics add (vname v * (nm + 1) + (nm - 1) / 2.0)
}
set ytics nomirror
set key outside bottom center horizontal maxcols 6 samplen 2 width 1 reverse Left

array colour[6] = ['#4575b4', '#fc8d59', '#fee090', '#d7191c', '#92c5de', '#7b3294']
array part[6] = ['requested', 'rounding padding', 'alignment padding', \
		 'debug metadata', 'free slots', 'slab tail']

# Tallest first: each box covers the parts below it.  The legend comes
# from the NaN boxes at the end, bottom part first.
plot datafile using 10:9 with boxes lc rgb colour[6] notitle, \
     '' using 10:($9 - $8) with boxes lc rgb colour[5] notitle, \
     '' using 10:($9 - $8 - $7) with boxes lc rgb colour[4] notitle, \
     '' using 10:($3 + $4 + $5) with boxes lc rgb colour[3] notitle, \
     '' using 10:($3 + $4) with boxes lc rgb colour[2] notitle, \
     '' using 10:3 with boxes lc rgb colour[1] notitle, \
     '' using 10:9:(sprintf('%.0f', $9)) with labels offset 0, 0.6 font ",8" notitle, \
     '' using 10:(NaN):xticlabels(2) notitle, \
     for [i = 1:6] NaN with boxes lc rgb colour[i] title part[i]
