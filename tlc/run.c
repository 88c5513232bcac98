#define GC_THREADS
#include "run.h"

#include <gc.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "errors.h"
#include "values.h"
#include "verify.h"

TlcCode *tlc_code_new(const TlcProgram *prog)
{
    TlcCode *code = calloc(1, sizeof *code);
    const TlcType **classes = calloc(prog->nclasses + 1, sizeof *classes);
    uint8_t *starts = tlc_insn_starts(prog);
    uint8_t *join = starts ? tlc_join_points(prog, starts) : NULL;
    if (!code || !classes || !starts || !join)
        goto fail;
    for (uint32_t k = 0; k < prog->nclasses; k++)
        if (!(classes[k] = tlc_class_get(&prog->classes[k])))
            goto fail;
    code->bytes = prog->code;
    code->len = prog->code_len;
    code->insn_start = starts;
    code->join = join;
    code->classes = classes;
    code->strings = (const char *const *)prog->strings;
    return code;
fail:
    free(code);
    free(classes);
    free(starts);
    free(join);
    return NULL;
}

void tlc_code_free(TlcCode *code)
{
    if (!code)
        return;
    free((void *)code->insn_start);
    free((void *)code->join);
    free((void *)code->classes);
    free(code);
}

#define RUN_STACK_BYTES ((size_t)1 << 30) /* reserved, committed only as used */

typedef struct RunJob {
    const TlcCode *code;
    TlcEngineFn engine;
    int64_t n;
    TlcObject *result;
    int status;
    sem_t done; /* posted when the program has ended */
} RunJob;

/* The thread running a program, while it does (tlc_jit_fatal). */
static pthread_t run_thread;
static atomic_bool running;

void tlc_jit_fatal(void *ctx, const char *message)
{
    (void)ctx;
    if (atomic_load(&running) && pthread_equal(pthread_self(), run_thread))
        tlc_fail_internal(message);
    /* another thread (LLVM compiling in the background), or no program
     * running: nothing to unwind to */
    fflush(stdout);
    fprintf(stderr, "%s\n", message);
    _exit(TLC_EXIT_INTERNAL);
}

static void run_body(RunJob *job)
{
    jmp_buf handler;
    run_thread = pthread_self();
    atomic_store(&running, true);
    tlc_error_handler = &handler;
    tlc_internal_failure = false;
    if (setjmp(handler)) {
        tlc_error_handler = NULL;
        atomic_store(&running, false);
        job->status = tlc_internal_failure ? 2 : 1;
        return;
    }
    /* the input is allocated before pc 0 runs: a full heap then is reported there */
    int first_op = job->code->len > 0 ? job->code->bytes[0] : 0;
    TlcObject *args[1] = {tlc_int_new(job->n, tlc_site(first_op, 0))};
    job->result = job->engine(job->code, 0, args, 1, 1);
    tlc_error_handler = NULL;
    atomic_store(&running, false);
    job->status = 0;
}

static void *run_job(void *arg)
{
    RunJob *job = arg;
    run_body(job);
    sem_post(&job->done);
    return NULL;
}

/* Waits for the program's end while the collector counts this thread as
 * blocked: a collection then neither stops it by a signal nor waits for
 * it to stop (a small heap is collected often: two signals and two
 * context switches each time, more than the marking). */
static void *wait_done(void *arg)
{
    RunJob *job = arg;
    while (sem_wait(&job->done) != 0 && errno == EINTR)
        ;
    return NULL;
}

int tlc_execute(const TlcCode *code, TlcEngineFn engine, int64_t n, TlcObject **result)
{
    RunJob job = {.code = code, .engine = engine, .n = n, .status = -1};
    pthread_attr_t attr;
    pthread_t thread;
    if (sem_init(&job.done, 0, 0) != 0)
        return -1;
    if (pthread_attr_init(&attr) != 0) {
        sem_destroy(&job.done);
        return -1;
    }
    int failed = pthread_attr_setstacksize(&attr, RUN_STACK_BYTES) != 0 ||
                 pthread_create(&thread, &attr, run_job, &job) != 0;
    pthread_attr_destroy(&attr);
    if (failed) {
        sem_destroy(&job.done);
        return -1;
    }
    GC_do_blocking(wait_done, &job);
    pthread_join(thread, NULL);
    sem_destroy(&job.done);
    *result = job.result;
    return job.status;
}

int tlc_run_program(const TlcCode *code, TlcEngineFn engine, int64_t n, const char *file)
{
    FILE *out = tlc_out ? tlc_out : stdout;
    TlcObject *result = NULL;
    int status = tlc_execute(code, engine, n, &result);
    if (status < 0) {
        fputs("tlc: cannot start the interpreter thread\n", stderr);
        return TLC_EXIT_INTERNAL;
    }
    if (status == 0 && result)
        tlc_print(result);
    fflush(out);
    if (status == 0)
        return TLC_EXIT_OK;
    if (status == 2) {
        fprintf(stderr, "%s\n", tlc_internal_message);
        return TLC_EXIT_INTERNAL;
    }
    return tlc_report_run_error(file);
}

int tlc_report_run_error(const char *file)
{
    char line[512];
    tlc_format_error(&tlc_last_error, file, line, sizeof line);
    fprintf(stderr, "%s\n", line);
    return TLC_EXIT_RUNTIME_ERROR;
}
