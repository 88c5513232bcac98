#!/usr/bin/env bash
# End-to-end tests of `tlc bench` (docs/cli.md): the bench.* lines and their
# values, the program's output printed by every run, a later run of the JIT
# compiling nothing (cached code), the options it shares with `tlc run`, and
# bad command lines (status 2, one `tlc: bench: ...` line, then the usage).
#
# usage: bench_cli.sh TLC_BINARY EXAMPLES_DIR [ENGINE...]
#   ENGINE  the engines to check besides the default (jit), e.g. "interp pe"
# Ends with "N passed, M failed"; exit status 0 iff every check passed.
set -u

if [ "$#" -lt 2 ]; then
    echo "usage: $0 TLC_BINARY EXAMPLES_DIR [ENGINE...]" >&2
    exit 2
fi
tlc=$1
examples=$2
shift 2
engines=("$@")
if [ ! -x "$tlc" ]; then
    echo "$0: $tlc: not an executable" >&2
    exit 2
fi

source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/engine_args.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-bench.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

# v NAME: the value of the line `bench.NAME: VALUE` of ./out (empty when
# absent).
v() {
    sed -n "s/^bench\.$1: \{0,1\}//p" out | head -n 1
}

is_ms() {
    [[ $1 =~ ^[0-9]+\.[0-9]{3,6}$ ]]
}

# ------------------------------------------------ the JIT, compiling from the start --
fact20=2432902008176640000
t "jit" 0 bench --jit-threshold=0 --repeat=4 "$examples/factorial.tlc" 20 && {
    expect "bench.file" [ "$(v file)" = "$examples/factorial.tlc" ]
    expect "bench.engine" [ "$(v engine)" = jit ]
    expect "bench.n" [ "$(v n)" = 20 ]
    expect "bench.repeat" [ "$(v repeat)" = 4 ]
    expect "bench.result is 20!" [ "$(v result)" = "$fact20" ]
    for k in init_ms run1_ms run2_ms; do
        expect "bench.$k is a time ('$(v $k)')" is_ms "$(v $k)"
    done
    IFS=, read -ra runs <<<"$(v runs_ms)"
    expect "bench.runs_ms has 4 times ('$(v runs_ms)')" [ ${#runs[@]} = 4 ]
    expect "bench.run1_ms is the first of bench.runs_ms" [ "${runs[0]}" = "$(v run1_ms)" ]
    # the median of runs 2..4 is the middle one of the three
    mid=$(printf '%s\n' "${runs[@]:1}" | sort -g | sed -n 2p)
    expect "bench.run2_ms is the median of runs 2..4" [ "$mid" = "$(v run2_ms)" ]
    # run 1 compiles, later runs reuse the code: nothing compiled after run 1
    expect "run 1 of the JIT compiles (jit.compile_ms > 0)" \
        awk -v x="$(v jit.compile_ms)" 'BEGIN { exit !(x > 0) }'
    expect "runs 2.. compile nothing (later_compile_ms '$(v later_compile_ms)')" \
        [ "$(v later_compile_ms)" = 0.000 ]
    expect "runs 2.. specialize nothing" [ "$(v later_specializations)" = 0 ]
    expect "run 1 is slower than the cached runs" \
        awk -v a="$(v run1_ms)" -v b="$(v run2_ms)" 'BEGIN { exit !(a > b) }'
    expect "no allocation in the loop (bench.allocations '$(v allocations)')" \
        [ "$(v allocations)" -le 2 ]
    for k in jit.frontend_ms pe.ms pe.specializations jit.llvm_ir_ms jit.llvm_opt_ms \
        jit.llvm_codegen_ms jit.code_bytes jit.methods.primary; do
        expect "bench.$k present" [ -n "$(v "$k")" ]
    done
    expect "the statistics are after run 1: one specialization" [ "$(v pe.specializations)" = 1 ]
    # the bench.* lines come in the documented order, nothing else on stdout
    expect "line order" [ "$(sed -n '1,12s/:.*//p' out | tr '\n' ' ')" = \
        "bench.file bench.engine bench.n bench.repeat bench.result bench.init_ms bench.run1_ms bench.run2_ms bench.runs_ms bench.allocations bench.later_compile_ms bench.later_specializations " ]
    expect "only bench.* lines" [ "$(grep -vc '^bench\.' out)" = 0 ]
    expect "nothing on stderr" [ ! -s err ]
}

# ------------------------------------------------ tiered --
# by default (threshold 1000), a loop shorter than the threshold never
# reaches the JIT: nothing compiled, LLVM never started
t "tiered, cold" 0 bench --repeat=2 "$examples/factorial.tlc" 20 && {
    expect "tiered, cold: 20!" [ "$(v result)" = "$fact20" ]
    expect "tiered, cold: nothing specialized" [ "$(v pe.specializations)" = 0 ]
    expect "tiered, cold: LLVM never started" [ -z "$(grep '^bench.jit.llvm' out)" ]
}
# a loop that runs past the threshold is handed over in run 1 and again,
# from the cached code, in later runs
t "tiered, hot" 0 bench --jit-threshold=10 --repeat=3 "$examples/factorial.tlc" 30 && {
    expect "tiered, hot: 30!" [ "$(v result)" = -8764578968847253504 ]
    expect "tiered, hot: run 1 specializes" [ "$(v pe.specializations)" = 1 ]
    expect "tiered, hot: run 1 compiles" awk -v x="$(v jit.compile_ms)" 'BEGIN { exit !(x > 0) }'
    expect "tiered, hot: runs 2.. compile nothing" [ "$(v later_compile_ms)" = 0.000 ]
    expect "tiered, hot: runs 2.. specialize nothing" [ "$(v later_specializations)" = 0 ]
}

# one run: no run2_ms, no later_*
t "--repeat=1" 0 bench --repeat=1 "$examples/fibonacci.tlc" 90 && {
    expect "fib(90)" [ "$(v result)" = 2880067194370816120 ]
    expect "no run2_ms with one run" [ -z "$(grep '^bench.run2_ms' out)" ]
    expect "runs_ms is run1_ms" [ "$(v runs_ms)" = "$(v run1_ms)" ]
}

# the default repeat is 5
t "default repeat" 0 bench "$examples/accumulator.tlc" -7 && {
    expect "default repeat 5" [ "$(v repeat)" = 5 ]
    expect "accumulator -7" [ "$(v result)" = 7 ]
}

# ------------------------------------------------ the run options --
t "--stats" 0 bench --jit-threshold=0 --stats --repeat=2 "$examples/factorial.tlc" 10 && {
    expect "--stats: stdout keeps the bench lines" [ "$(v result)" = 3628800 ]
    for k in run.allocations run.ms jit.frontend_ms pe.ms jit.compile_ms; do
        expect "--stats: $k on stderr" grep -q "^$k: " err
    done
    expect "--stats: nothing else on stderr" [ "$(grep -vc '^[a-z_.]*: ' err)" = 0 ]
}
for level in auto O0 O1 O2 O3; do
    t "--llvm-opt=$level" 0 bench --llvm-opt=$level --repeat=2 "$examples/fibonacci.tlc" 50 &&
        expect "--llvm-opt=$level: fib(50)" [ "$(v result)" = 12586269025 ]
done
t "virtuals" 0 bench --jit-threshold=0 --repeat=2 "$examples/factorial.tlc" 30 && with=$(v allocations)
t "--no-virtuals" 0 bench --jit-threshold=0 --no-virtuals --repeat=2 "$examples/factorial.tlc" 30 && {
    expect "--no-virtuals: 30!" [ "$(v result)" = -8764578968847253504 ]
    expect "--no-virtuals allocates in the loop ($(v allocations) vs ${with:-?})" \
        [ "$(v allocations)" -gt $((${with:-0} + 30)) ]
}
t "--dump=residual" 0 bench --dump=residual --repeat=2 "$examples/abs.tlc" -5 && {
    expect "--dump=residual: result" [ "$(v result)" = 5 ]
    expect "--dump=residual: the residual graph on stderr" grep -q "residual" err
}
t "--dot" 0 bench --dot abs.dot --repeat=2 "$examples/abs.tlc" 3 &&
    expect "--dot writes the graph" grep -q "digraph" abs.dot

# the program's own output, printed by every run, before the bench lines
cat >prints.tlc <<'EOF'
    PUSHARG
    PICK 0
    PRINT
    PUSH 1
    ADD
    RETURN
EOF
t "output of every run" 0 bench --repeat=3 prints.tlc 41 && {
    expect "three runs print 41 three times" [ "$(head -n 3 out | tr '\n' ' ')" = "41 41 41 " ]
    expect "then the bench lines" [ "$(sed -n 4p out)" = "bench.file: prints.tlc" ]
    expect "result 42" [ "$(v result)" = 42 ]
}
# a program without a result
printf 'main:\n    RETURN\n' >empty.tlc
t "no result" 0 bench --repeat=2 empty.tlc 1 &&
    expect "empty bench.result" [ "$(grep '^bench.result' out)" = "bench.result:" ]

# ------------------------------------------------ the other engines --
# (NAME[:LEVEL][@T][+novirt] as in tests/e2e/engine_args.sh)
for e in "${engines[@]}"; do
    engine_args_for "$e"
    t "$e" 0 bench "${engine_args[@]}" --repeat=3 "$examples/accumulator.tlc" 1000 && {
        expect "$e: result" [ "$(v result)" = 500500 ]
        expect "$e: bench.engine" [ "$(v engine)" = "${e%%[:@+]*}" ]
        case $e in
        interp)
            expect "interp: no engine start" [ "$(v init_ms)" = 0.000000 ]
            expect "interp: no driver statistics" [ -z "$(grep '^bench\.\(jit\|pe\|later\)' out)" ]
            expect "interp: allocates in the loop" [ "$(v allocations)" -gt 1000 ]
            ;;
        pe)
            expect "pe: runs 2.. specialize nothing" [ "$(v later_specializations)" = 0 ]
            expect "pe: runs 2.. spend no partial evaluation" [ "$(v later_compile_ms)" = 0.000 ]
            expect "pe: no LLVM" [ -z "$(grep '^bench.jit.llvm' out)" ]
            ;;
        esac
    }
done

# ------------------------------------------------ errors --
printf '    PUSH 1\n    PUSH 0\n    DIV\n    RETURN\n' >div.tlc
t "run-time error" 1 bench --repeat=2 div.tlc 1 && {
    "$tlc" run div.tlc 1 >run.out 2>run.err
    expect "the error line is tlc run's" [ "$(cat err)" = "$(cat run.err)" ]
    expect "no bench lines after an error" [ ! -s out ]
}
t "missing file" 66 bench nonexistent.tlc 1 &&
    expect "missing file: message" grep -q "^tlc: nonexistent.tlc: cannot read" err
printf 'main:\n    FROB\n' >bad.tlc
t "bad assembly" 65 bench bad.tlc 1 && expect "bad assembly: message" grep -q "^tlc: bad.tlc:2:" err

# bad command lines: status 2, the message on the first line of stderr, the
# usage after it, nothing on stdout
bad() {
    local msg=$1
    shift
    t "bad: $*" 2 bench "$@" && {
        expect "bad: $*: message '$msg'" [ "$(head -n 1 err)" = "tlc: bench: $msg" ]
        expect "bad: $*: usage follows" [ "$(sed -n 2p err)" = "usage: tlc bench [RUN OPTIONS] [--repeat=R] FILE N" ]
        expect "bad: $*: stdout empty" [ ! -s out ]
    }
}
f=$examples/factorial.tlc
bad "missing input file" --repeat=2
bad "missing input N" "$f"
bad "N must be a 64-bit decimal integer, not 'x1'" "$f" x1
bad "N must be a 64-bit decimal integer, not '99999999999999999999'" "$f" 99999999999999999999
bad "unexpected argument 3" "$f" 1 3
bad "--repeat takes a number from 1 to 1000000, not '0'" --repeat=0 "$f" 1
bad "--repeat takes a number from 1 to 1000000, not '1000001'" --repeat=1000001 "$f" 1
bad "--repeat takes a number from 1 to 1000000, not 'many'" --repeat=many "$f" 1
bad "--repeat takes a number from 1 to 1000000, not ''" --repeat= "$f" 1
bad "unknown option --repeat" --repeat "$f" 1
bad "--jit-threshold takes a count >= 0, not '-3'" --jit-threshold=-3 "$f" 1
bad "unknown option --bogus" --bogus "$f" 1
bad "unknown engine 'fast'" --engine=fast "$f" 1
bad "--llvm-opt takes auto, O0, O1, O2 or O3, not 'O4'" --llvm-opt=O4 "$f" 1
bad "unknown dump in '--dump=graphs,nope'" --dump=graphs,nope "$f" 1
bad "--dot needs a file name" "$f" 1 --dot
# the run options are parsed by run's parser: the same messages
for args in "--llvm-opt=fast" "--engine=x" "--dump=x" "--dot"; do
    "$tlc" run "$f" $args >/dev/null 2>run.err
    "$tlc" bench "$f" 1 $args >/dev/null 2>bench.err
    expect "'$args': run and bench say the same" \
        [ "$(head -n 1 run.err | sed 's/^tlc: run:/tlc: X:/')" = \
        "$(head -n 1 bench.err | sed 's/^tlc: bench:/tlc: X:/')" ]
done

t "--help" 0 bench --help && {
    expect "--help: usage on stdout" [ "$(head -n 1 out)" = "usage: tlc bench [RUN OPTIONS] [--repeat=R] FILE N" ]
    for o in --engine --llvm-opt --no-virtuals --stats --dump --repeat; do
        expect "--help describes $o" grep -q -- "$o" out
    done
}
t "tlc --help names bench" 0 --help && expect "tlc --help: bench" grep -q "^  bench " out

finish
