# time.gp - simulated hackbench run time per variant: one bar each, split
# into the allocator's part and the rest (HB_MSG_CYCLES) in proportion to
# their CPU time, with the seed's measured times as points.  Reads time.dat
# (written by `slabsim report`, workloads/hackbench/hb_report.c).
#
#   gnuplot -e "datafile='reports/hackbench/time.dat'; outfile='reports/hackbench/time.png'" workloads/hackbench/time.gp
#
# outfile ending in .svg writes SVG, anything else PNG.

if (!exists("datafile")) datafile = 'time.dat'
if (!exists("outfile")) outfile = 'time.png'

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1000,600 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1000,600 font ",11"
}
set output outfile

# columns: 1 variant, 2 x, 3 sim_s, 4 alloc_s, 5 other_s, 6 seed_s
alloc_part(sim, a, o) = (a + o) > 0 ? sim * a / (a + o) : 0

if (!exists("workload")) workload = 'hackbench'
set title sprintf("%s: simulated run time per variant", workload) font ",13"
set ylabel 'run time (s)'
stats datafile using 2:3 nooutput
set xrange [-0.6:STATS_max_x + 0.6]
set yrange [0:*]
set offsets 0, 0, graph 0.12, 0
set style fill solid 0.85 border rgb 'gray30'
set boxwidth 0.6
set grid ytics lc rgb 'gray88'
set xtics nomirror
set ytics nomirror
set key top right noenhanced box opaque

plot datafile using 2:3:xtic(1) with boxes lc rgb '#9ecae1' \
	title 'allocator (simulated SLUB, cost table)', \
     '' using 2:($3 - alloc_part($3, $4, $5)) with boxes lc rgb '#bdbdbd' \
	title 'rest of hackbench (HB_MSG_CYCLES, fitted on none-4.5)', \
     '' using 2:3:(sprintf('%.2f', $3)) with labels offset 0,-0.8 notitle, \
     '' using 2:6 with points pt 7 ps 1.8 lc rgb '#d62728' \
	title 'seed (measured, one-CPU QEMU guest)', \
     '' using 2:6:(sprintf('%.2f', $6)) with labels offset 3.2,0 tc rgb '#d62728' notitle
