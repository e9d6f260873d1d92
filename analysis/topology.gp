# topology.gp - footprint and p99 latency against the number of PUs of a
# synthetic topology: one row per workload, footprint left, p99 right.
# Reads DIR/W.dat (columns: pus footprint_kib p99_ns), written by
# `make topo-plot` (mk/topology.mk, docs/topology.md).
#
#   gnuplot -e "dir='reports/topology'; workloads='smack17k hackbench'; outfile='t.png'" analysis/topology.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional: model,
# map (shown in the title).

if (!exists("dir")) dir = 'reports/topology'
if (!exists("workloads")) workloads = 'smack17k'
if (!exists("outfile")) outfile = 'topology.png'
if (!exists("model")) model = 'traced'
if (!exists("map")) map = 'scatter'

n = words(workloads)
height = 120 + 330 * n
if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1100,height font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1100,height font ",11"
}
set output outfile

set multiplot title sprintf("Slab footprint and p99 latency against topology size (model %s, map %s; synthetic topologies, simulated)", model, map) noenhanced
set logscale x 2
set xrange [0.8:320]
set xtics (1, 2, 4, 8, 16, 32, 64, 128, 256) nomirror
set ytics nomirror
set grid xtics ytics lc rgb '#dddddd'
set key off
set xlabel 'PUs (hardware threads)'
set yrange [0:*]

top = 0.93
rowh = top / n
do for [i = 1:n] {
	w = word(workloads, i)
	f = dir.'/'.w.'.dat'
	set size 0.5, rowh
	set origin 0.0, top - i * rowh
	set title w.': slab footprint' noenhanced
	set ylabel 'KiB'
	plot f using 1:2 with linespoints lw 2 pt 7 lc rgb '#1f77b4'
	set origin 0.5, top - i * rowh
	set title w.': p99 latency of alloc + free' noenhanced
	set ylabel 'ns'
	plot f using 1:3 with linespoints lw 2 pt 7 lc rgb '#d62728'
}
unset multiplot
