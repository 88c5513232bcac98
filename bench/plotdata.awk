# Writes one gnuplot data file per program, DIR/plot_PROGRAM.dat, from
# bench/results.csv: a row per n (ascending, positive n only: the axes are
# logarithmic) at which an engine of the main table was measured (not the
# ablations' n), a column per engine (median ms, NaN when not measured).
# usage: awk -v dir=DIR -f plotdata.awk results.csv
# Portable awk (mawk): no gawk extensions.

BEGIN {
    FS = ","
    ncols = split("interp jit jit2 tlc_run c_gcc c_clang luajit node pypy", col, " ")
    title = "\"n\" \"Interp\" \"JIT\" \"JIT 2\" \"tlc run (process)\" \"C gcc -O2\" " \
            "\"C clang-19 -O2\" \"LuaJIT\" \"node (V8)\" \"PyPy\""
    for (c = 1; c <= ncols; c++)
        plotted[col[c]] = 1
    nprograms = 0
}

FNR > 1 && $2 + 0 > 0 && ($3 in plotted) {
    if (!($1 in seen)) {
        seen[$1] = 1
        program[++nprograms] = $1
        nn[$1] = 0
    }
    if (!(($1, $2) in known)) {
        known[$1, $2] = 1
        n_of[$1, ++nn[$1]] = $2 + 0
    }
    value[$1, $2 + 0, $3] = $4
}

END {
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        m = nn[p]
        for (i = 2; i <= m; i++) {       # ascending n (insertion sort)
            v = n_of[p, i]
            for (k = i - 1; k >= 1 && n_of[p, k] > v; k--)
                n_of[p, k + 1] = n_of[p, k]
            n_of[p, k + 1] = v
        }
        file = dir "/plot_" p ".dat"
        print title > file
        for (i = 1; i <= m; i++) {
            n = n_of[p, i]
            line = sprintf("%.0f", n)
            for (c = 1; c <= ncols; c++)
                line = line " " (((p, n, col[c]) in value) ? value[p, n, col[c]] : "NaN")
            print line > file
        }
        close(file)
    }
}
