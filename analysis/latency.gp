# latency.gp - alloc and free latency CDFs per model (every variant pooled),
# log-x ns axis, alloc on the left, free on the right.  Reads latency.dat
# (docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/latency.dat'; outfile='reports/W/latency.png'" analysis/latency.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title.

if (!exists("datafile")) datafile = 'latency.dat'
if (!exists("outfile")) outfile = 'latency.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# latency.dat: two blocks per model, index 2m = alloc, 2m+1 = free; each
# block's first line is a "MODEL OP" column header (the curve's title).
set datafile columnheaders
stats datafile using 1 nooutput
nm = int(STATS_blocks / 2)

set logscale x 10
set format x '10^{%T}'
set xlabel 'latency (ns, log scale; bucket upper bounds)'
set ylabel 'fraction of operations ≤ latency'
set yrange [0:1.02]
set ytics 0.1 nomirror
set xtics nomirror
set mxtics 10
set grid xtics ytics mxtics lc rgb 'gray85', lc rgb 'gray93'
set key bottom right noenhanced
set style line 1 lw 2

set multiplot layout 1, 2 \
	title sprintf('%s%sAllocator latency CDF (runs of a model on one kernel pooled)', \
		      workload, strlen(workload) ? ': ' : '') font ",13"
# Each curve: steps rising at every bucket's upper bound, plus the rise
# from 0 at the first bucket (an impulse at its first point).
do for [op = 0:1] {
	set title op == 0 ? 'alloc' : 'free'
	plot for [m = 0:nm - 1] datafile index 2 * m + op using 1:2 \
		with steps lw 2 lc m + 1 title columnheader(1), \
	     for [m = 0:nm - 1] datafile index 2 * m + op every ::0::0 using 1:2 \
		with impulses lw 2 lc m + 1 notitle
}
unset multiplot
