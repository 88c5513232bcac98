# Sourced by the end-to-end scripts: turns an engine name of the tests into
# `tlc run` options. Syntax: NAME[:LEVEL][@T][+novirt], e.g. jit:O0 means
# `--engine=jit --llvm-opt=O0`, pe+novirt `--engine=pe --no-virtuals`,
# jit@1 `--engine=jit --jit-threshold=1` (tiered: the native interpreter hands
# each loop over at its first backward jump, and every call). Without @T the
# threshold is 0 (every frame through the engine from its start), not the
# jit engine's default of 1000, under which a small test program would never
# reach the engine.
# Sets the array engine_args.
engine_args_for() {
    local spec=$1 novirt=0 threshold=
    if [ "${spec%+novirt}" != "$spec" ]; then
        novirt=1
        spec=${spec%+novirt}
    fi
    if [ "${spec#*@}" != "$spec" ]; then
        threshold=${spec#*@}
        spec=${spec%@*}
    fi
    engine_args=("--engine=${spec%%:*}")
    if [ "${spec#*:}" != "$spec" ]; then
        engine_args+=("--llvm-opt=${spec#*:}")
    fi
    engine_args+=("--jit-threshold=${threshold:-0}")
    if [ "$novirt" = 1 ]; then
        engine_args+=("--no-virtuals")
    fi
}
