# Sourced by the end-to-end scripts: turns an engine name of the tests into
# `tlc run` options. Syntax: NAME[:LEVEL][+novirt], e.g. jit:O0 means
# `--engine=jit --llvm-opt=O0`, pe+novirt `--engine=pe --no-virtuals`.
# Sets the array engine_args.
engine_args_for() {
    local spec=$1 novirt=0
    if [ "${spec%+novirt}" != "$spec" ]; then
        novirt=1
        spec=${spec%+novirt}
    fi
    engine_args=("--engine=${spec%%:*}")
    if [ "${spec#*:}" != "$spec" ]; then
        engine_args+=("--llvm-opt=${spec#*:}")
    fi
    if [ "$novirt" = 1 ]; then
        engine_args+=("--no-virtuals")
    fi
}
