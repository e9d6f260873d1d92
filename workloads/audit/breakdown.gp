# breakdown.gp - the audit workload's time per loop iteration, one stacked
# bar per variant: base (the syscall and the user loop), allocator,
# formatting, lookup and locking, rule scanning, bookkeeping, records (ns).
# Reads breakdown.dat (workloads/audit/audit_report.c).
#
#   gnuplot -e "datafile='reports/audit/breakdown.dat'; outfile='reports/audit/breakdown.png'" workloads/audit/breakdown.gp
#
# outfile ending in .svg writes SVG, anything else PNG; -e "workload='audit'"
# puts the workload in the title.  The total is printed on each bar.

if (!exists("datafile")) datafile = 'breakdown.dat'
if (!exists("outfile")) outfile = 'breakdown.png'
if (!exists("workload")) workload = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

# breakdown.dat columns: 1 variant, 2 x, 3-9 the seven categories, 10 total.
array colour[7] = ['#bababa', '#d7191c', '#4575b4', '#fdae61', '#1a9641', '#984ea3', '#a6611a']
array part[7] = ['base (syscall + user loop)', 'allocator', 'formatting', \
		 'lookup and locking', 'rule scanning', 'bookkeeping', 'records']

set title sprintf('%s%sTime per loop iteration by category (ns)', workload, \
		  strlen(workload) ? ': ' : '') font ",13"
set style fill solid 0.9 border rgb 'gray30'
set boxwidth 0.6
set grid ytics lc rgb 'gray85'
set ylabel 'ns per loop iteration'
set xlabel 'variant'
set yrange [0:*]
set xtics nomirror noenhanced
set ytics nomirror
set offsets 0.6, 0.6, graph 0.08, 0
set key outside right top vertical reverse Left samplen 2 noenhanced

# Tallest first: each box covers the categories below it.
cum(n) = sum [i = 3:2 + n] column(i)
plot for [k = 7:1:-1] datafile using 2:(cum(k)) with boxes lc rgb colour[k] title part[k], \
     '' using 2:10:(sprintf('%.0f', $10)) with labels offset 0, 0.8 font ",10" notitle, \
     '' using 2:(NaN):xticlabels(1) notitle
