/* Tier-up looks without counting (docs/baseline.md, "Tiers"). Every loop
 * back-edge into a merge point carries a 5-byte NOP (method.c, look_site).
 * A POSIX timer sends SIGURG to the thread running baseline code when a
 * look at the tier-up hook is due; the handler, on that thread, turns
 * every NOP into a jmp to its exit stub, so the next back-edge leaves for
 * the dispatcher (runtime.c), which asks the hook and then puts the NOPs
 * back. Writing code the same thread runs is coherent on x86 (the return
 * from the handler serializes); the thread's own writes to code (new
 * methods, NOPs put back) block the signal, so the two never overlap. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

#define LOOK_SIGNAL SIGURG /* ignored by default: a stray one harms nothing */

/* What a site holds, and its length: a NOP site the NOP or a jmp to its
 * stub; a jump site (the back-edge's jump) its own displacement or one to
 * the stub. */
static size_t site_bytes(const BlSite *s, bool jump, uint8_t bytes[X64_PATCH_LEN])
{
    if (s->jump) {
        int32_t rel = jump ? (int32_t)(s->stub - (s->at + 4)) : s->rel;
        memcpy(bytes, &rel, sizeof rel);
        return sizeof rel;
    }
    if (!jump) {
        memcpy(bytes, x64_patch_nop, X64_PATCH_LEN);
        return X64_PATCH_LEN;
    }
    bytes[0] = 0xe9;
    int32_t rel = (int32_t)(s->stub - (s->at + X64_PATCH_LEN));
    memcpy(bytes + 1, &rel, sizeof rel);
    return X64_PATCH_LEN;
}

static void patch_site(const BlSite *s, bool jump)
{
    uint8_t bytes[X64_PATCH_LEN];
    size_t len = site_bytes(s, jump, bytes);
    /* on failure the site keeps its old instruction: a look comes later */
    bl_code_write(s->at, bytes, len);
}

/* Every site rewritten, the code writable once for all of them. */
static void patch_all(JgBaseline *bl, bool jump)
{
    bool writable = bl_code_writable(bl, true);
    for (BlSiteChunk *c = __atomic_load_n(&bl->sites, __ATOMIC_ACQUIRE); c; c = c->next) {
        uint32_t n = __atomic_load_n(&c->n, __ATOMIC_ACQUIRE);
        for (uint32_t i = 0; i < n; i++) {
            if (!writable) {
                patch_site(&c->items[i], jump);
                continue;
            }
            uint8_t bytes[X64_PATCH_LEN];
            size_t len = site_bytes(&c->items[i], jump, bytes);
            memcpy(c->items[i].at, bytes, len);
        }
    }
    if (writable)
        bl_code_writable(bl, false);
}

/* A look is due: every site jumps to its stub (with the signal blocked,
 * or in its handler). */
static void make_due(JgBaseline *bl)
{
    if (!bl->look_due) {
        bl->look_due = 1;
        patch_all(bl, true);
    }
}

/* The timer's signal: a look is due. Only memory writes and mprotect. */
static void on_look(int sig, siginfo_t *si, void *uc)
{
    (void)sig;
    (void)uc;
    if (si->si_code != SI_TIMER || !si->si_value.sival_ptr)
        return;
    int saved = errno;
    make_due(si->si_value.sival_ptr);
    errno = saved;
}

static bool handler_ok;

static void install_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_look;
    sa.sa_flags = SA_SIGINFO | SA_RESTART; /* system calls go on */
    sigemptyset(&sa.sa_mask);
    handler_ok = sigaction(LOOK_SIGNAL, &sa, NULL) == 0;
}

void bl_looks_block(sigset_t *old)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, LOOK_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &set, old);
}

void bl_looks_restore(const sigset_t *old)
{
    pthread_sigmask(SIG_SETMASK, old, NULL);
}

bool bl_looks_enabled(const JgBaseline *bl)
{
    return bl->options.tier_up && bl->options.look_ms != 0;
}

bool bl_sites_add(JgBaseline *bl, const BlSite *sites, uint32_t n)
{
    sigset_t old;
    bl_looks_block(&old);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        BlSiteChunk *c = bl->sites;
        if (!c || c->n == BL_SITE_CHUNK) {
            BlSiteChunk *more = calloc(1, sizeof *more);
            if (!more) {
                ok = false;
                break;
            }
            more->next = c;
            __atomic_store_n(&bl->sites, more, __ATOMIC_RELEASE);
            c = more;
        }
        c->items[c->n] = sites[i];
        __atomic_store_n(&c->n, c->n + 1, __ATOMIC_RELEASE);
        if (bl->look_due)
            patch_site(&sites[i], true);
    }
    bl_looks_restore(&old);
    return ok;
}

void bl_looks_start(JgBaseline *bl)
{
    if (bl->looks_started || !bl_looks_enabled(bl))
        return;
    bl->looks_started = true;
    bl_look_in(bl, bl->options.look_ms);
}

void bl_look_taken(JgBaseline *bl)
{
    if (!bl->look_due)
        return;
    sigset_t old;
    bl_looks_block(&old);
    bl->look_due = 0;
    patch_all(bl, false);
    bl_looks_restore(&old);
}

/* The timer, made on the first look armed: its signal goes to this thread. */
static bool make_timer(JgBaseline *bl)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, install_handler);
    if (!handler_ok)
        return false;
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = LOOK_SIGNAL;
    sev.sigev_value.sival_ptr = bl;
    sev._sigev_un._tid = gettid();
    bl->timer_made = timer_create(CLOCK_MONOTONIC, &sev, &bl->timer) == 0;
    return bl->timer_made;
}

void bl_look_in(JgBaseline *bl, double ms)
{
    bl->look_ms = ms;
    if (ms < 0) {
        sigset_t old;
        bl_looks_block(&old);
        make_due(bl);
        bl_looks_restore(&old);
        return;
    }
    if (!bl->timer_made && (ms == 0 || !make_timer(bl)))
        return; /* no timer: no more looks (baseline code goes on) */
    struct itimerspec when;
    memset(&when, 0, sizeof when);
    if (ms > 0) {
        double ns = ms * 1e6 < 1 ? 1 : ms * 1e6;
        when.it_value.tv_sec = (time_t)(ns / 1e9);
        when.it_value.tv_nsec = (long)(ns - (double)when.it_value.tv_sec * 1e9);
    }
    timer_settime(bl->timer, 0, &when, NULL);
}

void bl_looks_free(JgBaseline *bl)
{
    if (bl->timer_made) {
        /* deleting the timer also drops its signal if still pending */
        sigset_t old;
        bl_looks_block(&old);
        timer_delete(bl->timer);
        bl->timer_made = false;
        bl_looks_restore(&old);
    }
    while (bl->sites) {
        BlSiteChunk *next = bl->sites->next;
        free(bl->sites);
        bl->sites = next;
    }
}
