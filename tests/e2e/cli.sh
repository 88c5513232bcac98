#!/usr/bin/env bash
# Command-line tests of the `tlc` binary: help, bad command lines, missing
# files, corrupted and truncated bytecode files, and a few hundred seeded
# mutations of a small bytecode file (half of them with the CRC-32 re-sealed
# so that they reach the payload parser and the verifier).
#
# usage: cli.sh TLC_BINARY
#
# Exit statuses expected (docs/cli.md): 0 success, 1 run-time error, 2 bad
# command line, 65 invalid input file, 66 input file cannot be opened,
# 73 output file cannot be written. Never a crash (status >= 128) or a hang.
# Environment: TLC_CLI_MUTANTS (default 300), TLC_CLI_SEED (default 12345),
# TLC_BASELINE (default 1; 0 for a build without the baseline tier).
# Ends with "N passed, M failed"; exit status 0 iff every check passed.
set -u

if [ "$#" -ne 1 ]; then
    echo "usage: $0 TLC_BINARY" >&2
    exit 2
fi
tlc=$1
if [ ! -x "$tlc" ]; then
    echo "$0: $tlc: not an executable" >&2
    exit 2
fi
mutants=${TLC_CLI_MUTANTS:-300}
# TLC_BASELINE=0: the build has no baseline tier (not for x86-64,
# CMakeLists.txt JITGEN_BASELINE)
has_baseline=${TLC_BASELINE:-1}
seed=${TLC_CLI_SEED:-12345}

t_timeout=10
source "$(dirname "$0")/checks.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/tlc-cli.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2

error_kinds='TypeError|IndexError|ZeroDivisionError|AttributeError|StackUnderflow|StackOverflow|BranchError|InvalidOpcode|RecursionError'

# expect_out DESCRIPTION TEXT: ./out must be exactly TEXT (plus a newline).
expect_out() {
    if [ "$(cat out)" = "$2" ]; then
        pass
    else
        fail "$1: stdout is '$(head -c 200 out)', expected '$2'"
    fi
}

# expect_err_nonempty DESCRIPTION: ./err must explain the failure.
expect_err_nonempty() {
    if [ -s err ]; then
        pass
    else
        fail "$1: no message on stderr"
    fi
}

# A small program with strings, two classes, methods, a loop, a CALL and
# output: the subject of the corruption tests.
cat >sample.tlc <<'EOF'
# sample for the corruption tests: prints 3, 2, 1, 11, 30 and returns 36
    NEW value,add=add
    PICK 0
    PUSH 0
    SETATTR value
    PUSH 3
loop:
    PICK 0
    PRINT
    PICK 1
    PICK 1
    SEND add/1
    PUSH 1
    SUB
    PICK 0
    BR_COND loop
    POP
    CALL eleven
    PRINT
    NEW k,get=get
    PICK 0
    PUSH 30
    SETATTR k
    SEND get/0
    PICK 0
    PRINT
    SWAP
    GETATTR value
    ADD
    RETURN
add:
    PUSHARG
    PUSHARG
    GETATTR value
    PUSHARGN 1
    ADD
    SETATTR value
    RETURN
get:
    PUSHARG
    GETATTR k
    RETURN
eleven:
    PUSH 11
    RETURN
EOF
sample_out=$'3\n2\n1\n11\n30\n36'

# ---------------------------------------------------------------- help ----
t "tlc --help" 0 --help && {
    if grep -qi usage out; then pass; else fail "tlc --help: no usage text on stdout"; fi
}
for cmd in run asm dis; do
    t "tlc $cmd --help" 0 "$cmd" --help && {
        if grep -qi usage out && grep -q "$cmd" out; then pass; else
            fail "tlc $cmd --help: no usage text naming '$cmd' on stdout"
        fi
    }
done

# ---------------------------------------------------- bad command lines ----
t "no command" 2
expect_err_nonempty "no command"
t "unknown command" 2 frobnicate
expect_err_nonempty "unknown command"
t "run without FILE" 2 run
t "asm without FILE" 2 asm
t "dis without FILE" 2 dis
t "run: unknown option" 2 run --bogus sample.tlc
t "run: unknown engine" 2 run --engine=no-such-engine sample.tlc
t "run: empty engine" 2 run --engine= sample.tlc
for bad in -1 x '' 1k; do
    t "run: --jit-threshold='$bad'" 2 run --jit-threshold="$bad" sample.tlc
    expect_err_nonempty "run: --jit-threshold='$bad'"
done
t "run: --jit-threshold=5 (tiered)" 0 run --jit-threshold=5 sample.tlc &&
    expect_out "run --jit-threshold=5" "$sample_out"
for bad in -1 x '' 10ms; do
    t "run: --tier-up='$bad'" 2 run --tier-up="$bad" sample.tlc
    expect_err_nonempty "run: --tier-up='$bad'"
done
t "run: --tier-up=0" 0 run --jit-threshold=1 --tier-up=0 sample.tlc &&
    expect_out "run --tier-up=0" "$sample_out"
# The LLVM backend library is opened only when a program needs LLVM: without
# it, what never compiles still runs, and what must compile fails cleanly.
nobackend=$work/no-such-dir/libjitgen-llvm.so
JITGEN_BACKEND=$nobackend t "no backend: interp" 0 run --engine=interp sample.tlc &&
    expect_out "no backend: interp" "$sample_out"
JITGEN_BACKEND=$nobackend t "no backend: pe" 0 run --engine=pe sample.tlc &&
    expect_out "no backend: pe" "$sample_out"
JITGEN_BACKEND=$nobackend t "no backend: jit, never hot" 0 run sample.tlc &&
    expect_out "no backend: jit, never hot" "$sample_out"
JITGEN_BACKEND=$nobackend t "no backend: jit from the start" 70 run --jit-threshold=0 sample.tlc
expect "no backend: the message names the library" grep -q "cannot open the LLVM backend: $nobackend" err
if [ "$has_baseline" = 1 ]; then
    JITGEN_BACKEND=$nobackend t "no backend: jit, hot, baseline code only" 0 run --jit-threshold=1 \
        sample.tlc && expect_out "no backend: jit, hot, baseline code only" "$sample_out"
else
    # no baseline tier in the build: hot code goes to LLVM
    JITGEN_BACKEND=$nobackend t "no backend: jit, hot, no baseline in the build" 70 run \
        --jit-threshold=1 sample.tlc
    expect "no backend: jit, hot, no baseline in the build: the message" \
        grep -q "LLVM could not start: cannot open the LLVM backend" err
fi
JITGEN_BACKEND=$nobackend t "no backend: jit, hot, no baseline tier" 70 run --jit-threshold=1 \
    --tier-up=0 sample.tlc
expect "no backend: jit, hot: the message" grep -q "LLVM could not start: cannot open the LLVM backend" err
JITGEN_BACKEND=$nobackend JITGEN_TIER_UP_NOW=1 t "no backend: jit, tier-up" 70 run \
    --jit-threshold=1 sample.tlc
expect "no backend: jit, tier-up: the message" grep -q "LLVM could not start: cannot open the LLVM backend" err
if [ "$has_baseline" = 1 ]; then
    JITGEN_BACKEND=$nobackend t "no backend: baseline" 0 run --engine=baseline sample.tlc &&
        expect_out "no backend: baseline" "$sample_out"
    # the baseline tier's machine code, disassembled without LLVM: every method
    # compiled, each instruction decoded (no `.byte`), ending with its epilogue
    JITGEN_BACKEND=$nobackend t "no backend: baseline --dump=asm" 0 run --engine=baseline \
        --dump=asm sample.tlc && expect_out "baseline --dump=asm" "$sample_out"
    expect "baseline --dump=asm: a method" grep -q "^; ---- baseline asm: .*, method 0 (blocks 0\.\." err
    expect "baseline --dump=asm: the prologue" grep -q "push rbp$" err
    expect "baseline --dump=asm: the epilogue" grep -q "ret$" err
    expect "baseline --dump=asm: every byte decoded" bash -c '! grep -q "\.byte" err'
else
    # a build without the baseline tier refuses the engine as a bad command line
    for cmd in run bench; do
        t "$cmd --engine=baseline: not in the build" 2 $cmd --engine=baseline sample.tlc 1
        expect "$cmd --engine=baseline: the message" grep -q \
            "^tlc: $cmd: engine 'baseline': the baseline tier generates x86-64 code only, and this build is not for x86-64$" err
        expect "$cmd --engine=baseline: nothing on stdout" test ! -s out
    done
fi
JITGEN_BACKEND=$tlc t "backend: not a library" 70 run --jit-threshold=0 sample.tlc
expect_err_nonempty "backend: not a library"
t "asm: unknown option" 2 asm --bogus sample.tlc
t "asm: -o without a file" 2 asm sample.tlc -o
t "dis: unknown option" 2 dis --bogus sample.tlc
t "run: extra argument" 2 run sample.tlc 1 2
for bad in abc 12x '' 1.5 0x10 99999999999999999999 9223372036854775808 \
    -9223372036854775809 -; do
    t "run: bad N '$bad'" 2 run sample.tlc "$bad"
    if [ -s out ]; then fail "run: bad N '$bad': the program ran (stdout not empty)"; else pass; fi
done

# ------------------------------------------------------ good command lines ----
t "run .tlc" 0 run sample.tlc && expect_out "run .tlc" "$sample_out"
t "run --engine=interp" 0 run --engine=interp sample.tlc && expect_out "run --engine=interp" "$sample_out"
t "run --stats" 0 run --stats sample.tlc && expect_out "run --stats (stdout unchanged)" "$sample_out"
cat >abs.tlc <<'EOF'
    PUSHARG
    PUSH 0
    LT
    BR_COND neg
    PUSHARG
    RETURN
neg:
    PUSH 0
    PUSHARG
    SUB
EOF
t "run N = INT64_MAX" 0 run abs.tlc 9223372036854775807 && expect_out "N = INT64_MAX" 9223372036854775807
t "run N = INT64_MIN" 0 run abs.tlc -9223372036854775808 && expect_out "N = INT64_MIN" -9223372036854775808
t "run N = -5" 0 run abs.tlc -5 && expect_out "N = -5" 5
t "asm -o" 0 asm sample.tlc -o sample.tlcb
if [ -s sample.tlcb ]; then pass; else fail "asm -o: no output file"; fi
t "run .tlcb" 0 run sample.tlcb && expect_out "run .tlcb" "$sample_out"
t "dis .tlcb" 0 dis sample.tlcb
for m in NEW SEND BR_COND CALL RETURN GETATTR; do
    if grep -q "$m" out; then pass; else fail "dis .tlcb: listing lacks $m"; fi
done
cp sample.tlc default.tlc
t "asm without -o" 0 asm default.tlc
if [ -s default.tlcb ] && cmp -s default.tlcb sample.tlcb; then pass; else
    fail "asm without -o: default.tlcb missing or different from sample.tlcb"
fi

# ------------------------------------------------------------ bad files ----
t "run: missing .tlc" 66 run does-not-exist.tlc
expect_err_nonempty "run: missing .tlc"
t "run: missing .tlcb" 66 run does-not-exist.tlcb
t "asm: missing input" 66 asm does-not-exist.tlc -o x.tlcb
if [ -e x.tlcb ]; then fail "asm: missing input: wrote x.tlcb"; else pass; fi
t "dis: missing input" 66 dis does-not-exist.tlcb
mkdir adir.tlcb
t "run: a directory" 66 run adir.tlcb
t "asm: unwritable output" 73 asm sample.tlc -o no-such-dir/x.tlcb
printf 'PUSH 1\nPRINT\n' >text.tlcb
t "run: assembly text named .tlcb" 65 run text.tlcb
expect_err_nonempty "run: assembly text named .tlcb"
printf 'PUSH 1\n\001PRINT\n' >ctrl.tlc
t "asm: control character in source" 65 asm ctrl.tlc -o ctrl.tlcb
if [ -e ctrl.tlcb ]; then fail "asm: bad source: output file written"; else pass; fi
printf 'BR nowhere\n' >bad.tlc
cp sample.tlcb keep.tlcb
t "asm: bad source keeps an existing output" 65 asm bad.tlc -o keep.tlcb
if cmp -s keep.tlcb sample.tlcb; then pass; else fail "asm: a failed assembly changed the existing output file"; fi
if grep -q 'bad.tlc:1' err; then pass; else fail "asm: the message does not name bad.tlc:1"; fi

# ------------------------------------------------------- corrupted files ----
size=$(wc -c <sample.tlcb)
if [ "$size" -lt 21 ]; then
    fail "sample.tlcb is only $size bytes"
fi

# put_byte FILE OFFSET VALUE: overwrites one byte in place.
put_byte() {
    # shellcheck disable=SC2059 # the format is the escaped byte
    printf "\\x$(printf %02x "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# get_byte FILE OFFSET: prints the byte's value.
get_byte() {
    od -An -v -tu1 -j "$2" -N 1 "$1" | tr -d ' '
}

# check_bad_file DESC FILE: run and dis must both reject FILE with 65 and a
# message naming it.
check_bad_file() {
    local desc=$1 f=$2
    t "$desc (run)" 65 run "$f"
    if grep -qF -- "$f" err; then pass; else fail "$desc: the message does not name $f"; fi
    t "$desc (dis)" 65 dis "$f"
}

cp sample.tlcb magic.tlcb
put_byte magic.tlcb 0 $(($(get_byte magic.tlcb 0) ^ 0x20))
check_bad_file "flipped magic byte" magic.tlcb
cp sample.tlcb payload.tlcb
put_byte payload.tlcb $((size - 2)) $(($(get_byte payload.tlcb $((size - 2))) ^ 0x01))
check_bad_file "flipped bit in the code" payload.tlcb
cp sample.tlcb trailing.tlcb
printf '\000' >>trailing.tlcb
check_bad_file "a trailing byte" trailing.tlcb
: >empty.tlcb
check_bad_file "an empty file" empty.tlcb

# every truncation
trunc_fail=0
for ((len = 0; len < size; len++)); do
    head -c "$len" sample.tlcb >trunc.tlcb
    timeout "$((10 * timeout_scale))" "$tlc" run trunc.tlcb >out 2>err
    st=$?
    timeout "$((10 * timeout_scale))" "$tlc" dis trunc.tlcb >/dev/null 2>&1
    st_dis=$?
    if [ "$st" != 65 ] || [ "$st_dis" != 65 ] || [ ! -s err ]; then
        fail "truncated to $len of $size bytes: run exited $st, dis $st_dis (expected 65 with a message)"
        trunc_fail=$((trunc_fail + 1))
    else
        pass
    fi
done

# CRC-32 (zlib's) of stdin's bytes, for re-sealing mutated payloads.
crc_table=()
for ((i = 0; i < 256; i++)); do
    c=$i
    for ((k = 0; k < 8; k++)); do
        if ((c & 1)); then c=$(((c >> 1) ^ 0xEDB88320)); else c=$((c >> 1)); fi
    done
    crc_table[i]=$c
done
crc32_of() { # FILE OFFSET: CRC-32 of FILE's bytes from OFFSET on
    local c=$((0xFFFFFFFF)) b
    for b in $(od -An -v -tu1 -j "$2" "$1"); do
        c=$((crc_table[(c ^ b) & 0xFF] ^ (c >> 8)))
    done
    echo $((c ^ 0xFFFFFFFF))
}
reseal() { # FILE: writes the CRC-32 of the payload into the header
    local c
    c=$(crc32_of "$1" 20)
    put_byte "$1" 16 $((c & 0xFF))
    put_byte "$1" 17 $(((c >> 8) & 0xFF))
    put_byte "$1" 18 $(((c >> 16) & 0xFF))
    put_byte "$1" 19 $(((c >> 24) & 0xFF))
}

# sanity check of the CRC code: re-sealing the intact file changes nothing
cp sample.tlcb resealed.tlcb
reseal resealed.tlcb
if cmp -s sample.tlcb resealed.tlcb; then pass; else
    fail "the test's own CRC-32 does not reproduce the header's checksum"
fi

# seeded mutants: odd ones damage any byte, even ones damage payload bytes and
# re-seal the checksum so that the parser and the verifier see the damage.
rng=$seed
rand() { # N: sets r to a pseudo-random number in 0..N-1 (LCG, 31 bits)
    rng=$(((rng * 1103515245 + 12345) & 0x7FFFFFFF))
    r=$(((rng >> 8) % $1))
}
n_rejected=0
n_ran=0
n_loop=0
for ((m = 1; m <= mutants; m++)); do
    cp sample.tlcb mut.tlcb
    rand 3
    changes=$((r + 1))
    what=""
    for ((c = 0; c < changes; c++)); do
        if ((m % 2)); then
            rand "$size"
            pos=$r
        else
            rand $((size - 20))
            pos=$((r + 20))
        fi
        rand 4
        case $r in
        0) rand 8; val=$(($(get_byte mut.tlcb "$pos") ^ (1 << r))) ;;
        1) rand 256; val=$r ;;
        2) rand 36; val=$r ;; # an opcode-like value
        3) rand 2; val=$((r ? 0xFF : 0)) ;;
        esac
        put_byte mut.tlcb "$pos" "$val"
        what="$what @$pos=$val"
    done
    ((m % 2)) || reseal mut.tlcb
    timeout "$((5 * timeout_scale))" "$tlc" run mut.tlcb 7 >out 2>err
    st=$?
    timeout "$((5 * timeout_scale))" "$tlc" dis mut.tlcb >/dev/null 2>dis_err
    st_dis=$?
    desc="mutant $m (seed $seed:$what)"
    case "$st" in
    65)
        n_rejected=$((n_rejected + 1))
        if [ "$st_dis" != 65 ]; then
            fail "$desc: run rejected the file (65) but dis exited $st_dis"
        elif [ ! -s err ]; then
            fail "$desc: rejected without a message"
        else
            pass
        fi
        ;;
    0 | 1)
        n_ran=$((n_ran + 1))
        if [ "$st_dis" != 0 ]; then
            fail "$desc: run accepted the file (status $st) but dis exited $st_dis"
        elif [ "$st" = 1 ] && { [ "$(wc -l <err)" != 1 ] ||
            ! grep -qE "^mut.tlcb: pc [0-9]+: ($error_kinds) in [A-Z_]+" err; }; then
            fail "$desc: bad run-time error message"
        elif [ "$st" = 0 ] && [ -s err ]; then
            fail "$desc: status 0 with a message on stderr"
        else
            pass
        fi
        ;;
    124)
        # A hang is only acceptable when the file is a valid program (the
        # mutation may have made an endless loop): dis must accept it.
        if [ "$st_dis" = 0 ]; then
            n_loop=$((n_loop + 1))
            pass
        else
            fail "$desc: run hung (timeout) and dis exited $st_dis"
        fi
        ;;
    *)
        fail "$desc: run exited with $st (crash or unexpected status)"
        ;;
    esac
    if [ "$st_dis" -ge 124 ]; then
        fail "$desc: dis exited with $st_dis (crash or hang)"
    fi
done
echo "mutants: $mutants ($n_rejected rejected, $n_ran ran, $n_loop valid endless loops)"

finish
