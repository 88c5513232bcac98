#include "values.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "errors.h"

/* A growable array of object pointers used as an explicit work stack. It
 * may start in a caller's array (`heap` false) and moves to malloc'd memory
 * when that is full. malloc'd memory is not scanned by the GC: everything
 * pushed on it stays reachable from the value being walked, so nothing is
 * lost. */
typedef struct WorkStack {
    TlcObject **items;
    size_t count, capacity;
    bool heap; /* items is malloc'd (free it) */
} WorkStack;

static void work_push(WorkStack *w, TlcObject *o)
{
    if (w->count == w->capacity) {
        size_t cap = w->capacity ? w->capacity * 2 : 32;
        TlcObject **grown =
            w->heap ? realloc(w->items, cap * sizeof *grown) : malloc(cap * sizeof *grown);
        if (!grown)
            tlc_fail_internal("tlc: out of memory");
        if (!w->heap && w->count)
            memcpy(grown, w->items, w->count * sizeof *grown);
        w->items = grown;
        w->capacity = cap;
        w->heap = true;
    }
    w->items[w->count++] = o;
}

static void work_free(WorkStack *w)
{
    if (w->heap)
        free(w->items);
}

static void write_atom(FILE *out, TlcObject *v)
{
    switch (v->type->kind) {
    case TLC_KIND_INT:
        fprintf(out, "%" PRId64, ((TlcInt *)v)->value);
        break;
    case TLC_KIND_NIL:
        fputs("nil", out);
        break;
    default:
        fputs("<object>", out);
        break;
    }
}

/* Prints iteratively: the work stack holds, for every list being printed,
 * the part of it not printed yet. */
void tlc_write_value(FILE *out, TlcObject *v)
{
    WorkStack pending = {0};
    for (;;) {
        while (v->type->kind == TLC_KIND_CONS) {
            fputc('(', out);
            work_push(&pending, ((TlcCons *)v)->cdr);
            v = ((TlcCons *)v)->car;
        }
        write_atom(out, v);
        /* v is done: continue with the innermost unfinished list */
        for (;;) {
            if (pending.count == 0) {
                work_free(&pending);
                return;
            }
            TlcObject *rest = pending.items[pending.count - 1];
            if (rest->type->kind == TLC_KIND_CONS) {
                fputc(' ', out);
                pending.items[pending.count - 1] = ((TlcCons *)rest)->cdr;
                v = ((TlcCons *)rest)->car;
                break;
            }
            if (rest->type->kind != TLC_KIND_NIL) {
                fputs(" . ", out);
                write_atom(out, rest);
            }
            fputc(')', out);
            pending.count--;
        }
    }
}

FILE *tlc_out;

static FILE *out_stream(void)
{
    return tlc_out ? tlc_out : stdout;
}

void tlc_print(TlcObject *v)
{
    tlc_write_value(out_stream(), v);
    fputc('\n', out_stream());
}

void tlc_dump_begin(void)
{
    fputc('[', out_stream());
}

void tlc_dump_item(TlcObject *v, int64_t index)
{
    if (index > 0)
        fputs(", ", out_stream());
    tlc_write_value(out_stream(), v);
}

void tlc_dump_end(void)
{
    fputs("]\n", out_stream());
}

/* Walks both lists together: a pair of cells compares its cars now and
 * leaves its cdrs on the work stack, so a flat list needs two entries,
 * which the array on the C stack holds (EQ of two lists in a hot loop made
 * a malloc and a free per comparison). */
bool tlc_cons_equal(TlcObject *b, TlcObject *a)
{
    TlcObject *first[32];
    WorkStack pairs = {.items = first, .capacity = sizeof first / sizeof first[0]};
    bool equal = true;
    TlcObject *x = b, *y = a;
    for (;;) {
        if (x != y) {
            if (x->type != y->type) {
                equal = false;
                break;
            }
            if (x->type->kind == TLC_KIND_CONS) {
                work_push(&pairs, ((TlcCons *)x)->cdr);
                work_push(&pairs, ((TlcCons *)y)->cdr);
                x = ((TlcCons *)x)->car;
                y = ((TlcCons *)y)->car;
                continue;
            }
            if (x->type->kind != TLC_KIND_INT || ((TlcInt *)x)->value != ((TlcInt *)y)->value) {
                equal = false; /* nil and objects: identity, already compared */
                break;
            }
        }
        if (pairs.count == 0)
            break;
        y = pairs.items[--pairs.count];
        x = pairs.items[--pairs.count];
    }
    work_free(&pairs);
    return equal;
}

TlcObject *tlc_list_concat(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    TlcObject *head = a;
    TlcCons *last = NULL;
    for (TlcObject *p = b; p->type->kind != TLC_KIND_NIL; p = ((TlcCons *)p)->cdr) {
        if (p->type->kind != TLC_KIND_CONS)
            tlc_raise(TLC_ERR_TYPE, op, pc, "cannot concatenate an improper list");
        TlcCons *cell = (TlcCons *)tlc_cons_new(((TlcCons *)p)->car, a, tlc_site(op, pc));
        if (last)
            last->cdr = &cell->base;
        else
            head = &cell->base;
        last = cell;
    }
    return head;
}

TlcObject *tlc_list_nth(TlcObject *b, int64_t index, int op, int64_t pc)
{
    if (index < 0)
        tlc_raise_index(op, pc, index, "list");
    TlcObject *p = b;
    for (int64_t i = 0; i < index && p->type->kind == TLC_KIND_CONS; i++)
        p = ((TlcCons *)p)->cdr;
    if (p->type->kind != TLC_KIND_CONS)
        tlc_raise_index(op, pc, index, "list");
    return ((TlcCons *)p)->car;
}
