# audit_sweep.gp - audit rules against time: the lspp.16 measurements
# (reference/audit.md) beside the simulator (variant on-sid, model traced,
# the per-iteration time x the seed's loop length).  Left: seconds; right:
# each relative to its own 0-rule time.  Reads sweep.dat
# (workloads/audit/audit_report.c).
#
#   gnuplot -e "datafile='reports/audit/sweep.dat'; outfile='reports/audit/sweep.png'" workloads/audit/sweep.gp
#
# outfile ending in .svg writes SVG, anything else PNG.

if (!exists("datafile")) datafile = 'sweep.dat'
if (!exists("outfile")) outfile = 'sweep.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# sweep.dat columns: 1 rules, 2 measured s, 3 measured / 0 rules,
# 4 simulated s, 5 simulated / 0 rules.
set grid lc rgb 'gray85'
set xlabel 'audit rules'
set xrange [-3:95]
set yrange [0:*]
set key top left reverse Left samplen 3 noenhanced
set style line 1 lc rgb '#d7191c' lw 2 pt 7 ps 1.3
set style line 2 lc rgb '#2c7bb6' lw 2 pt 5 ps 1.1

set multiplot layout 1,2 title sprintf('%s%sRules scanned per syscall: lspp.16 measured vs simulated (on-sid, traced)', \
	workload, strlen(workload) ? ': ' : '') font ",13"
set title 'seconds for the seed''s loop'
set ylabel 's'
plot datafile using 1:2 with linespoints ls 1 title 'lspp.16 measured', \
     '' using 1:4 with linespoints ls 2 title 'simulated'
set title 'relative to 0 rules'
set ylabel 'time / time at 0 rules'
plot datafile using 1:3 with linespoints ls 1 title 'lspp.16 measured', \
     '' using 1:5 with linespoints ls 2 title 'simulated'
unset multiplot
