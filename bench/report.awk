# Writes bench/RESULTS.md (mode=results) or the README's results table
# (mode=readme) from the files bench/run.sh produces:
#   1. meta:    tab-separated key/value lines (date, machine, versions, command,
#               the configuration)
#   2. checks:  tab-separated engine/program/n/result/C result, one line per
#               result at a small n that differs from the C baseline's
#   3. results.csv (bench/summarize.awk)
# Portable awk (mawk): no gawk extensions.

BEGIN {
    nchecks = 0
}

FILENAME == ARGV[1] {
    i = index($0, "\t")
    meta[substr($0, 1, i - 1)] = substr($0, i + 1)
    next
}

FILENAME == ARGV[2] {
    split($0, f, "\t")
    nchecks++
    check[nchecks] = f[1] " prints `" f[4] "` for " f[2] " " f[3] " (C: `" f[5] "`)"
    next
}

FILENAME == ARGV[3] && FNR > 1 {
    split($0, f, ",")
    k = f[1] SUBSEP f[2] SUBSEP f[3]
    med[k] = f[4] + 0
    res[k] = f[7]
    alloc[k] = f[8]
    resops[k] = f[9]
    instr[k] = f[10]
    code[k] = f[11]
}

function has(p, n, m) {
    return (p SUBSEP n SUBSEP m) in med
}

function get(p, n, m) {
    return med[p SUBSEP n SUBSEP m]
}

# Milliseconds with about three significant digits.
function ms(x) {
    if (x >= 100)
        return sprintf("%.0f", x)
    if (x >= 10)
        return sprintf("%.1f", x)
    if (x >= 1)
        return sprintf("%.2f", x)
    if (x >= 0.01)
        return sprintf("%.3f", x)
    return sprintf("%.2g", x)
}

function cell(p, n, m) {
    return has(p, n, m) ? ms(get(p, n, m)) : "—"
}

function ratio(a, b,    r) {
    if (b <= 0)
        return "—"
    r = a / b
    if (r >= 100)
        return sprintf("%.0f×", r)
    if (r >= 0.01)
        return sprintf("%.2f×", r)
    return sprintf("%.1g×", r)
}

# 10^k for powers of ten from 1000 on, the number otherwise.
function fmt_n(n,    k, m) {
    if (n < 1000)
        return n
    k = 0
    for (m = n; m >= 10 && m % 10 == 0; k++)
        m = m / 10
    return m == 1 ? "10^" k : n
}

# The faster C baseline (gcc or clang), -1 when not measured.
function best_c(p, n,    g, c) {
    g = has(p, n, "c_gcc") ? get(p, n, "c_gcc") : -1
    c = has(p, n, "c_clang") ? get(p, n, "c_clang") : -1
    if (g < 0 || (c >= 0 && c < g))
        return c
    return g
}

# The fastest whole-process peer of (p, n); sets best_peer_name.
function best_peer(p, n,    i, t, best) {
    best = -1
    best_peer_name = ""
    for (i = 1; i <= npeers; i++)
        if (has(p, n, peer[i])) {
            t = get(p, n, peer[i])
            if (best < 0 || t < best) {
                best = t
                best_peer_name = peer_title[peer[i]]
            }
        }
    return best
}

# A result of a timed run that differs from the C baseline's is marked.
function mark(p, n, m) {
    if (!has(p, n, m) || !has(p, n, "c_gcc"))
        return ""
    return ((res[p SUBSEP n SUBSEP m] "") == (res[p SUBSEP n SUBSEP "c_gcc"] "")) ? "" : " †"
}

function setup(    i) {
    nprograms = split(meta["programs"], program, " ")
    nns = split(meta["ns"], ns, " ")
    nabl = split(meta["ablation_ns"], abl_ns, " ")
    npeers = split(meta["peers"], peer, " ")
    peer_title["luajit"] = "LuaJIT"
    peer_title["node"] = "node (V8)"
    peer_title["pypy"] = "PyPy"
    min_n = ns[1]
    for (i = 2; i <= nns; i++)
        if (ns[i] + 0 < min_n + 0)
            min_n = ns[i]
}

# The interpreter's cell: its time, or "skipped" past the time budget.
function interp_cell(p, n, m) {
    if (has(p, n, m))
        return ms(get(p, n, m))
    if (has(p, n, m "_skipped"))
        return "skipped"
    return "—"
}

function ratio_cell(p, n, a, b) {
    if (has(p, n, a) && has(p, n, b))
        return ratio(get(p, n, a), get(p, n, b))
    return "—"
}

# JIT 2 over the faster C baseline.
function c_ratio_cell(p, n,    c) {
    c = best_c(p, n)
    if (has(p, n, "jit2") && c > 0)
        return ratio(get(p, n, "jit2"), c)
    return "—"
}

function main_table(p,    i, n) {
    print "| n | Interp | JIT | JIT 2 | JIT, T=0 | JIT 2, T=0 | C gcc -O2 | C clang-19 -O2 | Interp/JIT 2 | JIT 2/C |"
    print "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (i = 1; i <= nns; i++) {
        n = ns[i]
        print "| " fmt_n(n) " | " interp_cell(p, n, "interp") " | " cell(p, n, "jit") " | " \
            cell(p, n, "jit2") " | " cell(p, n, "jit_eager") " | " cell(p, n, "jit_eager2") " | " \
            cell(p, n, "c_gcc") " | " cell(p, n, "c_clang") " | " \
            ratio_cell(p, n, "interp", "jit2") " | " c_ratio_cell(p, n) " |"
    }
}

function readme_table(    i, j, p, n, c, cc) {
    print "| program | n | Interp | JIT | JIT 2 | C -O2 | Interp/JIT 2 | JIT 2/C |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|"
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        for (i = 1; i <= nns; i++) {
            n = ns[i]
            c = best_c(p, n)
            cc = "—"
            if (c > 0)
                cc = ms(c)
            print "| " p " | " fmt_n(n) " | " interp_cell(p, n, "interp") " | " cell(p, n, "jit") \
                " | " cell(p, n, "jit2") " | " cc " | " ratio_cell(p, n, "interp", "jit2") " | " \
                c_ratio_cell(p, n) " |"
        }
    }
}

function compile_table(    j, p, n, d) {
    n = min_n
    print "| program | engine start | of which frontend + BTA | partial evaluation | LLVM IR | LLVM optimization | LLVM codegen | all compile work | JIT − JIT 2 | compiled by runs 2.. |"
    print "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        d = "—"
        if (has(p, n, "jit_eager") && has(p, n, "jit_eager2"))
            d = ms(get(p, n, "jit_eager") - get(p, n, "jit_eager2"))
        print "| " p " | " cell(p, n, "init") " | " cell(p, n, "frontend") " | " cell(p, n, "pe") \
            " | " cell(p, n, "llvm_ir") " | " cell(p, n, "llvm_opt") " | " \
            cell(p, n, "llvm_codegen") " | " cell(p, n, "compile") " | " d " | " \
            cell(p, n, "later_compile") " |"
    }
}

function peers_table(    i, j, k, p, n, b, line, head, rule, last) {
    head = "| program | n | tlc run | tlc run, LLVM only | C gcc -O2"
    rule = "|---|---:|---:|---:|---:"
    for (k = 1; k <= npeers; k++) {
        head = head " | " peer_title[peer[k]]
        rule = rule "|---:"
    }
    print head " | tlc run / fastest peer |"
    print rule "|---:|"
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        for (i = 1; i <= nns; i++) {
            n = ns[i]
            line = "| " p " | " fmt_n(n) " | " cell(p, n, "tlc_run") " | " cell(p, n, "tlc_llvm") \
                " | " cell(p, n, "c_gcc")
            for (k = 1; k <= npeers; k++)
                line = line " | " cell(p, n, peer[k]) mark(p, n, peer[k])
            b = best_peer(p, n)
            last = "—"
            if (b > 0 && has(p, n, "tlc_run"))
                last = ratio(get(p, n, "tlc_run"), b) " (" best_peer_name ")"
            print line " | " last " |"
        }
    }
}

function count_cell(v) {
    return v == "" ? "—" : v
}

# One row of the ablation table; `prev`: the row the speed-up is against.
function ablation_row(p, n, m, title, prev,    k, t, up) {
    k = p SUBSEP n SUBSEP m
    if (k in med) {
        t = ms(med[k])
        up = ""
        if (prev != "" && (p SUBSEP n SUBSEP prev) in med)
            up = ratio(med[p SUBSEP n SUBSEP prev], med[k])
        print "| " p " | " fmt_n(n) " | " title " | " t " | " up " | " count_cell(alloc[k]) " | " \
            count_cell(resops[k]) " | " count_cell(instr[k]) " | " count_cell(code[k]) " |"
    } else if ((p SUBSEP n SUBSEP m "_skipped") in med) {
        print "| " p " | " fmt_n(n) " | " title " | skipped (time budget) | | | | | |"
    }
}

function ablation_table(    i, j, p, n) {
    print "| program | n | layers | ms per run | speed-up over the row above | allocations per run | residual ops | LLVM instructions | code bytes |"
    print "|---|---:|---|---:|---:|---:|---:|---:|---:|"
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        for (i = 1; i <= nabl; i++) {
            n = abl_ns[i]
            ablation_row(p, n, "abl_interp", "native interpreter (`--engine=interp`)", "")
            ablation_row(p, n, "abl_novirt_o0", "+ partial evaluation (`--no-virtuals --llvm-opt=O0`)", "abl_interp")
            ablation_row(p, n, "abl_o0", "+ virtual objects (`--llvm-opt=O0`)", "abl_novirt_o0")
            ablation_row(p, n, "abl_full", "+ LLVM optimization (default)", "abl_o0")
            ablation_row(p, n, "abl_novirt", "all but virtual objects (`--no-virtuals`)", "")
        }
    }
}

# One target row: what, measured, met/missed.
function target(what, measured, ok) {
    printf "| %s | %s | %s |\n", what, measured, ok == "" ? "not measured" : (ok ? "met" : "**missed**")
}

# The largest ratio of sample `key` to the faster C baseline at every
# measured n >= 10^8 of program p, -1 if none; sets worst_n.
function worst_c(p, key,    i, n, c, r, worst) {
    worst = -1
    for (i = 1; i <= nns; i++) {
        n = ns[i]
        c = best_c(p, n)
        if (n + 0 >= 100000000 && has(p, n, key) && c > 0) {
            r = get(p, n, key) / c
            if (r > worst) {
                worst = r
                worst_n = n
            }
        }
    }
    return worst
}

# JIT 2 against the faster C baseline at every measured n >= 10^8, judged
# on LLVM's code (JIT 2 with T=0: the code the JIT settles on); the tiered
# JIT 2 beside it may still be baseline code by the tier-up's cost rule
# (docs/benchmarks.md, "Targets").
function target_c(p, bound,    eager, eager_n, tiered, tiered_n, measured) {
    eager = worst_c(p, "jit_eager2")
    eager_n = worst_n
    tiered = worst_c(p, "jit2")
    tiered_n = worst_n
    measured = eager < 0 ? "—" : sprintf("%.2f× (worst: n = %s)", eager, fmt_n(eager_n))
    if (tiered >= 0)
        measured = measured sprintf("; tiered JIT 2: %.2f× (worst: n = %s)", tiered, fmt_n(tiered_n))
    target("JIT 2 (T=0: LLVM's code) ≤ " sprintf("%.1f", bound) "× C -O2, " p ", n ≥ 10^8", \
        measured, eager < 0 ? "" : eager <= bound)
}

# The largest JIT − JIT 2 at the smallest n over the programs, of the
# samples `first` and `second`; sets worst_program.
function worst_overhead(first, second,    j, p, d, worst) {
    worst = -1
    for (j = 1; j <= nprograms; j++) {
        p = program[j]
        if (has(p, min_n, first) && has(p, min_n, second)) {
            d = get(p, min_n, first) - get(p, min_n, second)
            if (d > worst) {
                worst = d
                worst_program = p
            }
        }
    }
    return worst
}

function targets(    j, p, d, worst, where, k, i, n, b, r, pr, pn, eager, eager_where) {
    print "| target | measured | status |"
    print "|---|---|---|"
    target_c("factorial", 1.0)
    target_c("fibonacci", 1.0)
    target_c("accumulator", 0.5)
    worst = worst_overhead("jit", "jit2")
    where = worst_program
    eager = worst_overhead("jit_eager", "jit_eager2")
    eager_where = worst_program
    target("compile overhead JIT − JIT 2 ≤ 5 ms (n = " fmt_n(min_n) ")", \
        worst < 0 ? "—" : sprintf("%s ms (worst: %s; tiered, nothing hot enough to compile)", \
        ms(worst), where) (eager < 0 ? "" : sprintf("; compiling from the start " \
        "(`--jit-threshold=0`): %s ms (worst: %s)", ms(eager), eager_where)), \
        worst < 0 ? "" : worst <= 5)
    target("cold `tlc run examples/factorial.tlc 10` ≤ 30 ms", \
        has("factorial", 10, "cold_tlc") ? ms(get("factorial", 10, "cold_tlc")) " ms" \
        (has("factorial", 10, "cold_eager") ? "; compiling from the start " \
         "(`--jit-threshold=0`): " ms(get("factorial", 10, "cold_eager")) " ms" : "") \
        " (a C process: " ms(get("factorial", 10, "cold_c")) " ms)" : "—", \
        has("factorial", 10, "cold_tlc") ? get("factorial", 10, "cold_tlc") <= 30 : "")
    for (k = 1; k <= npeers; k++) {
        worst = -1
        for (j = 1; j <= nprograms; j++)
            for (i = 1; i <= nns; i++) {
                p = program[j]
                n = ns[i]
                if (has(p, n, "tlc_run") && has(p, n, peer[k])) {
                    r = get(p, n, "tlc_run") / get(p, n, peer[k])
                    if (r > worst) {
                        worst = r
                        pr = p
                        pn = n
                    }
                }
            }
        target("faster than " peer_title[peer[k]] " (whole process, every program and n)", \
            worst < 0 ? "—" : sprintf("tlc run / %s ≤ %.2f× (worst: %s, n = %s)", peer_title[peer[k]], \
            worst, pr, fmt_n(pn)), worst < 0 ? "" : worst < 1)
    }
    if (meta["missing_peers"] != "")
        target("faster than " meta["missing_peers"], "not installed", "")
}

function results(    j, i) {
    print "# Benchmark results"
    print ""
    print "Generated by `make bench` (`bench/run.sh`): the machine, the versions and the exact"
    print "command are below; what is measured and how is in"
    print "[docs/benchmarks.md](../docs/benchmarks.md). Times are in milliseconds, medians of " meta["repeat"]
    print "repetitions (JIT 2: of runs 2.." meta["inproc"] " of every `tlc bench` process)."
    print ""
    print "- Date: " meta["date"]
    print "- Machine: " meta["machine"]
    print "- jitgen: commit " meta["commit"]
    print "- gcc: " meta["gcc"]
    print "- clang: " meta["clang"]
    print "- LuaJIT: " meta["luajit"]
    print "- node: " meta["node"]
    print "- PyPy: " meta["pypy3"]
    print "- Command: `" meta["command"] "`"
    print ""
    if (plot) {
        print "![time per n, per engine and program (log-log)](results.png)"
        print ""
    }
    print "## Targets"
    print ""
    targets()
    print ""
    print "Why the missed targets are missed, and what would close them:"
    print "[ANALYSIS.md](ANALYSIS.md) (written by hand, not by the harness)."
    print ""
    print "## The JIT against the interpreter and C"
    print ""
    print "Interp: the native interpreter, `tlc bench --engine=interp`; \"skipped\" where one run"
    print "would take more than " meta["interp_budget"] " s (the time budget: predicted from its time at a"
    print "smaller n). JIT: the first call in a fresh process,"
    print "engine start included (`bench.init_ms + bench.run1_ms`). JIT 2: a later call in the"
    print "same process (compiled code reused). Both by default: tiered, the native"
    print "interpreter hands a loop over after 1000 backward jumps (a run too short for that"
    print "never compiles); T=0: the same with `--jit-threshold=0`, every frame compiled"
    print "from its start. C: the whole process of the baseline"
    print "(`bench/c/`); JIT 2/C compares with the faster of the two compilers, and is"
    print "meaningful only where the run is long against the start of a process (about"
    print ms(get("factorial", 10, "cold_c")) " ms here)."
    for (j = 1; j <= nprograms; j++) {
        print ""
        print "### " program[j]
        print ""
        main_table(program[j])
    }
    print ""
    print "## Compile time per layer"
    print ""
    print "At n = " fmt_n(min_n) ", from the engine's statistics after the first call"
    print "(`tlc bench --jit-threshold=0`: compiling from the start, the default would compile nothing):"
    print "engine start is `jg_driver_new` (loading the interpreter's graph image, binding-time"
    print "analysis, opening the LLVM backend library and starting LLVM); all compile work is `jit.compile_ms` (frontend + BTA,"
    print "partial evaluation, LLVM IR, optimization and code generation); JIT − JIT 2 is the"
    print "cost of a first call over a later one."
    print ""
    compile_table()
    print ""
    print "## Whole processes: tlc against C and the peers"
    print ""
    print "Every column is the wall-clock time of one whole process (start, compilation,"
    print "run, exit): `tlc run FILE N` (the default: baseline code first, LLVM once hot;"
    print "\"LLVM only\": `--tier-up=0`, docs/baseline.md), the C baseline, and the same"
    print "algorithm written for each peer (`bench/peers/`). Semantic differences: LuaJIT runs factorial and"
    print "fibonacci on `int64_t` FFI numbers (wrapping, like C) and the accumulator on"
    print "doubles; node uses doubles everywhere (rounded past 2^53, Infinity from 171!"
    print "and fib(1477) on); PyPy uses machine words with wrap-around (`__pypy__.intop`),"
    print "like C. † marks a result that differs from the C baseline's for that reason."
    if (npeers == 0)
        print "No peer was run here (`BENCH_PEERS`, or none installed)."
    print ""
    peers_table()
    print ""
    print "Every result of every engine and peer, at every n above and first at n = " meta["check_ns"] ","
    if (nchecks == 0) {
        print "is the C baseline's."
    } else {
        print "is the C baseline's, except these, where doubles are no longer exact:"
        print ""
        for (i = 1; i <= nchecks; i++)
            print "- " check[i]
    }
    print ""
    print "## Ablations: what each layer removes"
    print ""
    print "Time of a run once compiled (run 2 of a `tlc bench` process; the interpreter: run 1),"
    print "with the allocations of that run, and the residual operations, LLVM instructions and"
    print "machine code of everything compiled. Each row adds one layer to the row above it;"
    print "the last row takes only the virtual objects away. Every compiled row runs with"
    print "`--jit-threshold=0`, so that the whole run is compiled code."
    print ""
    ablation_table()
}

function readme(    i) {
    print "Medians on " meta["machine"] ", " meta["date"] ", times in ms"
    print "(`" meta["command"] "`):"
    print ""
    readme_table()
    print ""
    print "Interp: the native interpreter (skipped past a time budget of " meta["interp_budget"] " s per run). JIT:"
    print "first call, compilation included. JIT 2: second call in the same process. C: the faster of gcc"
    print "and clang-19 at -O2, whole process. The peers (LuaJIT, node, PyPy), the compile time"
    print "per layer, the ablations and the targets: [bench/RESULTS.md](bench/RESULTS.md)."
}

END {
    setup()
    if (mode == "readme")
        readme()
    else
        results()
}
