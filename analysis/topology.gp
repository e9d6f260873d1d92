# topology.gp - footprint and p99 latency against the number of PUs of a
# synthetic topology: one row per workload, footprint left, p99 right.
# Reads DIR/W.dat (columns: pus footprint_kib p99_ns nodes trace_cpus
# node_start target), written by `make topo-plot` (mk/topology.mk,
# docs/topology.md).
#
#   gnuplot -e "dir='reports/topology'; workloads='smack17k hackbench'; outfile='t.png'" analysis/topology.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional: model,
# map (shown in the title).  A dashed line marks each size where more
# NUMA nodes begin; a panel whose values span 20x or more has a log y
# axis; a flat row says why (a trace on fewer CPUs than the PUs).

if (!exists("dir")) dir = 'reports/topology'
if (!exists("workloads")) workloads = 'smack17k'
if (!exists("outfile")) outfile = 'topology.png'
if (!exists("model")) model = 'traced'
if (!exists("map")) map = 'fold'

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
set y2range [0:1]
unset y2tics
# the flat note's box hides the node markers behind it
set style textbox opaque noborder

top = 0.93
rowh = top / n
# One panel: column c of file f against the PUs, the NUMA node starts
# marked; log y when the values span 20x or more, else from 0; a flat
# panel says why.
do for [i = 1:n] {
	w = word(workloads, i)
	f = dir.'/'.w.'.dat'
	tgt = ''
	# (stats reads only points inside the current ranges: reset them)
	unset logscale y
	set yrange [*:*]
	stats f using (tgt = strcol(7), $5) nooutput
	tcpus = int(STATS_max)
	do for [c = 2:3] {
		unset logscale y
		set yrange [*:*]
		stats f using c nooutput
		lo = STATS_min
		hi = STATS_max
		unset label 1
		if (lo > 0 && hi / lo >= 20) {
			set logscale y 10
			set yrange [lo / 1.5:hi * 1.5]
		} else {
			unset logscale y
			set yrange [0:(hi > 0 ? hi * 1.15 : 1)]
		}
		# Flat, or within 1%: say why when the trace runs on fewer CPUs
		# than the largest topology has PUs (the PUs beyond it hold no
		# objects; only the slab order calculate_order() picks for more
		# CPUs can move the footprint).
		if (hi <= lo * 1.01 && tcpus < 256) {
			set label 1 sprintf("%s: the trace runs on %d CPU%s, so the PUs beyond %s hold no objects%s", \
				hi == lo ? 'flat' : 'within 1%', tcpus, tcpus == 1 ? '' : 's', \
				tcpus == 1 ? 'it' : 'them', hi == lo ? '' : ";\nwhat moves is the slab order calculate_order() picks for more CPUs") \
				at graph 0.5, 0.3 center font ",10" tc rgb '#555555' noenhanced front boxed
		}
		set size 0.5, rowh
		set origin (c - 2) * 0.5, top - i * rowh
		set title sprintf('%s (%s): %s', w, tgt, c == 2 ? 'slab footprint' : 'p99 latency of alloc + free') noenhanced
		set ylabel (c == 2 ? 'KiB' : 'ns').((lo > 0 && hi / lo >= 20) ? ', log scale' : '')
		# A node start's label ends at its line; the starts one doubling
		# apart (4 nodes at 128, 8 at 256) are closer than a label is
		# wide, so the height alternates with log2(nodes): no counter
		# (gnuplot may evaluate a using spec more than once).
		plot f using 1:c with linespoints lw 2 pt 7 lc rgb (c == 2 ? '#1f77b4' : '#d62728'), \
		     f using ($6 > 0 ? $1 : NaN):(1) axes x1y2 with impulses dt 2 lw 1.5 lc rgb 'gray40', \
		     f using ($6 > 0 ? $1 : NaN):(0.94 - 0.11 * (int(log($4) / log(2) + 0.5) % 2)):(sprintf('%d NUMA nodes', $4)) axes x1y2 \
			with labels right offset -0.4, 0 font ",9" tc rgb 'gray30'
	}
}
unset multiplot
