# cmp_timeline.gp - slab footprint over the trace: one panel per variant,
# one line per model, a dotted vertical line and the name at each phase
# marker.  Reads a compare directory's timeline.dat and phases.dat
# (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/compare/timeline.dat'; phasefile='reports/W/compare/phases.dat'; outfile='reports/W/compare/timeline.png'" analysis/cmp_timeline.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title.  x is the trace
# position (events replayed), the same for every model of a variant.

if (!exists("datafile")) datafile = 'timeline.dat'
if (!exists("phasefile")) phasefile = 'phases.dat'
if (!exists("outfile")) outfile = 'timeline.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# phases.dat: one block per variant (rows: variant events "phase");
# timeline.dat: one block per (variant, model), index v * models + m, each
# opening with a "VARIANT MODEL" header line.
stats phasefile using 2 nooutput
nv = STATS_blocks
set datafile columnheaders
stats datafile using 1 nooutput
nm = int(STATS_blocks / nv)
# events in thousands or millions, labelled so (a tic "1M" beside "1M")
xdiv = STATS_max >= 2e6 ? 1e6 : STATS_max >= 2e3 ? 1e3 : 1
xunit = xdiv == 1e6 ? ', millions' : xdiv == 1e3 ? ', thousands' : ''
# one y scale for every panel: the variants are compared by height
stats datafile using 2 nooutput
ymax = STATS_max > 0 ? STATS_max * 1.08 : 1
unset datafile

rows = nv <= 3 ? 1 : 2
cols = int(ceil(nv / real(rows)))
pw = 1.0 / cols
ph = 0.88 / rows

set format x '%g'
set xlabel sprintf('events replayed (trace position%s)', xunit)
set ylabel 'slab footprint (KiB)'
set yrange [0:ymax]
set y2range [0:1]
unset y2tics
set xtics nomirror rotate by 30 right font ",9"
set ytics nomirror
set grid xtics ytics lc rgb 'gray88'
unset key

set multiplot title sprintf('%s%sSlab footprint over the trace, one line per model (dotted: phase markers)', \
			    workload, strlen(workload) ? ': ' : '') font ",13"
do for [v = 0:nv - 1] {
	vname = ''
	stats phasefile index v using (vname = strcol(1), 0) nooutput
	set title vname noenhanced
	set origin (v % cols) * pw, 0.06 + (rows - 1 - v / cols) * ph
	set size pw, ph
	# Markers on the y2 axis (0..1): a line up to the top, the name
	# beside it, names staggered so that close markers stay readable.
	plot for [m = 0:nm - 1] datafile index v * nm + m using ($1 / xdiv):2 \
		with lines lw 2 lc m + 1 notitle, \
	     phasefile index v using ($2 / xdiv):(1) axes x1y2 \
		with impulses dt 3 lw 1.5 lc rgb 'gray30' notitle, \
	     phasefile index v using ($2 / xdiv):(0.95 - 0.07 * (int($0) % 4)):3 axes x1y2 \
		with labels left offset 0.4, 0 font ",9" tc rgb 'gray20' noenhanced notitle
}

# The legend strip: the first variant's model names (columnheader), on an
# empty plot the width of the figure.
set origin 0, 0
set size 1, 0.06
unset title
unset border
unset tics
unset xlabel
unset ylabel
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center horizontal maxrows 1 samplen 3 reverse Left width 2 noenhanced
plot for [m = 0:nm - 1] datafile index m using (NaN):(NaN) \
	with lines lw 2 lc m + 1 title columnheader(2)
unset multiplot
