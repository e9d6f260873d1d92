# waste.gp - where the slab bytes go: one panel per model, one stacked bar
# per variant (KiB): requested, rounding padding, alignment padding, debug
# metadata, free slots, slab tail.  Reads waste.dat (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/waste.dat'; outfile='reports/W/waste.png'" analysis/waste.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title.  Each panel has
# its own y scale (a slub_debug model can hold several times the memory of
# the others); the total is printed on each bar.

if (!exists("datafile")) datafile = 'waste.dat'
if (!exists("outfile")) outfile = 'waste.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# waste.dat columns: 1 variant, 2 model, 3-8 the six parts, 9 total,
# 10 x = variant * (models + 1) + model, 11 centre.  Variant 0's centre is
# (models - 1) / 2, which gives the number of models.
stats datafile using 11 nooutput
nm = int(2 * STATS_min + 1)
vi(x) = int(x) / (nm + 1)
mi(x) = int(x) % (nm + 1)
rows = nm <= 3 ? 1 : 2
cols = int(ceil(nm / real(rows)))

set style fill solid 0.85 border rgb 'gray30'
set boxwidth 0.7
set grid ytics lc rgb 'gray85'
set ylabel 'KiB'
set xlabel 'variant'
set yrange [0:*]
set xtics nomirror noenhanced rotate by 30 right
set ytics nomirror
set offsets 0.6, 0.6, graph 0.1, 0
unset key

# The six parts, bottom to top: colour and legend text.
array colour[6] = ['#4575b4', '#fc8d59', '#fee090', '#d7191c', '#92c5de', '#7b3294']
array part[6] = ['requested', 'rounding padding', 'alignment padding', \
		 'debug metadata', 'free slots', 'slab tail']

# Panels in a grid above a strip for the shared legend.
pw = 1.0 / cols
ph = 0.86 / rows
set multiplot title sprintf('%s%sWhere the slab bytes go (KiB), one panel per model', \
			    workload, strlen(workload) ? ': ' : '') font ",13"
do for [m = 0:nm - 1] {
	name = ''
	stats datafile using (mi($10) == m ? (name = strcol(2), 0) : 0) nooutput
	set title name noenhanced
	set origin (m % cols) * pw, 0.08 + (rows - 1 - m / cols) * ph
	set size pw, ph
	on(c) = mi($10) == m ? column(c) : NaN
	# Tallest first: each box covers the parts below it.
	plot datafile using (vi($10)):(on(9)) with boxes lc rgb colour[6] notitle, \
	     '' using (vi($10)):(on(9) - $8) with boxes lc rgb colour[5] notitle, \
	     '' using (vi($10)):(on(9) - $8 - $7) with boxes lc rgb colour[4] notitle, \
	     '' using (vi($10)):(on(3) + $4 + $5) with boxes lc rgb colour[3] notitle, \
	     '' using (vi($10)):(on(3) + $4) with boxes lc rgb colour[2] notitle, \
	     '' using (vi($10)):(on(3)) with boxes lc rgb colour[1] notitle, \
	     '' using (vi($10)):(on(9)):(sprintf('%.0f', $9)) with labels offset 0, 0.7 font ",9" notitle, \
	     '' using (vi($10)):(NaN):xticlabels(1) notitle
}

# The legend strip: an empty plot the width of the figure.
set origin 0, 0
set size 1, 0.08
unset title
unset border
unset tics
unset xlabel
unset ylabel
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 1 samplen 2 width 2 reverse Left
plot for [i = 1:6] NaN with boxes lc rgb colour[i] title part[i]
unset multiplot
