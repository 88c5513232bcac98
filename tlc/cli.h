/* What `tlc run` and `tlc bench` share (docs/cli.md): the run options and
 * their one parser, so that both commands accept and reject the same
 * command lines with the same messages. Defined in main.c. */
#ifndef TLC_CLI_H
#define TLC_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engines.h"

/* An engine of `--engine=`. */
typedef struct TlcEngine {
    const char *name;
    TlcEngineFn fn;
    bool uses_driver;       /* runs through the JIT generator's driver */
    JgEngine driver_engine; /* the driver's engine (dumps only, for interp) */
} TlcEngine;

typedef struct TlcRunOptions {
    const TlcEngine *engine;
    bool stats;
    JgDriverOptions driver;
    int64_t jit_threshold; /* --jit-threshold: 0, tiered after T jumps/calls, or
                              -1 (not given: tlc_default_jit_threshold) */
    uint64_t max_heap;     /* --max-heap in bytes; 0: tlc_heap_default_limit() */
    TlcEngineFn fn;        /* what runs the program: set by tlc_start_engine */
} TlcRunOptions;

/* A command's usage text: the parts printed one after the other (the run
 * options' description is one part of both run's and bench's), NULL-ended. */
typedef const char *const TlcUsage[];

/* The description of the run options, a part of a TlcUsage. */
extern const char tlc_run_options_help[];

/* The defaults: engine jit, LLVM optimization auto, no dumps, no stats. */
void tlc_run_options_init(TlcRunOptions *o);

/* What a jit engine runs at by default: frames hand over after this many
 * backward jumps (and calls after this many calls). Cold code never starts
 * LLVM; hot loops pay one interpreted iteration in a thousand's worth. */
#define TLC_DEFAULT_JIT_THRESHOLD 1000

/* The threshold when --jit-threshold is not given: TLC_DEFAULT_JIT_THRESHOLD
 * for the jit engine; 0 (every frame through the engine from its start) for
 * pe and graphs, which exist to show their own work, and whenever a dump or
 * --dot asks to see compiled code. */
int64_t tlc_default_jit_threshold(const TlcRunOptions *o);

enum TlcOptionParse {
    TLC_OPTION_OTHER, /* not a run option: the command's own, or an operand */
    TLC_OPTION_TAKEN, /* stored; *i is on its last word (`--dot FILE`) */
    TLC_OPTION_BAD,   /* `tlc: CMD: problem` and the usage printed on stderr */
};

/* Parses argv[*i] if it is a run option. */
enum TlcOptionParse tlc_parse_run_option(TlcRunOptions *o, int argc, char **argv, int *i,
                                         const char *cmd, TlcUsage usage);

/* Whether the run needs the driver: an engine of the driver, or dumps or
 * Graphviz output, which the driver writes whatever the engine. */
bool tlc_run_needs_driver(const TlcRunOptions *o);

/* Sets the heap limit (--max-heap, or the default), then starts the
 * driver's engine when the run needs it (tlc_run_needs_driver); false,
 * with the message printed on stderr, when it cannot start. */
bool tlc_start_engine(TlcRunOptions *o);

/* `--help` or `-h`. */
bool tlc_is_help(const char *arg);

/* Parses a whole decimal int64 (as N of `tlc run`); 0 on success. */
int tlc_parse_int64(const char *s, int64_t *out);

/* Parses a size: decimal bytes with an optional suffix K, M or G (binary
 * multiples, either case), e.g. 64M; 0 on success, -1 when malformed or
 * past 2^63 bytes. */
int tlc_parse_size(const char *s, uint64_t *out);

/* The run's heap lines of --stats: run.heap_bytes (the collector's heap
 * now), run.heap_limit. */
void tlc_print_heap_stats(FILE *out);

/* Prints the usage's parts on `out`. */
void tlc_print_usage(FILE *out, TlcUsage usage);

/* Prints `tlc: ` FMT (with ARG) and the usage on stderr; returns the exit
 * status of a bad command line. */
int tlc_usage_error(TlcUsage usage, const char *fmt, const char *arg);

#endif
