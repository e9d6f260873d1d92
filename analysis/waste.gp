# waste.gp - where the slab bytes go: one panel per model, for each of its
# runs two stacked bars (KiB): at the end of the trace and at the peak of
# the footprint (lighter), each split into requested, rounding padding,
# alignment padding, debug metadata, free slots, slab tail.  Reads waste.dat
# (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/waste.dat'; outfile='reports/W/waste.png'" analysis/waste.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k: arm32-3.10 ...'" heads the title (make passes
# the workload, target, era and CPUs: slabsim report's title.txt).
# One y scale for every panel, so that models compare by bar height,
# unless the tallest panel is more than 3 times the shortest: then each
# panel has its own (a slub_debug model would flatten the others; the
# bars' labels give the values).  A panel holds only the runs of its
# model (none is left empty).

if (!exists("datafile")) datafile = 'waste.dat'
if (!exists("outfile")) outfile = 'waste.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# waste.dat columns: 1 variant, 2 model, 3 moment (end, peak), 4-9 the six
# parts, 10 total, 11 variant index, 12 model index, 13 slot (the run's
# index among its model's runs), 14 peak (0, 1).
stats datafile using 12 nooutput
nm = int(STATS_max) + 1
stats datafile using 13 nooutput
ns = int(STATS_max) + 1
stats datafile using 10 nooutput
ymax = STATS_max > 0 ? STATS_max * 1.12 : 1
rows = nm <= 2 ? 1 : 2
cols = int(ceil(nm / real(rows)))

set style fill solid 1.0 border rgb 'gray30'
set boxwidth 0.85
set grid ytics lc rgb 'gray85'
set ylabel 'KiB'
# each panel's tallest bar: one scale unless they differ more than 3 times
array pmax[nm]
do for [m = 0:nm - 1] {
	stats datafile using ($12 == m ? $10 : NaN) nooutput
	pmax[m + 1] = STATS_max > 0 ? STATS_max * 1.12 : 1
}
lo = pmax[1]; hi = pmax[1]
do for [m = 2:nm] { lo = pmax[m] < lo ? pmax[m] : lo; hi = pmax[m] > hi ? pmax[m] : hi }
own = hi > 3 * lo
set yrange [0:ymax]
set xrange [-0.8:3 * ns - 1.2]
set xtics nomirror noenhanced scale 0 font ",8"
set ytics nomirror
set bmargin 4
unset key

# The six parts, bottom to top: colour and legend text.
array colour[6] = ['#4575b4', '#fc8d59', '#fee090', '#d7191c', '#92c5de', '#7b3294']
# the same colours half-way to white, for the bars at the peak
array light[6] = ['#a2bad9', '#fdc6ac', '#fff0c8', '#eb8c8e', '#c9e2ef', '#bd99ca']
array part[6] = ['requested', 'rounding padding', 'alignment padding', \
		 'debug metadata', 'free slots', 'slab tail']

# Panels in a grid above a strip for the shared legend.
pw = 1.0 / cols
ph = 0.86 / rows
set multiplot title sprintf("%s%sWhere the slab bytes go (KiB), end of trace and peak (lighter)%s", \
			    workload, strlen(workload) ? ': ' : '', own ? '; each panel its own scale' : '') font ",13"
do for [m = 0:nm - 1] {
	name = ''
	last = -1
	stats datafile using ($12 == m ? (name = strcol(2), last = $13, 0) : 0) nooutput
	set xtics ()
	do for [k = 0:last] { set xtics add ('end' 3 * k, 'peak' 3 * k + 1) }
	set title (own ? name . ' (own scale)' : name) noenhanced
	if (own) { set yrange [0:pmax[m + 1]] }
	set origin (m % cols) * pw, 0.08 + (rows - 1 - m / cols) * ph
	set size pw, ph
	x(pk) = 3 * $13 + pk
	# the column when the row is model m's at moment pk, else NaN
	on(c, pk) = ($12 == m && $14 == pk) ? column(c) : NaN
	# Tallest first: each box covers the parts below it.
	plot for [pk = 0:1] datafile using (x(pk)):(on(10, pk)) with boxes \
		lc rgb (pk ? light[6] : colour[6]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(10, pk) - $9) with boxes \
		lc rgb (pk ? light[5] : colour[5]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(10, pk) - $9 - $8) with boxes \
		lc rgb (pk ? light[4] : colour[4]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(4, pk) + $5 + $6) with boxes \
		lc rgb (pk ? light[3] : colour[3]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(4, pk) + $5) with boxes \
		lc rgb (pk ? light[2] : colour[2]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(4, pk)) with boxes \
		lc rgb (pk ? light[1] : colour[1]) notitle, \
	     for [pk = 0:1] '' using (x(pk)):(on(10, pk)):(sprintf('%.0f', $10)) \
		with labels offset 0, 0.6 font ",7" notitle, \
	     '' using (3 * $13 + 0.5):($12 == m && $14 == 0 ? 0 : NaN):(strcol(1)) \
		with labels offset 0, -2.2 noenhanced font ",10" notitle
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
