# advice.gp - `slabsim advise`'s proposals by replayed saving: for each of
# the best 25 (advice.csv's order) the saving at the end of the trace and
# at the peak footprint, in KiB; a negative bar is a cost.  Reads the
# advice directory's savings.dat (docs/advise.md).
#
#   gnuplot -e "datafile='reports/smack17k/advise-patch2/savings.dat'; outfile='savings.png'" sim/advise/advice.gp
#
# outfile ending in .svg writes SVG, anything else PNG.  Optional:
# -e "title='smack17k patch2 on arm32-3.10'" names the trace in the title.

if (!exists("datafile")) datafile = 'savings.dat'
if (!exists("outfile")) outfile = 'savings.png'
if (!exists("title")) title = ''

if (strlen(outfile) > 4 && outfile[strlen(outfile)-3:] eq '.svg') {
	set terminal svg size 1200,700 font ",11" dynamic background rgb 'white'
} else {
	set terminal pngcairo size 1200,700 font ",11"
}
set output outfile

set title sprintf("Replayed savings by proposal%s%s", strlen(title) ? ": " : "", title) noenhanced
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
# the x labels run down and to the right at -45 degrees from their tick:
# at most ADV_LABEL_MAX characters of font 9 (about 5.4 px each, 0.71 of
# that across and down), so the last one needs ~160 px right of its tick
# and every one as much below the axis
ADV_LABEL_MAX = 42
set bmargin 15
set rmargin 26
set xtics rotate by -45 left noenhanced font ",9"
set ylabel 'saving (KiB; below 0: a cost)'
set grid ytics
set key top right
set xzeroaxis lt -1

# a label past ADV_LABEL_MAX is cut with an ellipsis (advice.csv has it whole)
short(s) = strlen(s) > ADV_LABEL_MAX ? s[1:ADV_LABEL_MAX-1].'…' : s

# savings.dat: 1 rank, 2 saving at the end, 3 at the peak, 4 label
plot datafile using 2:xtic(short(strcol(4))) title 'at the end of the trace' lc rgb '#2b6cb0', \
     '' using 3 title 'at the peak footprint' lc rgb '#dd6b20'
