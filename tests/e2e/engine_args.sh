# Sourced by the end-to-end scripts: turns an engine name of the tests into
# `tlc run` options. Syntax: NAME[:LEVEL][@T][~MS][+novirt][+now], e.g. jit:O0 means
# `--engine=jit --llvm-opt=O0`, pe+novirt `--engine=pe --no-virtuals`,
# jit@1 `--engine=jit --jit-threshold=1` (tiered: the native interpreter hands
# each loop over at its first backward jump, and every call), jit@10~0
# `--engine=jit --jit-threshold=10 --tier-up=0` (LLVM from the first
# hand-over). Without @T the threshold is 0 (every frame through the engine
# from its start), not the jit engine's default of 1000, under which a small
# test program would never reach the engine; @default gives no
# --jit-threshold option at all (the engine's own default: jit@default is
# plain `--engine=jit`). +now runs with JITGEN_TIER_UP_NOW=1 in the
# environment (baseline code handed over to LLVM at its first loop back-edge).
# Sets the arrays engine_args and engine_env (VAR=VALUE words for env(1);
# random_programs.sh applies them, run_cases.sh does not).
engine_args_for() {
    local spec=$1 novirt=0 threshold= tier_up=
    engine_env=()
    if [ "${spec%+now}" != "$spec" ]; then
        engine_env=(JITGEN_TIER_UP_NOW=1)
        spec=${spec%+now}
    fi
    if [ "${spec%+novirt}" != "$spec" ]; then
        novirt=1
        spec=${spec%+novirt}
    fi
    if [ "${spec#*~}" != "$spec" ]; then
        tier_up=${spec#*~}
        spec=${spec%~*}
    fi
    if [ "${spec#*@}" != "$spec" ]; then
        threshold=${spec#*@}
        spec=${spec%@*}
    fi
    engine_args=("--engine=${spec%%:*}")
    if [ "${spec#*:}" != "$spec" ]; then
        engine_args+=("--llvm-opt=${spec#*:}")
    fi
    if [ "$threshold" != default ]; then
        engine_args+=("--jit-threshold=${threshold:-0}")
    fi
    if [ -n "$tier_up" ]; then
        engine_args+=("--tier-up=$tier_up")
    fi
    if [ "$novirt" = 1 ]; then
        engine_args+=("--no-virtuals")
    fi
}
