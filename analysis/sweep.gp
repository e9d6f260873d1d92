# sweep.gp - one figure of a sweep against the swept parameter: one panel
# per variant, one line per model, a point at each value.  Reads a sweep
# directory's FIGURE.dat (docs/outputs.md, "Sweeping a parameter").
#
#   gnuplot -e "datafile='reports/W/sweep-rules/footprint_kib.dat'; outfile='reports/W/sweep-rules/footprint_kib.png'" analysis/sweep.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='...'" heads the title (make loads the sweep's title.gp:
# workload, target, era, CPUs).  The x axis is logarithmic when the data
# says so (values spanning a decade or more), and a category axis when the
# values are not all numbers; a tic at each value, labelled as given.

if (!exists("datafile")) datafile = 'footprint_kib.dat'
if (!exists("outfile")) outfile = 'footprint_kib.png'
if (!exists("workload")) workload = ''
# the title is drawn noenhanced (parameter names hold '_'): the plain text
if (exists("workload_plain")) workload = workload_plain

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# Block 0, one row: nv nm numeric logx logy "ylabel" "param" "variants"
# "models".
stats datafile index 0 using (nv = int($1), nm = int($2), numeric = int($3), \
	logx = int($4), logy = int($5), ylab = strcol(6), pname = strcol(7), \
	variants = strcol(8), models = strcol(9), 0) nooutput

rows = nv <= 3 ? 1 : 2
cols = int(ceil(nv / real(rows)))
pw = 1.0 / cols
ph = 0.88 / rows

if (logx) {
	set logscale x 10
}
# One y scale for every panel: the variants are compared by height.
stats datafile index 1:(nv * nm) using 3 nooutput
if (logy) {
	set logscale y 10
	set format y '%.0s%c'
	set yrange [STATS_min / 1.3:STATS_max * 1.3]
	set ylabel ylab.', log scale' noenhanced
} else {
	set yrange [0:(STATS_max > 0 ? STATS_max * 1.08 : 1)]
	set ylabel ylab noenhanced
}
set xlabel pname.(logx ? ', log scale' : '') noenhanced
set autoscale xfix
set offsets graph 0.05, graph 0.05, 0, 0
set xtics nomirror rotate by 30 right font ",9"
set ytics nomirror
set grid xtics ytics lc rgb 'gray88'
unset key

set multiplot title sprintf('%s%s%s against %s, one line per model', \
			    workload, strlen(workload) ? ': ' : '', ylab, pname) noenhanced font ",13"
do for [v = 0:nv - 1] {
	set title word(variants, v + 1) noenhanced
	set origin (v % cols) * pw, 0.06 + (rows - 1 - v / cols) * ph
	set size pw, ph
	# one tic per swept value, labelled as given (never "800010000")
	plot for [m = 0:nm - 1] datafile index 1 + v * nm + m using 1:3:xticlabels(2) \
		with linespoints lw 2 pt 7 ps 0.8 lc m + 1 notitle
}

# The legend strip: an empty plot the width of the figure.
set origin 0, 0
set size 1, 0.06
unset title
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 1 samplen 3 reverse Left width 2 noenhanced
plot for [m = 1:nm] NaN with linespoints lw 2 pt 7 lc m title word(models, m)
unset multiplot
