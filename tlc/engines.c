#include "engines.h"

#include "errors.h"
#include "object.h"
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The interpreter's graphs, embedded at build time (tlc/graph_image_blob.S). */
extern const unsigned char tlc_interp_graphs[];
extern const unsigned char tlc_interp_graphs_end[];

/* tlc_resume's parameters: how many, and where the saved stack is */
enum { TLC_PORTAL_SAVED = 9, TLC_PORTAL_NSAVED = 10, TLC_PORTAL_PARAMS = 11 };

static JgDriver *driver;
static JgDriverOptions lazy_options; /* the driver to create at first need */
static bool lazy;

static JgDriver *create(const JgDriverOptions *options, char *err, size_t errsize)
{
    size_t len = (size_t)(tlc_interp_graphs_end - tlc_interp_graphs);
    return jg_driver_new(tlc_interp_graphs, len, options, err, errsize);
}

/* An instance's attributes: the words of a handed-over frame's objects that
 * the JIT reads at the entry (JgDriverOptions.host_fields), so that the
 * integers they hold are virtual in the loop from its first trip on. */
static uint32_t instance_attributes(const void *object, int64_t *offsets, uint32_t max)
{
    const TlcObject *o = object;
    if (o->type->kind != TLC_KIND_INSTANCE)
        return 0;
    uint32_t n = o->type->nattrs < max ? o->type->nattrs : max;
    for (uint32_t i = 0; i < n; i++)
        offsets[i] = (int64_t)(offsetof(TlcInstance, attrs) + i * sizeof(TlcObject *));
    return n;
}

/* A tiered run that shows no code creates the driver (loading the
 * interpreter's graphs and their binding-time analysis, about 0.2 ms) only
 * when something gets hot: a short run never needs it. */
bool tlc_engines_init(const JgDriverOptions *given, char *err, size_t errsize)
{
    JgDriverOptions options = *given;
    /* a frame handed over brings its operand stack in `saved` */
    options.host_array = true;
    options.host_array_param = TLC_PORTAL_SAVED;
    options.host_array_len_param = TLC_PORTAL_NSAVED;
    options.host_fields = instance_attributes;
    /* objects taken off the allocators' free lists by compiled code */
    options.allocators = tlc_free_list_allocators;
    options.nallocators = 2;
    if (options.tiered && !(options.dumps & JG_DUMP_CODE) && !options.dot_file) {
        lazy_options = options;
        lazy = true;
        return true;
    }
    driver = create(&options, err, errsize);
    return driver != NULL;
}

void tlc_engines_shutdown(void)
{
    tlc_tier = (TlcTier){0};
    jg_driver_free(driver);
    driver = NULL;
    lazy = false;
}

bool tlc_engines_started(void)
{
    return driver != NULL;
}

JgDriver *tlc_engines_driver(void)
{
    if (!driver && lazy) {
        char err[512];
        driver = create(&lazy_options, err, sizeof err);
        if (!driver) { /* what tlc_start_engine says when it creates it */
            char message[600];
            snprintf(message, sizeof message, "tlc: the JIT could not start: %s", err);
            tlc_fail_internal(message);
        }
    }
    return driver;
}

/* Runs the portal tlc_resume through the driver: its parameters in order. */
static TlcObject *resume_driver(const TlcCode *code, int64_t pc, TlcObject *arg0, TlcObject *arg1,
                                TlcObject *arg2, TlcObject *arg3, TlcObject **args, int64_t nargs,
                                int64_t depth, TlcObject *const *saved, int64_t nsaved)
{
    uint64_t slots[TLC_PORTAL_PARAMS] = {(uint64_t)(uintptr_t)code, (uint64_t)pc,
                                         (uint64_t)(uintptr_t)arg0, (uint64_t)(uintptr_t)arg1,
                                         (uint64_t)(uintptr_t)arg2, (uint64_t)(uintptr_t)arg3,
                                         (uint64_t)(uintptr_t)args, (uint64_t)nargs,
                                         (uint64_t)depth,           (uint64_t)(uintptr_t)saved,
                                         (uint64_t)nsaved};
    return (TlcObject *)(uintptr_t)jg_driver_call(tlc_engines_driver(), slots);
}

TlcObject *tlc_eval_driver(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs,
                           int64_t depth)
{
    return tlc_frame_from_array(resume_driver, code, pc, args, nargs, depth);
}

void tlc_engines_tier(int64_t threshold)
{
    tlc_tier = (TlcTier){.threshold = threshold, .enter = resume_driver};
}
