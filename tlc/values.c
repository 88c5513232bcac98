#include "values.h"

#include <inttypes.h>
#include <stdlib.h>

#include "errors.h"

/* A growable array of object pointers used as an explicit work stack. It is
 * malloc'd memory, which the GC does not scan: everything pushed on it stays
 * reachable from the value being walked, so nothing is lost. */
typedef struct WorkStack {
    TlcObject **items;
    size_t count, capacity;
} WorkStack;

static void work_push(WorkStack *w, TlcObject *o)
{
    if (w->count == w->capacity) {
        size_t cap = w->capacity ? w->capacity * 2 : 32;
        TlcObject **grown = realloc(w->items, cap * sizeof *grown);
        if (!grown)
            tlc_fail_internal("tlc: out of memory");
        w->items = grown;
        w->capacity = cap;
    }
    w->items[w->count++] = o;
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
                free(pending.items);
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

/* Compares pairwise with an explicit stack of (b, a) pairs. */
bool tlc_cons_equal(TlcObject *b, TlcObject *a)
{
    WorkStack pairs = {0};
    bool equal = true;
    work_push(&pairs, b);
    work_push(&pairs, a);
    while (equal && pairs.count > 0) {
        TlcObject *y = pairs.items[--pairs.count];
        TlcObject *x = pairs.items[--pairs.count];
        if (x == y)
            continue;
        if (x->type != y->type) {
            equal = false;
        } else if (x->type->kind == TLC_KIND_INT) {
            equal = ((TlcInt *)x)->value == ((TlcInt *)y)->value;
        } else if (x->type->kind == TLC_KIND_CONS) {
            work_push(&pairs, ((TlcCons *)x)->cdr);
            work_push(&pairs, ((TlcCons *)y)->cdr);
            work_push(&pairs, ((TlcCons *)x)->car);
            work_push(&pairs, ((TlcCons *)y)->car);
        } else {
            equal = false; /* nil and objects: identity, already compared */
        }
    }
    free(pairs.items);
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
