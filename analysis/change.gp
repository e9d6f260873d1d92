# change.gp - what a capture's command changed: for every cache together,
# then the caches that changed most, the kernel's change of slab memory
# (its before- and after-snapshots) beside the model's (KiB, after -
# before).  Reads change.dat (docs/outputs.md; slabsim report with
# --kernel-after writes it).
#
#   gnuplot -e "datafile='reports/N/change.dat'; outfile='reports/N/change.png'" analysis/change.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "workload='...'" heads the title (make passes title.gp).

if (!exists("datafile")) datafile = 'change.dat'
if (!exists("outfile")) outfile = 'change.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

stats datafile using 0 nooutput
n = int(STATS_records)
set title sprintf("%s%sWhat the command changed: slab memory after − before (KiB)", \
		  workload, strlen(workload) ? ': ' : '') font ",13"
set style fill solid 1.0 border rgb 'gray30'
set boxwidth 0.38
set grid ytics lc rgb 'gray85'
set ylabel 'KiB, after − before'
set xtics nomirror noenhanced rotate by -25 font ",10"
set ytics nomirror
set xzeroaxis lt -1
set key top right
set xrange [-0.7:n - 0.3]
set offsets 0, 0, graph 0.08, graph 0.08
# v(c): column c, NaN when not known; pos/neg: its label above or below
v(c) = column(c) == column(c) ? column(c) : NaN
pos(c) = v(c) >= 0 ? v(c) : NaN
neg(c) = v(c) < 0 ? v(c) : NaN
plot datafile using ($0 - 0.2):2:xtic(1) with boxes title 'kernel (its snapshots)' lc rgb '#4575b4', \
     '' using ($0 + 0.2):3 with boxes title 'model' lc rgb '#fc8d59', \
     for [c = 2:3] '' using ($0 + (c == 2 ? -0.2 : 0.2)):(pos(c)):(sprintf('%+.0f', column(c))) \
	with labels offset 0, 0.7 font ",8" notitle, \
     for [c = 2:3] '' using ($0 + (c == 2 ? -0.2 : 0.2)):(neg(c)):(sprintf('%+.0f', column(c))) \
	with labels offset 0, -0.7 font ",8" notitle, \
     '' using ($0 + 0.2):(column(3) == column(3) ? NaN : 0):('n/a') with labels offset 0, 0.7 font ",8" notitle
