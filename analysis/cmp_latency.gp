# cmp_latency.gp - allocator latency CCDFs (1 - CDF, log y) of every run
# compared: alloc on the left, free on the right, one curve per run (variant
# and model, never pooled), one colour per run and one dash pattern per
# model.  Reads a compare directory's latency.dat (docs/outputs.md; the
# format of report's latency.dat, analysis/report_plot.h).
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

# index 1 = curves (block model variant op); index 2 on = one CCDF per run
set datafile columnheaders
stats datafile index 1 using 1 nooutput
nb = STATS_records
# per operation: its curves' blocks, and each one's model and variant
array blk[2 * nb + 2]
array mi[2 * nb + 2]
array vi[2 * nb + 2]
array nop[2]
nop[1] = 0; nop[2] = 0
do for [k = 0:nb - 1] {
	stats datafile index 1 every ::k::k \
		using (b = column(1), m = column(2), v = column(3), o = column(4), 0) nooutput
	nop[o + 1] = nop[o + 1] + 1
	j = o * nb + nop[o + 1]
	blk[j] = b; mi[j] = m; vi[j] = v
}
if (nb > 0) {
	stats datafile index 2:nb + 1 using 1:($2 > 0 ? $2 : NaN) nooutput
	xlo = STATS_min_x; xhi = STATS_max_x; ylo = STATS_min_y
} else {
	xlo = 1; xhi = 10; ylo = 0.1
}

set logscale xy 10
set format x '10^{%T}'
set format y '10^{%T}'
# room on the right, past the slowest bucket, for the legend
set xrange [xlo / 1.2 : xhi * 40]
# (a curve's last row, 0: nothing slower, is drawn to below the axis)
set yrange [ylo / 3 : 1.5]
set xlabel 'latency per operation (ns, log scale; bucket upper bounds)'
set ylabel 'fraction of operations slower (1 - CDF)'
set xtics nomirror
set ytics nomirror
set mxtics 10
set grid xtics ytics mxtics lc rgb 'gray85', lc rgb 'gray93'
set key center right noenhanced box opaque samplen 3
# Okabe-Ito colours, one per run
set linetype 1 lc rgb '#0072B2'
set linetype 2 lc rgb '#D55E00'
set linetype 3 lc rgb '#009E73'
set linetype 4 lc rgb '#CC79A7'
set linetype 5 lc rgb '#E69F00'
set linetype 6 lc rgb '#56B4E9'
set linetype 7 lc rgb '#000000'
set linetype 8 lc rgb '#999999'
set linetype cycle 8

set multiplot layout 1, 2 \
	title sprintf('%s%sAllocator latency CCDF of every run (dashes: model)', \
		      workload, strlen(workload) ? ': ' : '') font ",13"
do for [o = 0:1] {
	set title o == 0 ? 'alloc' : 'free'
	if (nop[o + 1] > 0) {
		plot for [j = o * nb + 1:o * nb + nop[o + 1]] datafile index (blk[j]) using 1:($2 > 0 ? $2 : ylo / 30) \
			with fsteps lw 2 lc (j - o * nb) dt 1 + int(mi[j]) % 5 title columnheader(1)
	} else {
		plot NaN title sprintf('no %s operations', o == 0 ? 'alloc' : 'free')
	}
}
unset multiplot
