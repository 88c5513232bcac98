# Aggregates the benchmark samples of bench/run.sh into bench/results.csv.
#
# Input: tab-separated samples, one per measurement:
#   program  n  measure  ms  result  allocations  residual_ops  llvm_instructions  code_bytes
# (the last five may be empty). Output: CSV, one row per (program, n, measure)
# in the order of first appearance, with the median and minimum of `ms`, the
# number of samples, the result (MIXED when the samples disagree) and the
# first non-empty value of each count.
# Portable awk (mawk): no gawk extensions.

BEGIN {
    FS = "\t"
    OFS = ","
    nkeys = 0
}

{
    key = $1 SUBSEP $2 SUBSEP $3
    if (!(key in count)) {
        order[++nkeys] = key
        count[key] = 0
        result[key] = $5
        for (f = 6; f <= 9; f++)
            extra[key, f] = ""
    }
    count[key]++
    value[key, count[key]] = $4 + 0
    if (($5 "") != (result[key] ""))
        result[key] = "MIXED"
    for (f = 6; f <= 9; f++)
        if (extra[key, f] == "" && $f != "")
            extra[key, f] = $f
}

# Sorts value[key, 1..n] in place (insertion sort: a few dozen samples).
function sort_samples(key, n,    i, j, v) {
    for (i = 2; i <= n; i++) {
        v = value[key, i]
        for (j = i - 1; j >= 1 && value[key, j] > v; j--)
            value[key, j + 1] = value[key, j]
        value[key, j + 1] = v
    }
}

function median(key, n) {
    sort_samples(key, n)
    if (n % 2)
        return value[key, (n + 1) / 2]
    return (value[key, n / 2] + value[key, n / 2 + 1]) / 2
}

# Quotes a CSV field when it needs it (results such as lists contain spaces
# and parentheses, never commas or quotes, but stay safe).
function csv(s) {
    if (s ~ /[,"]/) {
        gsub(/"/, "\"\"", s)
        return "\"" s "\""
    }
    return s
}

END {
    print "program", "n", "measure", "median_ms", "min_ms", "samples", "result", \
          "allocations", "residual_ops", "llvm_instructions", "code_bytes"
    for (k = 1; k <= nkeys; k++) {
        key = order[k]
        split(key, part, SUBSEP)
        n = count[key]
        med = median(key, n)
        print part[1], part[2], part[3], sprintf("%.6f", med), sprintf("%.6f", value[key, 1]), \
              n, csv(result[key]), extra[key, 6], extra[key, 7], extra[key, 8], extra[key, 9]
    }
}
