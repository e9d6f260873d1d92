# latency.gp - allocator latency CCDFs (1 - CDF, log y): one panel per
# model (columns) and operation (alloc above, free below), one curve per
# run in it (variant; never pooled across kernel eras), a variant the same
# colour in every panel, one legend for all, common axes.  Reads
# latency.dat (docs/outputs.md, analysis/report_plot.h).
#
#   gnuplot -e "datafile='reports/W/latency.dat'; outfile='reports/W/latency.png'" analysis/latency.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title.

if (!exists("datafile")) datafile = 'latency.dat'
if (!exists("outfile")) outfile = 'latency.png'
if (!exists("workload")) workload = ''

# latency.dat: index 0 = panels (model op first_block blocks name), two per
# model, alloc first; index 1 = curves (block model variant op name);
# index 2 on = one CCDF per run.
set datafile columnheaders
stats datafile index 0 using 1 nooutput
np = STATS_records
nm = np / 2
stats datafile index 1 using 1 nooutput
nb = STATS_records
# each curve's variant, and every variant's name (for the one legend)
array vi[nb > 0 ? nb : 1]
array vname[nb > 0 ? nb : 1]
nv = 0
do for [k = 0:nb - 1] {
	stats datafile index 1 every ::k::k using (v = column(3), name = strcol(5), 0) nooutput
	vi[k + 1] = v
	vname[v + 1] = name
	nv = v + 1 > nv ? v + 1 : nv
}
# every curve on the same axes: the fastest bucket to the slowest, and
# down to the rarest bucket's share
if (nb > 0) {
	stats datafile index 2:nb + 1 using 1:($2 > 0 ? $2 : NaN) nooutput
	xlo = STATS_min_x; xhi = STATS_max_x; ylo = STATS_min_y
} else {
	xlo = 1; xhi = 10; ylo = 0.1
}

width = nm > 4 ? 300 * nm : 1200
if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size width,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size width,700 font ",11"
}
set output outfile

# Okabe-Ito colours, a variant's the same in every panel; each curve of a
# panel is drawn thinner than the one before, so identical runs show both
set linetype 1 lc rgb '#0072B2'
set linetype 2 lc rgb '#D55E00'
set linetype 3 lc rgb '#009E73'
set linetype 4 lc rgb '#CC79A7'
set linetype 5 lc rgb '#E69F00'
set linetype 6 lc rgb '#56B4E9'
set linetype 7 lc rgb '#000000'
set linetype 8 lc rgb '#999999'
set linetype cycle 8

set logscale xy 10
set format x '10^{%T}'
set format y '10^{%T}'
set xrange [xlo / 1.2 : xhi * 1.2]
# (a curve's last row, 0: nothing slower, is drawn to below the axis)
set yrange [ylo / 3 : 1.5]
set xtics nomirror
set ytics nomirror
set mxtics 10
set grid xtics ytics mxtics lc rgb 'gray85', lc rgb 'gray93'

# x: ns per operation, each bucket's upper bound, log scale
# The one legend, above the panels: a variant's colour and name.
unset key
step = nv > 0 ? (0.9 / nv < 0.16 ? 0.9 / nv : 0.16) : 0
do for [v = 1:nv] {
	x = 0.5 + (v - (nv + 1) / 2.0) * step
	set label 100 + 2 * v '━━━' at screen x - 0.01, screen 0.895 right tc lt v front
	set label 101 + 2 * v vname[v] at screen x, screen 0.895 left noenhanced front
}
set multiplot layout 2, (nm > 0 ? nm : 1) margins 0.08, 0.98, 0.09, 0.82 spacing 0.04, 0.1 \
	title sprintf("%s%sAllocator latency CCDF, one curve per variant and model (never pooled)\n", \
		      workload, strlen(workload) ? ': ' : '') font ",13"
do for [op = 0:1] {
	do for [m = 0:nm - 1] {
		p = 2 * m + op
		stats datafile index 0 every ::p::p \
			using (first = column(3), n = column(4), mname = strcol(5), 1) nooutput
		set title sprintf('%s: %s', mname, op == 0 ? 'alloc' : 'free') noenhanced
		set xlabel op == 1 ? 'latency (ns)' : ''
		set ylabel m == 0 ? sprintf("fraction of %ss slower\n(1 - CDF)", op == 0 ? 'alloc' : 'free') : ''
		if (n > 0) {
			plot for [b = first:first + n - 1] datafile index b using 1:($2 > 0 ? $2 : ylo / 30) \
				with fsteps lw (b - first < 3 ? 5 - 1.8 * (b - first) : 1) \
				lc (vi[b - 1] + 1) notitle
		} else {
			set label 1 sprintf('no %s operations', op == 0 ? 'alloc' : 'free') \
				at graph 0.5, 0.5 center
			plot NaN notitle
			unset label 1
		}
		# the legend is drawn once, with the first panel
		do for [v = 1:nv] {
			unset label 100 + 2 * v
			unset label 101 + 2 * v
		}
	}
}
unset multiplot
