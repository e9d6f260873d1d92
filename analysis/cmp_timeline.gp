# cmp_timeline.gp - slab memory over the trace: one panel per variant,
# one line per model, a dotted vertical line and the name at each phase
# marker.  Reads timeline.dat and phases.dat (docs/outputs.md) of a
# compare directory, or of a capture's report (slabsim report --window).
#
#   gnuplot -e "datafile='reports/W/compare/timeline.dat'; phasefile='reports/W/compare/phases.dat'; outfile='reports/W/compare/timeline.png'" analysis/cmp_timeline.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='smack17k'" puts the workload in the title; -e "change=1"
# (title.gp says so when a run started from an initial state: a capture)
# draws the change since the start, which may fall below 0, around a zero
# line, and says so; -e "kernelfile='reports/N/change.dat'" (a capture
# with its after-snapshot) marks the kernel's own change, its first row's
# kernel_kib, at the trace's end.  x is the trace position (events
# replayed), the same for every model of a variant.

if (!exists("datafile")) datafile = 'timeline.dat'
if (!exists("phasefile")) phasefile = 'phases.dat'
if (!exists("outfile")) outfile = 'timeline.png'
if (!exists("workload")) workload = ''
if (!exists("change")) change = 0

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
xlast = STATS_max
# events in thousands or millions, labelled so (a tic "1M" beside "1M")
xdiv = STATS_max >= 2e6 ? 1e6 : STATS_max >= 2e3 ? 1e3 : 1
xunit = xdiv == 1e6 ? ', millions' : xdiv == 1e3 ? ', thousands' : ''
# one y scale for every panel: the variants are compared by height
stats datafile using 2 nooutput
ylo = STATS_min
yhi = STATS_max
unset datafile
# the kernel's change (change.dat: label kernel_kib model_kib, the first
# row every cache's), drawn at the trace's end
kchange = NaN
if (exists("kernelfile")) {
	stats kernelfile every ::0::0 using 2 nooutput
	kchange = STATS_max
	ylo = kchange < ylo ? kchange : ylo
	yhi = kchange > yhi ? kchange : yhi
}
ymax = yhi > 0 ? yhi * 1.08 : 1
# a change may be negative (the trace freed more than it added)
ymin = change && ylo < 0 ? ylo * 1.08 : 0
# A capture's single panel names each model's change at the end in the
# legend: the block's name (its header row) and last row.
array endname[nm]
array endkib[nm]
if (change && nv == 1) {
	do for [m = 1:nm] {
		stats datafile index m - 1 every ::0::0 using (endname[m] = strcol(2), 0) nooutput
		set datafile columnheaders
		stats datafile index m - 1 using 2 nooutput
		n = STATS_records
		stats datafile index m - 1 every ::(n - 1)::(n - 1) using 2 nooutput
		endkib[m] = STATS_max
		unset datafile
	}
}

rows = nv <= 3 ? 1 : 2
cols = int(ceil(nv / real(rows)))
pw = 1.0 / cols
ph = 0.88 / rows

set format x '%g'
set xlabel sprintf('events replayed (trace position%s)', xunit)
set ylabel change ? 'KiB since the start (0: the caches the run started from)' : 'slab footprint (KiB)'
set yrange [ymin:ymax]
# a change: around its zero line, the trace's whole length and no more
if (change) {
	set xzeroaxis lt -1 lw 1
	set xrange [0:xlast / xdiv]
	set rmargin 13
}
set y2range [0:1]
unset y2tics
set xtics nomirror rotate by 30 right font ",9"
set ytics nomirror
set grid xtics ytics lc rgb 'gray88'
unset key

set multiplot title sprintf('%s%s%s', workload, strlen(workload) ? ': ' : '', \
			    change ? 'Slab memory since the start of the trace, one line per model' \
				   : 'Slab footprint over the trace, one line per model (dotted: phase markers)') \
	font ",13"
do for [v = 0:nv - 1] {
	vname = ''
	stats phasefile index v using (vname = strcol(1), 0) nooutput
	set title vname noenhanced
	set origin (v % cols) * pw, 0.06 + (rows - 1 - v / cols) * ph
	set size pw, ph
	# Markers on the y2 axis (0..1): a line up to the top, the name
	# beside it, names staggered so that close markers stay readable.
	# the kernel's change: the first variant's panel (a capture has one)
	unset label 1
	if (v == 0 && kchange == kchange) {
		set label 1 sprintf('kernel %+.0f', kchange) at xlast / xdiv, kchange \
			right offset -1.2, 0 font ",10" tc rgb 'black' front
	}
	plot for [m = 0:nm - 1] datafile index v * nm + m using ($1 / xdiv):2 \
		with lines lw 2 lc m + 1 notitle, \
	     '+' every ::0::0 using (xlast / xdiv):(v == 0 ? kchange : NaN) \
		with points pt 7 ps 1.6 lc rgb 'black' notitle, \
	     for [m = 1:nm] '+' every ::0::0 using (xlast / xdiv):(v == 0 && change && nv == 1 ? endkib[m] : NaN) \
		with points pt 7 ps 1.1 lc m notitle, \
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
unset xzeroaxis
set xrange [0:1]
set yrange [0:1]
unset label 1
set key center center horizontal maxrows 1 samplen 3 reverse Left width 2 noenhanced
if (change && nv == 1) {
	plot for [m = 0:nm - 1] datafile index m using (NaN):(NaN) \
		with lines lw 2 lc m + 1 title sprintf('%s: %+.0f KiB at the end', endname[m + 1], endkib[m + 1]), \
	     '+' every ::0::0 using (NaN):(NaN) with points pt 7 ps 1.6 lc rgb 'black' \
		title (kchange == kchange ? sprintf('kernel (its snapshots): %+.0f KiB', kchange) : '')
} else {
	plot for [m = 0:nm - 1] datafile index m using (NaN):(NaN) \
		with lines lw 2 lc m + 1 title columnheader(2)
}
unset multiplot
