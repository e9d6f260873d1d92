# cmp_latency.gp - allocator latency CDFs of every model on one axis (all
# variants pooled): alloc solid, free dashed, one colour per model, log-x ns.
# Reads a compare directory's latency.dat (docs/outputs.md; the format of
# report's latency.dat).
#
#   gnuplot -e "datafile='reports/W/compare/latency.dat'; outfile='reports/W/compare/latency.png'" analysis/cmp_latency.gp
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
# block's first line is a "MODEL OP" column header.
set datafile columnheaders
stats datafile using 1 nooutput
nm = int(STATS_blocks / 2)

set title sprintf('%s%sAllocator latency CDF on one axis (runs of a model on one kernel pooled)', \
		  workload, strlen(workload) ? ': ' : '') font ",13"
set logscale x 10
set format x '10^{%T}'
set xlabel 'latency per operation (ns, log scale; bucket upper bounds)'
set ylabel 'fraction of operations ≤ latency'
set yrange [0:1.02]
set ytics 0.1 nomirror
set xtics nomirror
set mxtics 10
set grid xtics ytics mxtics lc rgb 'gray85', lc rgb 'gray93'
set key outside right top vertical noenhanced samplen 3

# Steps rising at each bucket's upper bound, plus the rise from 0 at the
# first bucket (an impulse at its first point).  The model's colour is in
# the legend once (its alloc curve); the two NaN lines explain the dashes.
plot for [m = 0:nm - 1] datafile index 2 * m using 1:2 \
	with steps lw 2 dt 1 lc m + 1 title columnheader(1), \
     for [m = 0:nm - 1] datafile index 2 * m every ::0::0 using 1:2 \
	with impulses lw 2 dt 1 lc m + 1 notitle, \
     for [m = 0:nm - 1] datafile index 2 * m + 1 using 1:2 \
	with steps lw 2 dt 2 lc m + 1 notitle, \
     for [m = 0:nm - 1] datafile index 2 * m + 1 every ::0::0 using 1:2 \
	with impulses lw 2 dt 2 lc m + 1 notitle, \
     NaN with lines lw 2 dt 1 lc rgb 'black' title 'alloc (solid)', \
     NaN with lines lw 2 dt 2 lc rgb 'black' title 'free (dashed)'
