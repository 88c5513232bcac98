# Time per n, per engine, one panel per program (log-log), from the data
# files bench/plotdata.awk writes (one column per engine, NaN: not measured).
# usage: gnuplot -e "dir='DIR'; out='FILE.png'; programs='factorial ...'" plot.gp
nprog = words(programs)
set terminal pngcairo size 520*nprog,520 font ",10"
set output out
set datafile missing "NaN"
set logscale xy
set format x "10^{%L}"
set format y "10^{%L}"
set xlabel "n"
set ylabel "time (ms)"
set grid
set key below maxrows 3 font ",8"
# one fixed colour and point per engine, the same in every panel (the
# default line types repeat their colours after eight)
colour(c) = word("#8e44ad #c0392b #e67e22 #7f8c8d #2c3e50 #2980b9 #27ae60 #16a085 #d4ac0d", c - 1)
set multiplot layout 1,nprog
do for [i=1:nprog] {
    p = word(programs, i)
    set title p
    plot for [c=2:10] sprintf("%s/plot_%s.dat", dir, p) using 1:c with linespoints \
        lc rgb colour(c) pt c title columnheader(c)
}
unset multiplot
