/* The baseline backend's executable memory (docs/baseline.md, "Executable
 * memory"). Methods are placed one after the other (each on a cache line) in chunks mapped
 * read+execute, writable only for a moment: while a method is copied in,
 * or while a look rewrites the look sites (patch.c). A chunk holds many
 * methods, so a look makes each chunk writable once, not each site's page
 * once per site: the system calls (and the TLB work each costs) grow with
 * the chunks, a handful, not with the loops compiled. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "internal.h"

#define BL_CODE_CHUNK ((size_t)1 << 20)
/* a method starts on a cache line: the code generator aligns loops
 * relative to the method's start (x64.c, align_loop) */
#define BL_CODE_ALIGN ((size_t)64)
#define PAGE ((uintptr_t)4096)

static size_t page_round(size_t n)
{
    return (n + PAGE - 1) & ~(size_t)(PAGE - 1);
}

static bool protect(void *first, size_t span, bool writable)
{
    int prot = PROT_READ | PROT_EXEC | (writable ? PROT_WRITE : 0);
    return mprotect(first, span, prot) == 0;
}

bool bl_code_write(uint8_t *at, const uint8_t *bytes, size_t len)
{
    uint8_t *first = (uint8_t *)((uintptr_t)at & ~(PAGE - 1));
    size_t span = (size_t)(at + len - first);
    if (!protect(first, span, true))
        return false;
    memcpy(at, bytes, len);
    protect(first, span, false);
    return true;
}

static size_t aligned(size_t n)
{
    return (n + BL_CODE_ALIGN - 1) & ~(BL_CODE_ALIGN - 1);
}

/* Where `len` more bytes go (at a cache line): in the newest chunk, or in
 * one mapped now; NULL when no memory. */
static uint8_t *place_for(JgBaseline *bl, size_t len)
{
    BlCode *c = bl->code;
    if (c && aligned(c->used) + len <= c->size)
        return (uint8_t *)c->mem + aligned(c->used);
    size_t size = len > BL_CODE_CHUNK ? page_round(len) : BL_CODE_CHUNK;
    BlCode *rec = malloc(sizeof *rec);
    if (!rec)
        return NULL;
    void *mem = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) {
        free(rec);
        return NULL;
    }
    *rec = (BlCode){.next = bl->code, .mem = mem, .size = size};
    bl->code = rec;
    return mem;
}

void *bl_install(JgBaseline *bl, const uint8_t *code, size_t len)
{
    /* the look signal's handler walks the chunks and rewrites their code */
    sigset_t old;
    bl_looks_block(&old);
    uint8_t *at = place_for(bl, len);
    if (at && bl_code_write(at, code, len))
        bl->code->used = (size_t)(at - (uint8_t *)bl->code->mem) + len;
    else
        at = NULL;
    bl_looks_restore(&old);
    return at;
}

bool bl_code_writable(JgBaseline *bl, bool writable)
{
    for (BlCode *c = bl->code; c; c = c->next) {
        if (c->used && !protect(c->mem, page_round(c->used), writable)) {
            if (writable) /* back to read+execute: the caller writes nothing */
                for (BlCode *d = bl->code; d != c; d = d->next)
                    protect(d->mem, page_round(d->used), false);
            return false;
        }
    }
    return true;
}

void bl_code_free(JgBaseline *bl)
{
    while (bl->code) {
        BlCode *next = bl->code->next;
        munmap(bl->code->mem, bl->code->size);
        free(bl->code);
        bl->code = next;
    }
}
