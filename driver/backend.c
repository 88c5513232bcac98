/* Opening libjitgen-llvm.so. The process that runs a program pays for LLVM
 * only once it needs to compile: a program the native interpreter finishes
 * never maps it, and the driver can open it on a second thread while the
 * main one does other work. */
#include "backend.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "frontend/fatal.h"

#define BACKEND_FILE "libjitgen-llvm.so"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* The file jg_backend_open opens (backend.h). */
static void backend_path(const char *path, char *out, size_t size)
{
    if (!path || !*path)
        path = getenv("JITGEN_BACKEND");
    if (path && *path) {
        snprintf(out, size, "%s", path);
        return;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = NULL;
    if (n > 0) {
        exe[n] = '\0';
        slash = strrchr(exe, '/');
    }
    if (!slash) { /* no /proc: the dynamic linker's search path */
        snprintf(out, size, "%s", BACKEND_FILE);
        return;
    }
    *slash = '\0';
    snprintf(out, size, "%s/%s", exe, BACKEND_FILE);
}

/* dlopen and the checks of jg_backend_open. */
static const JgBackend *open_library(const char *path, char *err, size_t errsize)
{
    char file[PATH_MAX + 32];
    backend_path(path, file, sizeof file);
    /* RTLD_LOCAL: LLVM's symbols stay out of the process's namespace (the
     * library exports one symbol anyway); a second open of the same file
     * returns the loaded library */
    void *lib = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(err, errsize, "cannot open the LLVM backend: %s", dlerror());
        return NULL;
    }
    const JgBackend *(*entry)(void);
    *(void **)&entry = dlsym(lib, JG_BACKEND_SYMBOL);
    const JgBackend *b = entry ? entry() : NULL;
    if (!b || b->abi != JG_BACKEND_ABI || b->size != sizeof(JgBackend)) {
        snprintf(err, errsize, "%s is not the LLVM backend of this build of jitgen", file);
        dlclose(lib);
        return NULL;
    }
    /* the library links a frontend of its own: its failures go to the
     * handler the host installed in ours */
    JgFatalFn fatal;
    void *fatal_ctx;
    jg_fatal_handler(&fatal, &fatal_ctx);
    b->set_fatal_handler(fatal, fatal_ctx);
    return b; /* stays open for the rest of the process */
}

const JgBackend *jg_backend_open(const char *path, double *open_ms, char *err, size_t errsize)
{
    double t0 = now_ms();
    const JgBackend *b = open_library(path, err, errsize);
    *open_ms += now_ms() - t0;
    return b;
}

struct JgBackendStart {
    pthread_t thread;
    bool threaded;
    bool warm_up;
    char *path;
    JgLlvmOptions options;
    JgBackendJob job;
    void *job_ctx;
    const JgBackend *backend;
    JgLlvm *llvm;
    double open_ms;
    char err[512];
    atomic_bool done;
};

static void *start_session(void *arg)
{
    JgBackendStart *s = arg;
    s->backend = jg_backend_open(s->path, &s->open_ms, s->err, sizeof s->err);
    if (s->backend)
        s->llvm = s->backend->create(&s->options, s->warm_up, s->err, sizeof s->err);
    if (s->llvm && s->job)
        s->job(s->job_ctx, s->backend, s->llvm);
    atomic_store(&s->done, true);
    return NULL;
}

JgBackendStart *jg_backend_start_job(const char *path, const JgLlvmOptions *options, bool warm_up,
                                     JgBackendJob job, void *job_ctx)
{
    JgBackendStart *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    if (path && !(s->path = strdup(path))) {
        free(s);
        return NULL;
    }
    s->options = *options;
    s->warm_up = warm_up;
    s->job = job;
    s->job_ctx = job_ctx;
    atomic_init(&s->done, false);
    s->threaded = pthread_create(&s->thread, NULL, start_session, s) == 0;
    return s;
}

JgBackendStart *jg_backend_start(const char *path, const JgLlvmOptions *options, bool warm_up)
{
    return jg_backend_start_job(path, options, warm_up, NULL, NULL);
}

bool jg_backend_ready(JgBackendStart *s)
{
    return !s || !s->threaded || atomic_load(&s->done);
}

JgLlvm *jg_backend_join(JgBackendStart *s, const JgBackend **backend, double *open_ms, char *err,
                        size_t errsize)
{
    *backend = NULL;
    if (!s) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    if (s->threaded)
        pthread_join(s->thread, NULL);
    else
        start_session(s); /* no thread to be had: do it now */
    JgLlvm *llvm = s->llvm;
    *backend = s->backend;
    *open_ms += s->open_ms;
    if (!llvm)
        snprintf(err, errsize, "%s", s->err);
    free(s->path);
    free(s);
    return llvm;
}
