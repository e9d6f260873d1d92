# tornado.gp - make sensitivity's tornado plot: one panel per headline
# figure (up to four), one bar pair per step that moves it most, largest
# swing on top: the figure's change in % of its base value with the step
# at the low end of its range (blue) and at the high end (red).  Reads
# tornado.dat (sensitivity_data.h; docs/outputs.md).
#
#   gnuplot -e "datafile='reports/W/tornado.dat'; outfile='reports/W/tornado.png'" analysis/tornado.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='hackbench'" puts the workload in the title.

if (!exists("datafile")) datafile = 'tornado.dat'
if (!exists("outfile")) outfile = 'tornado.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1400,900 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1400,900 font ",11"
}
set output outfile

# One block (gnuplot index) per figure; each panel's title is the block's
# "# figure NAME (unit) = value" comment line, read back with awk.
stats datafile using 1 nooutput
nb = STATS_blocks
rows = nb <= 2 ? 1 : 2
cols = nb <= 1 ? 1 : 2

set multiplot layout rows, cols title (workload ne '' ? workload.': ' : '').'headline figures, % change with each step at the low / high end of its range'
set style fill solid 0.8 border rgb 'gray30'
set grid xtics lc rgb 'gray85'
set xlabel 'change, % of |base value|'
set ytics nomirror noenhanced font ",9"
set xtics nomirror
set key bottom right font ",9"
set xzeroaxis
set yzeroaxis lt -1

do for [b = 0:nb - 1] {
	# the figure's name: the "# figure NAME (unit) = value" comment of block b
	name = system(sprintf("awk 'BEGIN{b=0} /^# figure /{if (b == %d) {sub(/^# figure /, \"\"); print; exit} b++}' '%s'", b, datafile))
	set title name noenhanced
	set yrange [*:*]
	set xrange [*:*]
	stats datafile index b using 1 nooutput
	set yrange [0.3:STATS_max + 0.7]
	plot datafile index b using ($3 / 2):($1 + 0.17):(abs($3) / 2):(0.15):ytic(2) with boxxyerror lc rgb '#3366cc' title 'step at its low end', \
	     '' index b using ($4 / 2):($1 - 0.17):(abs($4) / 2):(0.15) with boxxyerror lc rgb '#cc3333' title 'step at its high end'
}
unset multiplot
