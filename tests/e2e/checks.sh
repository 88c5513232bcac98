# Sourced by the end-to-end scripts: counting checks and running tlc.
#   pass / fail MESSAGE     count a check (fail prints MESSAGE and, when the
#                           check ran tlc, the start of ./out and ./err)
#   t DESC STATUS ARGS...   runs `$tlc ARGS` (stdout in ./out, stderr in
#                           ./err, at most $t_timeout seconds, default 60,
#                           times TLC_TIMEOUT_SCALE: below)
#                           and checks its exit status
#   expect DESC COMMAND...  passes when COMMAND succeeds
#   finish                  prints the counts; its status is 0 iff none failed
#   scratch_dir             a fresh temporary directory, removed at exit,
#                           becomes the current one (for ./out and ./err)
#   general_setup ARGS...   for the scripts run as `SCRIPT TLC_BINARY`: tlc
#                           (absolute), suite (bench/general), scratch_dir;
#                           a wrong command line exits 2 with the usage
passed=0
failed=0
# TLC_TIMEOUT_SCALE (default 1) multiplies every time limit of the scripts:
# a build run under an emulator (the AArch64 cross build under qemu) or with
# the sanitizers is several times slower (tests/CMakeLists.txt).
timeout_scale=${TLC_TIMEOUT_SCALE:-1}

pass() {
    passed=$((passed + 1))
}

fail() {
    failed=$((failed + 1))
    echo "FAIL $1"
    if [ -e out ] && [ -e err ]; then
        echo "    stdout: $(head -c 400 out)"
        echo "    stderr: $(head -c 400 err)"
    fi
}

t() {
    local desc=$1 want=$2 st
    shift 2
    timeout "$((${t_timeout:-60} * timeout_scale))" "$tlc" "$@" >out 2>err
    st=$?
    if [ "$st" = "$want" ]; then
        pass
        return 0
    fi
    fail "$desc: 'tlc $*' exited with $st, expected $want"
    return 1
}

expect() {
    local desc=$1
    shift
    if "$@"; then pass; else fail "$desc"; fi
}

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ]
}

scratch_dir() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    cd "$work" || exit 2
}

general_setup() {
    if [ "$#" != 1 ]; then
        echo "usage: $0 TLC_BINARY" >&2
        exit 2
    fi
    tlc=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    suite=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../bench/general" && pwd)
    scratch_dir
}
