/* The generator of random TLC programs behind tlcgen (tests/gen/tlcgen.c)
 * and the differential fuzz target (fuzz/fuzz_engines.c); API in tlcgen.h.
 *
 * It writes a TLC assembly program (TLC.md, docs/assembly.md). The same
 * SEED, SIZE, SHAPE and choice bytes always give the same program (the
 * generator has its own xorshift64 PRNG; choice bytes, when given, make the
 * first decisions). SIZE (default 40) is the number of statements of the main
 * routine; methods and functions are smaller.
 *
 * SHAPE (optional; without it the general generator below, whose programs
 * do not depend on whether this option exists) makes a program of 1 to
 * 1 + min(4, SIZE / 20) fragments of one shape, each run by main in turn
 * (code at "shapes" below):
 *  - ring: 2-5 objects of up to 5 classes (different descriptors, the same
 *    attribute names at different places, `next` among them) linked in a
 *    ring; a loop walks the ring sending a method to each object (methods
 *    that bump a counter attribute of their own object and return it, return
 *    constants or attributes, read or write the next object, send it another
 *    method, or unlink it from the ring), with GETATTR/SETATTR of the walked
 *    object beside the SEND;
 *  - walk: a cons list (of integers or of two-element lists) or an object
 *    chain by `next` (one or two classes) built to a length derived from N,
 *    its head kept on the stack, walked by a cursor: sums, maxima, mapped
 *    lists, updates of the objects, sends, index walks (list DIV i), nested
 *    walks over the same list or chain;
 *  - retype: a stack slot holding an integer, then nil, a list or an object,
 *    then an integer again in a hot loop (a schedule of types over segments
 *    of the count), used by operations valid for its current type (a tag slot
 *    beside it says which);
 *  - lateerr: a loop of hundreds to thousands of iterations (from N) with
 *    PRINT output that raises a ZeroDivisionError, TypeError, IndexError,
 *    AttributeError or RecursionError at an iteration derived from N (or
 *    never: about 1 in 5), in the loop or in a method it sends;
 *  - deep: recursion through SEND (self-recursion with an argument, chains of
 *    objects of two classes, mutual recursion of two classes, a loop in every
 *    frame, descents in a loop each deeper) and through CALL (without end, or
 *    a chain of CALLs at the bottom of a SEND recursion), to depths of a few,
 *    about 900, around the bound of 1000 frames or beyond it;
 *  - long: loops of thousands to a few hundred thousand iterations
 *    (recurrences over 1-3 values, nested loops, and ring and retype
 *    fragments with long counts) for the tiers (`--jit-threshold`, the
 *    tier-up);
 *  - mix: fragments of every shape.
 * Shape programs keep the interpreter's work to a few million instructions
 * (tens of milliseconds); errors at run time are part of the shapes (lateerr,
 * deep); every branch offset is checked, loops longer than a branch reaches
 * use trampolines. With TLCGEN_DEBUG=1 in the
 * environment, a `#@` comment with the generator's model of the stack (one
 * letter per slot: i integer, l list, p pair, oN object of class N, a
 * anything) and a DUMP follow every statement, to check the model against a
 * real run.
 *
 * Every program terminates:
 *  - loops are counted: the counter is pushed before the loop, never
 *    overwritten by the body, and decremented to zero;
 *  - methods are ranked by name (m0 < m1 < ...): a method named mJ only sends
 *    names mK with K < J; functions are defined inline (jumped over) and only
 *    call functions whose definition is complete, so the call graph is a DAG;
 *  - an estimate of the dynamic instruction count is kept below a budget.
 * Branch offsets stay in -128..127: blocks are generated with a byte budget
 * and rolled back (model and text) when they grow too large.
 *
 * The generator tracks the type of every operand-stack slot (integer, proper
 * list with known length bounds, improper pair, object of a known class,
 * unknown) so that, apart from deliberate errors, programs run without
 * run-time errors. About 30% of the programs contain one deliberate error
 * (TypeError, IndexError, ZeroDivisionError, AttributeError, StackUnderflow,
 * StackOverflow, BranchError, InvalidOpcode or RecursionError) on the
 * unconditional path of main, of a method or of a function.
 */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlcgen.h"

/* ------------------------------------------------------------------ PRNG */

static uint64_t rng_state;
/* Choice bytes (tlcgen_generate): while some are left, each decision takes
 * its value from them instead of the PRNG, so that a fuzzer mutating the
 * bytes changes decisions one by one; the PRNG takes over when they run out. */
static const uint8_t *choice_bytes;
static size_t choice_left;

static uint64_t next_u64(void)
{
    uint64_t x = rng_state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    rng_state = x;
    return x;
}

/* A number in 0..n-1 (n > 0): from as many choice bytes as n needs, or from
 * the PRNG. */
static uint64_t draw(uint64_t n)
{
    if (choice_left == 0)
        return next_u64() % n;
    uint64_t v = 0;
    for (uint64_t span = 1; span < n && span <= UINT64_MAX / 256 && choice_left > 0; span *= 256) {
        v = v << 8 | *choice_bytes++;
        choice_left--;
    }
    return v % n;
}

/* A number in 0..n-1 (n > 0). */
static int rnd(int n)
{
    return (int)draw((uint64_t)n);
}

/* True with probability pct percent. */
static bool chance(int pct)
{
    return rnd(100) < pct;
}

/* ------------------------------------------------------------ the model */

enum { K_INT, K_LIST, K_PAIR, K_OBJ, K_ANY };

/* The static type of one operand-stack slot. */
typedef struct Ty {
    uint8_t kind;
    uint8_t cls;      /* K_OBJ: class index */
    uint8_t len_min;  /* K_LIST: length bounds */
    uint8_t len_max;  /* K_LIST: at most MAX_LIST */
    uint8_t elem_int; /* K_LIST: every element is an integer */
    uint8_t locked;   /* a loop counter: never overwritten */
} Ty;

#define MAX_LIST 200 /* longest list the generator lets a program build */
#define MAXD 48      /* model stack size; real depth stays far below 256 */
#define MAXFN 24     /* inline functions visible at one point */

enum { R_NONE, R_INT, R_ANY }; /* what a routine returns */

typedef struct Fn {
    int label;
    int pos; /* byte position of its entry in the routine */
    int ret; /* R_NONE, R_INT, R_ANY */
    long cost;
} Fn;

/* Everything a statement may change; copied whole for rollback. */
typedef struct Model {
    Ty st[MAXD];
    int depth;
    int floor; /* slots below it belong to enclosing blocks */
    int pos;   /* bytes of code emitted in the current routine */
    long cost; /* estimated dynamic instructions of the routine */
    long mult; /* product of the trip counts of the enclosing loops */
    int loops; /* enclosing loops */
    int nest;  /* enclosing blocks */
    Fn fns[MAXFN];
    int nfns;
    size_t buflen;   /* length of the routine's text */
    bool error_done; /* the deliberate error has been emitted */
    bool range_fail; /* a branch offset left -128..127: roll back */
} Model;

/* The routine being generated: constant while its body is generated. */
enum { F_MAIN, F_METHOD, F_FUNC };
typedef struct Frame {
    int kind;
    int nargs;
    Ty args[4];
    int send_bound; /* method names below it may be sent */
    int ret;
    int fn_nesting;  /* inline functions enclosing this one */
    bool error_here; /* this routine holds the deliberate error */
} Frame;

/* ------------------------------------------------------- program shape */

#define NATTR 5 /* a0..a2 integers, a3 a list of integers, a4 anything */
#define NMETH_MAX 4
#define NCLASS_MAX 5

typedef struct Sig {
    int argc;
    bool param_any[3];
    int ret;
} Sig;

typedef struct Cls {
    bool attr[NATTR];
    bool meth[NMETH_MAX];
    int impl_of; /* class whose method labels it uses (itself, or the one it duplicates) */
    char desc[200];
} Cls;

static int nmeth, ncls;
static Sig sigs[NMETH_MAX];
static Cls classes[NCLASS_MAX];
static long meth_cost[NMETH_MAX];

static int err_where; /* 0 none, 1 main, 2 method, 3 function */
static int err_meth;  /* err_where 2: method name */
static int err_cls;   /* err_where 2: class */
static int err_kind;

/* ---------------------------------------------------- text and emission */

typedef struct Buf {
    char *s;
    size_t len, cap;
} Buf;

static Buf program; /* the text tlcgen_generate returns */
static Buf *out;
static Model *m;
static Frame *fr;
static int next_label;
static long cost_limit;
static bool debug_model;

/* Where running out of memory unwinds to (tlcgen_generate returns NULL). */
static jmp_buf out_of_memory;

static void buf_put(Buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->s, cap);
        if (!p)
            longjmp(out_of_memory, 1);
        b->s = p;
        b->cap = cap;
    }
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = '\0';
}

static void text(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        abort();
    buf_put(out, line, (size_t)n);
    m->buflen = out->len;
}

/* Emits one instruction of `size` bytes. */
static void emit(int size, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        abort();
    text("    %s\n", line);
    m->pos += size;
    m->cost += m->mult;
}

static void put_label(int l)
{
    text("L%d:\n", l);
}

static void rollback(const Model *snap)
{
    *m = *snap;
    out->len = m->buflen;
    if (out->s)
        out->s[out->len] = '\0';
}

/* ------------------------------------------------------ type helpers */

static Ty ty_int(void)
{
    return (Ty){.kind = K_INT};
}

static Ty ty_list(int lo, int hi, bool elem_int)
{
    return (Ty){
        .kind = K_LIST, .len_min = (uint8_t)lo, .len_max = (uint8_t)hi, .elem_int = elem_int};
}

static Ty ty_obj(int c)
{
    return (Ty){.kind = K_OBJ, .cls = (uint8_t)c};
}

static Ty ty_any(void)
{
    return (Ty){.kind = K_ANY};
}

static void push(Ty t)
{
    if (m->depth >= MAXD)
        abort();
    m->st[m->depth++] = t;
}

static Ty pop(void)
{
    if (m->depth <= 0)
        abort();
    return m->st[--m->depth];
}

static Ty *slot(int d) /* d = depth from the top, 0 = top */
{
    return &m->st[m->depth - 1 - d];
}

static Ty attr_ty(int a)
{
    if (a <= 2)
        return ty_int();
    if (a == 3)
        return ty_list(0, 40, true);
    return ty_any();
}

/* Finds a random slot (depth from the top) satisfying pred, or -1. */
typedef bool (*SlotPred)(const Ty *t, int arg);

static int find_slot(SlotPred pred, int arg)
{
    int cand[MAXD], n = 0;
    for (int d = 0; d < m->depth && d < 120; d++)
        if (pred(slot(d), arg))
            cand[n++] = d;
    return n ? cand[rnd(n)] : -1;
}

static bool is_int(const Ty *t, int arg)
{
    (void)arg;
    return t->kind == K_INT;
}

static bool is_obj_with_attr(const Ty *t, int a)
{
    return t->kind == K_OBJ && classes[t->cls].attr[a];
}

static bool is_obj(const Ty *t, int arg)
{
    (void)arg;
    return t->kind == K_OBJ;
}

static bool is_list_nonempty_int(const Ty *t, int arg)
{
    (void)arg;
    return t->kind == K_LIST && t->len_min > 0 && t->elem_int;
}

static bool is_list_nonempty(const Ty *t, int ints)
{
    return t->kind == K_LIST && t->len_min > 0 && (!ints || t->elem_int);
}

static bool is_list(const Ty *t, int ints)
{
    return t->kind == K_LIST && (!ints || t->elem_int);
}

static bool is_pair(const Ty *t, int arg)
{
    (void)arg;
    return t->kind == K_PAIR;
}

/* A method the current routine may send to an object of class c that
 * returns `want` (-1: whatever), chosen at random; -1 if there is none. */
static int pick_method(int c, int want)
{
    int cand[NMETH_MAX], n = 0;
    for (int j = 0; j < nmeth && j < fr->send_bound; j++)
        if (classes[c].meth[j] && (want < 0 || sigs[j].ret == want))
            cand[n++] = j;
    return n ? cand[rnd(n)] : -1;
}

static bool has_sendable(const Ty *t, int want)
{
    return t->kind == K_OBJ && pick_method(t->cls, want) >= 0;
}

/* ------------------------------------------------------ expressions */

static void gen_int(int d);
static void gen_list(int d, bool ints);
static void gen_any(int d);

static void push_const(void)
{
    static const int interesting[] = {0, 1, -1, 2, 3, 7, 127, -128, 100, -100, 64, 10};
    int v = chance(60) ? interesting[rnd((int)(sizeof interesting / sizeof *interesting))]
                       : rnd(256) - 128;
    emit(2, "PUSH %d", v);
    push(ty_int());
}

/* A large constant built by repeated multiplication (overflow-prone). */
static void push_big(void)
{
    int base = chance(50) ? -128 : rnd(200) - 100;
    int times = 2 + rnd(9);
    emit(2, "PUSH %d", base);
    push(ty_int());
    for (int i = 0; i < times; i++) {
        emit(2, "PUSH %d", base);
        emit(1, "MUL");
    }
}

static bool callable(const Fn *f, int ret)
{
    return (ret < 0 || f->ret == ret) && f->pos - (m->pos + 2) >= -128 &&
           m->cost + m->mult * (f->cost + 2) <= cost_limit;
}

static bool can_call(int ret)
{
    for (int i = 0; i < m->nfns; i++)
        if (callable(&m->fns[i], ret))
            return true;
    return false;
}

/* Emits a CALL of a function returning `ret` (-1: any); one must exist. */
static void emit_call(int ret)
{
    int cand[MAXFN], n = 0;
    for (int i = 0; i < m->nfns; i++)
        if (callable(&m->fns[i], ret))
            cand[n++] = i;
    Fn *f = &m->fns[cand[rnd(n)]];
    m->cost += m->mult * f->cost;
    emit(2, "CALL L%d", f->label);
    if (f->ret == R_INT)
        push(ty_int());
    else if (f->ret == R_ANY)
        push(ty_any());
}

/* Pushes the receiver at stack depth d and the arguments; sends method j. */
static void emit_send(int d, int j)
{
    emit(2, "PICK %d", d);
    push(*slot(d));
    for (int i = 0; i < sigs[j].argc; i++) {
        if (sigs[j].param_any[i])
            gen_any(1);
        else
            gen_int(1);
    }
    for (int i = 0; i <= sigs[j].argc; i++)
        pop();
    m->cost += m->mult * meth_cost[j];
    emit(3, "SEND m%d/%d", j, sigs[j].argc);
    if (sigs[j].ret == R_INT)
        push(ty_int());
    else if (sigs[j].ret == R_ANY)
        push(ty_any());
}

static bool send_affordable(int j)
{
    return m->cost + m->mult * (meth_cost[j] + 10) <= cost_limit;
}

/* Pushes an integer. */
static void gen_int(int d)
{
    if (m->depth > MAXD - 10)
        d = 0;
    for (;;) {
        switch (d <= 0 ? rnd(3) : rnd(16)) {
        case 0:
            push_const();
            return;
        case 1:
            if (fr->kind != F_METHOD) {
                if (chance(50))
                    emit(1, "PUSHARG");
                else
                    emit(2, "PUSHARGN 0");
                push(ty_int());
                return;
            } else {
                int cand[4], n = 0;
                for (int i = 1; i < fr->nargs; i++)
                    if (fr->args[i].kind == K_INT)
                        cand[n++] = i;
                if (!n)
                    break;
                emit(2, "PUSHARGN %d", cand[rnd(n)]);
                push(ty_int());
                return;
            }
        case 2: {
            int s = find_slot(is_int, 0);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            push(ty_int());
            return;
        }
        case 3:
        case 4:
        case 5: {
            static const char *ops[] = {"ADD", "SUB", "MUL"};
            gen_int(d - 1);
            gen_int(d - 1);
            emit(1, "%s", ops[rnd(3)]);
            pop();
            return;
        }
        case 6:
            gen_int(d - 1);
            if (chance(50)) {
                int v;
                do
                    v = rnd(256) - 128;
                while (v == 0);
                emit(2, "PUSH %d", v);
                push(ty_int());
            } else {
                /* x*x + 1 is never 0 modulo 2^64 */
                gen_int(d - 1);
                emit(2, "PICK 0");
                emit(1, "MUL");
                emit(2, "PUSH 1");
                emit(1, "ADD");
            }
            emit(1, "DIV");
            pop();
            return;
        case 7: {
            static const char *ops[] = {"LT", "LE", "GT", "GE"};
            gen_int(d - 1);
            gen_int(d - 1);
            emit(1, "%s", ops[rnd(4)]);
            pop();
            return;
        }
        case 8:
            gen_any(d - 1);
            gen_any(d - 1);
            emit(1, chance(50) ? "EQ" : "NE");
            pop();
            pop();
            push(ty_int());
            return;
        case 9: {
            int a = rnd(3);
            int s = find_slot(is_obj_with_attr, a);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            emit(2, "GETATTR a%d", a);
            push(ty_int());
            return;
        }
        case 10: {
            int s = find_slot(has_sendable, R_INT);
            if (s < 0)
                break;
            int j = pick_method(slot(s)->cls, R_INT);
            if (!send_affordable(j))
                break;
            emit_send(s, j);
            return;
        }
        case 11:
            if (!can_call(R_INT))
                break;
            emit_call(R_INT);
            return;
        case 12: {
            int s = find_slot(is_list_nonempty_int, 0);
            if (s < 0)
                break;
            int len_min = slot(s)->len_min;
            emit(2, "PICK %d", s);
            if (chance(50)) {
                emit(1, "CAR");
            } else {
                emit(2, "PUSH %d", rnd(len_min < 128 ? len_min : 128));
                emit(1, "DIV");
            }
            push(ty_int());
            return;
        }
        case 13:
            if (!chance(30))
                break;
            push_big();
            return;
        case 14:
            gen_int(d - 1);
            emit(2, "PUSH 0");
            emit(1, "SWAP");
            emit(1, "SUB");
            return;
        default:
            push_const();
            return;
        }
    }
}

/* Pushes a proper list; `ints`: of integers only. */
static void gen_list(int d, bool ints)
{
    if (m->depth > MAXD - 10)
        d = 0;
    for (;;) {
        switch (d <= 0 ? rnd(2) : rnd(8)) {
        case 0:
            emit(1, "NIL");
            push(ty_list(0, 0, true));
            return;
        case 1: {
            int s = find_slot(is_list, ints);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            push(*slot(s));
            return;
        }
        case 2:
        case 3: {
            gen_list(d - 1, ints);
            Ty l = *slot(0);
            if (l.len_max >= MAX_LIST)
                return;
            if (ints || chance(60))
                gen_int(d - 1);
            else
                gen_any(d - 1);
            Ty car = pop();
            pop();
            emit(1, "CONS");
            push(ty_list(l.len_min + 1, l.len_max + 1, l.elem_int && car.kind == K_INT));
            return;
        }
        case 4: {
            gen_list(d - 1, ints);
            Ty b = *slot(0);
            if (b.len_max > 32) /* only short lists are copied */
                return;
            gen_list(d - 1, ints);
            Ty a = pop();
            pop();
            if (a.len_max + b.len_max > MAX_LIST) {
                emit(1, "POP");
                push(b);
                return;
            }
            emit(1, "ADD");
            push(ty_list(a.len_min + b.len_min, a.len_max + b.len_max, a.elem_int && b.elem_int));
            return;
        }
        case 5: {
            int s = find_slot(is_list_nonempty, ints);
            if (s < 0)
                break;
            Ty l = *slot(s);
            emit(2, "PICK %d", s);
            emit(1, "CDR");
            push(ty_list(l.len_min - 1, l.len_max - 1, l.elem_int));
            return;
        }
        case 6: {
            int s = find_slot(is_obj_with_attr, 3);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            emit(2, "GETATTR a3");
            push(attr_ty(3));
            return;
        }
        default:
            emit(1, "NIL");
            push(ty_list(0, 0, true));
            return;
        }
    }
}

/* NEW of class c, with its integer and list attributes initialised. Until
 * that is done the object is modelled as K_ANY, so that the values stored
 * into it are never read from its own uninitialised attributes. */
static void new_obj(int c)
{
    emit(2, "NEW %s", classes[c].desc);
    push(ty_any());
    for (int a = 0; a < 4; a++) {
        if (!classes[c].attr[a])
            continue;
        emit(2, "PICK 0");
        push(ty_any());
        if (a == 3) {
            gen_list(1, true);
            if (slot(0)->len_max > 40) {
                emit(1, "POP");
                emit(1, "NIL");
            }
        } else {
            gen_int(1);
        }
        emit(2, "SETATTR a%d", a);
        pop();
        pop();
    }
    if (classes[c].attr[4] && chance(50)) {
        emit(2, "PICK 0");
        push(ty_any());
        gen_any(0);
        emit(2, "SETATTR a4");
        pop();
        pop();
    }
    *slot(0) = ty_obj(c);
}

/* Pushes an object. */
static void gen_obj(void)
{
    if (fr->kind == F_METHOD && chance(30)) {
        emit(1, "PUSHARG");
        push(fr->args[0]);
        return;
    }
    int s = find_slot(is_obj, 0);
    if (s >= 0 && chance(60)) {
        emit(2, "PICK %d", s);
        push(*slot(s));
        return;
    }
    new_obj(rnd(ncls));
}

/* Pushes a value of any type. */
static void gen_any(int d)
{
    if (m->depth > MAXD - 10)
        d = 0;
    for (;;) {
        switch (d <= 0 ? rnd(3) : rnd(10)) {
        case 0:
            gen_int(0);
            return;
        case 1:
            emit(1, "NIL");
            push(ty_list(0, 0, true));
            return;
        case 2:
            if (m->depth > MAXD - 12 || !chance(40))
                break;
            gen_obj();
            return;
        case 3:
            gen_list(d - 1, false);
            return;
        case 4: /* an improper pair (x . integer) */
            gen_int(d - 1);
            gen_any(d - 1);
            pop();
            pop();
            emit(1, "CONS");
            push((Ty){.kind = K_PAIR});
            return;
        case 5: {
            int s = find_slot(is_pair, 0);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            emit(1, chance(50) ? "CAR" : "CDR");
            push(ty_any());
            return;
        }
        case 6: {
            int s = find_slot(is_obj_with_attr, 4);
            if (s < 0)
                break;
            emit(2, "PICK %d", s);
            emit(2, "GETATTR a4");
            push(ty_any());
            return;
        }
        case 7: {
            int s = find_slot(has_sendable, -1);
            if (s < 0)
                break;
            int j = pick_method(slot(s)->cls, -1);
            if (sigs[j].ret == R_NONE || !send_affordable(j))
                break;
            emit_send(s, j);
            return;
        }
        case 8:
            if (fr->kind == F_METHOD) {
                int i = rnd(fr->nargs);
                emit(2, "PUSHARGN %d", i);
                push(fr->args[i]);
                return;
            }
            if (!can_call(R_ANY))
                break;
            emit_call(R_ANY);
            return;
        default:
            gen_int(d - 1);
            return;
        }
    }
}

/* --------------------------------------------------------- errors */

enum {
    E_TYPE_ADD,
    E_TYPE_CAR,
    E_TYPE_GETATTR,
    E_TYPE_SEND,
    E_TYPE_LT,
    E_TYPE_BRSTK,
    E_INDEX_NTH,
    E_INDEX_ARG,
    E_ZERODIV,
    E_ATTR_GET,
    E_ATTR_SEND,
    E_ATTR_SET,
    E_UNDERFLOW,
    E_OVERFLOW,
    E_BRANCH,
    E_INVALID,
    E_RECURSION,
    E_COUNT
};

/* Emits code that always raises an error when it runs; the model is left as
 * it was (the code after it is never reached). */
static void gen_error(int kind)
{
    Model save = *m;
    switch (kind) {
    case E_TYPE_ADD:
        gen_int(1);
        if (chance(50))
            emit(1, "NIL");
        else
            new_obj(rnd(ncls));
        emit(1, "ADD");
        break;
    case E_TYPE_CAR:
        if (chance(50))
            emit(1, "NIL");
        else
            emit(2, "PUSH 4");
        emit(1, chance(50) ? "CAR" : "CDR");
        break;
    case E_TYPE_GETATTR:
        gen_int(1);
        emit(2, "GETATTR a0");
        break;
    case E_TYPE_SEND:
        emit(1, "NIL");
        emit(3, "SEND m0/0");
        break;
    case E_TYPE_LT:
        gen_int(1);
        gen_list(1, false);
        emit(1, chance(50) ? "LT" : "GE");
        break;
    case E_TYPE_BRSTK:
        emit(2, "PUSH 1");
        emit(1, "NIL");
        emit(1, "BR_COND_STK");
        break;
    case E_INDEX_NTH: {
        int len = rnd(3);
        emit(1, "NIL");
        for (int i = 0; i < len; i++) {
            emit(2, "PUSH %d", rnd(256) - 128);
            emit(1, "CONS");
        }
        emit(2, "PUSH %d", chance(50) ? -1 - rnd(5) : len + rnd(100));
        emit(1, "DIV");
        break;
    }
    case E_INDEX_ARG:
        emit(2, "PUSHARGN %d", fr->nargs + rnd(3));
        break;
    case E_ZERODIV:
        gen_int(1);
        emit(2, "PUSH 0");
        emit(1, "DIV");
        break;
    case E_ATTR_GET:
        new_obj(rnd(ncls));
        emit(2, "GETATTR zz");
        break;
    case E_ATTR_SEND:
        new_obj(rnd(ncls));
        emit(3, "SEND zz/0");
        break;
    case E_ATTR_SET:
        new_obj(rnd(ncls));
        emit(2, "PUSH 1");
        emit(2, "SETATTR zz");
        break;
    case E_UNDERFLOW:
        for (int i = 0; i <= m->depth; i++)
            emit(1, "POP");
        break;
    case E_OVERFLOW: {
        int l = next_label++;
        put_label(l);
        emit(2, "PUSH 1");
        emit(2, "PUSH 1");
        emit(2, "BR_COND L%d", l);
        m->cost += 600;
        break;
    }
    case E_BRANCH:
        emit(2, "PUSH 1");
        emit(2, "PUSH 1");
        emit(1, "BR_COND_STK"); /* into the operand byte of the next PUSH */
        emit(2, "PUSH 0");
        break;
    case E_INVALID:
        emit(1, "INVALID");
        break;
    case E_RECURSION: {
        int after = next_label++, f = next_label++;
        emit(2, "BR L%d", after);
        put_label(f);
        emit(2, "CALL L%d", f);
        put_label(after);
        emit(2, "CALL L%d", f);
        m->cost += 2000;
        break;
    }
    }
    /* restore the model but keep the text and the position */
    int pos = m->pos;
    long cost = m->cost;
    size_t buflen = m->buflen;
    *m = save;
    m->pos = pos;
    m->cost = cost;
    m->buflen = buflen;
    m->error_done = true;
}

/* ------------------------------------------------------ statements */

static void gen_block(int byte_limit, int nstmts);
static void gen_epilogue(bool final);

static void pop_to_floor(void)
{
    while (m->depth > m->floor) {
        emit(1, "POP");
        pop();
    }
}

/* Defines an inline function (jumped over) and usually calls it at once. */
static bool gen_function(void)
{
    Model before = *m;
    int after = next_label++, lab = next_label++;
    emit(2, "BR L%d", after);
    put_label(lab);
    Model outer = *m;
    Frame *outer_fr = fr;
    Frame f = {.kind = F_FUNC,
               .nargs = 1,
               .args = {ty_int()},
               .send_bound = fr->send_bound,
               .ret = rnd(3),
               .fn_nesting = fr->fn_nesting + 1,
               .error_here =
                   err_where == 3 && !m->error_done && fr->kind == F_MAIN && m->nest == 0};
    fr = &f;
    m->depth = 0;
    m->floor = 0;
    m->cost = 0;
    m->mult = 1;
    m->loops = 0;
    m->nest = 0;
    long saved_limit = cost_limit;
    cost_limit = 3000;
    int entry = m->pos;
    gen_block(100, 2 + rnd(5));
    gen_epilogue(true);
    cost_limit = saved_limit;
    long fcost = m->cost;
    bool err = m->error_done;
    bool range_fail = m->range_fail;
    int pos = m->pos;
    size_t buflen = m->buflen;
    fr = outer_fr;
    *m = outer;
    m->pos = pos;
    m->buflen = buflen;
    m->error_done = err;
    if (pos - entry > 110 || range_fail) { /* too far to jump over: give up */
        rollback(&before);
        return false;
    }
    put_label(after);
    m->fns[m->nfns++] = (Fn){.label = lab, .pos = entry, .ret = f.ret, .cost = fcost};
    if (f.error_here || chance(70)) {
        /* call it right away, most of the time (always when it holds the
         * deliberate error) */
        Fn *fn = &m->fns[m->nfns - 1];
        m->cost += m->mult * fn->cost;
        emit(2, "CALL L%d", lab);
        if (fn->ret == R_INT)
            push(ty_int());
        else if (fn->ret == R_ANY)
            push(ty_any());
    }
    return true;
}

/* One statement: changes the stack above the floor, prints, stores, calls,
 * branches. May leave values on the stack. */
static void gen_stmt(void)
{
    int above = m->depth - m->floor;
    for (;;) {
        switch (rnd(24)) {
        case 0:
        case 1:
        case 2:
            if (m->depth > MAXD - 14)
                break;
            switch (rnd(5)) {
            case 0:
            case 1:
                gen_int(2);
                break;
            case 2:
                gen_list(2, chance(50));
                break;
            case 3:
                gen_obj();
                break;
            default:
                gen_any(2);
                break;
            }
            return;
        case 3:
        case 4: {
            if (above < 1)
                break;
            Ty t = *slot(0);
            m->cost += m->mult * (t.kind == K_LIST ? t.len_max / 8 : 2);
            emit(1, "PRINT");
            pop();
            return;
        }
        case 5: {
            if (m->depth > 24 || !chance(40))
                break;
            long c = 1;
            for (int i = 0; i < m->depth; i++)
                c += m->st[i].kind == K_LIST ? m->st[i].len_max / 8 + 1 : 4;
            m->cost += m->mult * c;
            emit(1, "DUMP");
            return;
        }
        case 6:
            if (above < 1)
                break;
            emit(1, "POP");
            pop();
            return;
        case 7: {
            if (above < 2)
                break;
            if (chance(40)) {
                emit(1, "SWAP");
                Ty t = *slot(0);
                *slot(0) = *slot(1);
                *slot(1) = t;
                return;
            }
            int r = 2 + rnd((above < 6 ? above : 6) - 1);
            if (chance(50)) { /* the r-th from the top moves to the top */
                Ty t = *slot(r - 1);
                for (int i = r - 1; i > 0; i--)
                    *slot(i) = *slot(i - 1);
                *slot(0) = t;
                emit(2, "ROLL %d", r);
            } else { /* the top moves down to the r-th place */
                Ty t = *slot(0);
                for (int i = 0; i < r - 1; i++)
                    *slot(i) = *slot(i + 1);
                *slot(r - 1) = t;
                emit(2, "ROLL %d", -r);
            }
            return;
        }
        case 8:
            if (!chance(30))
                break;
            emit(2, "ROLL %d", rnd(3) - 1);
            return;
        case 9: {
            /* PUT: above the floor any value; anywhere, an integer into an
             * unlocked integer slot */
            if (above >= 2 && chance(50)) {
                int i = rnd(above - 1);
                Ty x = pop();
                emit(2, "PUT %d", i);
                *slot(i) = x;
                return;
            }
            int cand[MAXD], n = 0;
            for (int d = 0; d < m->depth && d < 100; d++)
                if (slot(d)->kind == K_INT && !slot(d)->locked)
                    cand[n++] = d;
            if (!n || m->depth > MAXD - 12)
                break;
            int d = cand[rnd(n)];
            gen_int(2);
            pop();
            emit(2, "PUT %d", d);
            return;
        }
        case 10: {
            if (above < 1 || slot(0)->kind != K_INT)
                break;
            static const char *ops[] = {"ADD", "SUB", "MUL"};
            gen_int(1);
            emit(1, "%s", ops[rnd(3)]);
            pop();
            return;
        }
        case 11: {
            int a = rnd(NATTR);
            int s = find_slot(is_obj_with_attr, a);
            if (s < 0 || m->depth > MAXD - 12)
                break;
            emit(2, "PICK %d", s);
            push(*slot(s));
            if (a == 3)
                gen_list(2, true);
            else if (a == 4)
                gen_any(2);
            else
                gen_int(2);
            if (a == 3 && slot(0)->len_max > 40) {
                emit(1, "POP");
                emit(1, "NIL");
            }
            emit(2, "SETATTR a%d", a);
            pop();
            pop();
            return;
        }
        case 12:
        case 13: {
            if (m->depth > MAXD - 12)
                break;
            int s = find_slot(has_sendable, -1);
            if (s < 0)
                break;
            int j = pick_method(slot(s)->cls, -1);
            if (!send_affordable(j))
                break;
            emit_send(s, j);
            if (sigs[j].ret != R_NONE && chance(50)) {
                emit(1, "PRINT");
                pop();
            }
            return;
        }
        case 14:
            if (!can_call(-1))
                break;
            emit_call(-1);
            return;
        case 15: { /* if: the block runs when the condition is false */
            if (m->nest >= 3 || m->depth > MAXD - 14)
                break;
            int skip = next_label++;
            gen_int(2);
            pop();
            emit(2, "BR_COND L%d", skip);
            gen_block(90, 1 + rnd(5));
            put_label(skip);
            return;
        }
        case 16: { /* if-else pushing one integer */
            if (m->nest >= 3 || m->depth > MAXD - 14)
                break;
            int els = next_label++, end = next_label++;
            gen_int(1);
            pop();
            emit(2, "BR_COND L%d", els);
            int a_start = m->pos;
            gen_block(40, rnd(3));
            gen_int(1);
            pop();
            emit(2, "BR L%d", end);
            int b_start = m->pos;
            put_label(els);
            gen_block(40, rnd(3));
            gen_int(1);
            put_label(end);
            if (b_start - a_start > 127 || m->pos - b_start > 127)
                m->range_fail = true;
            return;
        }
        case 17:
        case 18: { /* counted loop */
            if (m->loops >= 2 || m->nest >= 3 || m->depth > MAXD - 14)
                break;
            int trips = 1 + rnd(5);
            int head = next_label++;
            emit(2, "PUSH %d", trips);
            Ty counter = ty_int();
            counter.locked = 1;
            push(counter);
            put_label(head);
            long saved_mult = m->mult;
            m->mult *= trips;
            m->loops++;
            gen_block(100, 1 + rnd(6));
            emit(2, "PUSH 1");
            emit(1, "SUB");
            emit(2, "PICK 0");
            emit(2, "BR_COND L%d", head);
            m->loops--;
            m->mult = saved_mult;
            emit(1, "POP");
            pop();
            return;
        }
        case 19: { /* computed forward branch over a block */
            if (m->nest >= 3 || m->depth > MAXD - 14)
                break;
            gen_int(1);
            if (chance(15)) {
                emit(2, "PUSH 0");
                emit(1, "BR_COND_STK");
                pop();
                return;
            }
            /* a placeholder, patched with the block's size */
            text("    PUSH %4s\n", "");
            size_t at = out->len - 5;
            m->pos += 2;
            m->cost += m->mult;
            emit(1, "BR_COND_STK");
            pop();
            int start = m->pos;
            gen_block(100, 1 + rnd(4));
            char num[8];
            snprintf(num, sizeof num, "%4d", m->pos - start);
            memcpy(out->s + at, num, 4);
            return;
        }
        case 20: /* inline function definition */
            if (m->nfns >= MAXFN || fr->fn_nesting >= 2 || m->nest >= 2 || !chance(50))
                break;
            if (!gen_function())
                break;
            return;
        case 21: { /* early return */
            if (!chance(15) || m->depth > MAXD - 14 || (fr->error_here && !m->error_done))
                break;
            int skip = next_label++;
            gen_int(1);
            pop();
            emit(2, "BR_COND L%d", skip);
            int start = m->pos;
            Model save = *m;
            gen_epilogue(false);
            int pos = m->pos;
            long cost = m->cost;
            size_t buflen = m->buflen;
            *m = save;
            m->pos = pos;
            m->cost = cost;
            m->buflen = buflen;
            if (m->pos - start > 127)
                m->range_fail = true;
            put_label(skip);
            return;
        }
        case 22:
            emit(1, "NOP");
            return;
        default:
            /* the deliberate error, on the routine's unconditional path */
            if (fr->error_here && !m->error_done && m->nest == 0 && chance(25)) {
                gen_error(err_kind);
                return;
            }
            break;
        }
    }
}

/* Debug aid: a comment with the model's slot kinds, then a DUMP. */
static void debug_dump(void)
{
    if (!debug_model || m->depth > 40)
        return;
    static const char kinds[] = "ilpoa";
    char line[MAXD * 2 + 8];
    size_t n = 0;
    for (int i = 0; i < m->depth; i++) {
        line[n++] = kinds[m->st[i].kind];
        if (m->st[i].kind == K_OBJ)
            line[n++] = (char)('0' + m->st[i].cls);
    }
    line[n] = '\0';
    text("#@ %s\n", line);
    emit(1, "DUMP");
}

/* Statements at the current level; `byte_limit` bounds the code size of the
 * whole sequence (0: no bound). Rolls back statements that break a limit. */
static void gen_stmts(int byte_limit, int nstmts)
{
    int start = m->pos;
    for (int i = 0; i < nstmts; i++) {
        Model snap = *m;
        bool ok = false;
        for (int tries = 0; tries < 4 && !ok; tries++) {
            gen_stmt();
            debug_dump();
            ok = m->cost <= cost_limit && !m->range_fail && m->depth <= MAXD - 16 &&
                 (byte_limit == 0 || m->pos - start + (m->depth - m->floor) <= byte_limit);
            if (!ok)
                rollback(&snap);
        }
        if (!ok)
            break;
        if (fr->error_here && m->error_done && fr->kind == F_MAIN)
            break;
    }
}

/* A block: up to nstmts statements within byte_limit bytes of code, leaving
 * the stack as it found it. */
static void gen_block(int byte_limit, int nstmts)
{
    int saved_floor = m->floor;
    int saved_nfns = m->nfns;
    m->floor = m->depth;
    m->nest++;
    gen_stmts(byte_limit, nstmts);
    pop_to_floor();
    m->nest--;
    m->floor = saved_floor;
    m->nfns = saved_nfns;
}

/* Ends the routine (final) or returns early: arranges the stack for the
 * routine's return type, then RETURN. The final epilogue places the
 * deliberate error if the body has not. */
static void gen_epilogue(bool final)
{
    if (final && fr->error_here && !m->error_done)
        gen_error(err_kind);
    if (fr->ret == R_NONE) {
        while (m->depth > 0) {
            emit(1, "POP");
            pop();
        }
    } else if (fr->ret == R_INT) {
        gen_int(1);
    } else {
        gen_any(1);
    }
    emit(1, "RETURN");
}

/* ============================================================ shapes
 *
 * `tlcgen SEED SIZE SHAPE`: programs made of fragments of one shape (or of
 * every shape, `mix`). Each fragment leaves main's stack as it found it and
 * prints what it computed; its methods go after main. Trip counts, lengths
 * and depths are derived from the input N (N mod k or N*N mod k, scaled), so
 * one program runs different amounts of work for different N. Loops are
 * do-while loops (the count is at least 1) closed by a backward BR_COND; a
 * body longer than a branch reaches is threaded through trampolines (`BR
 * over; T: BR head; over:`). Every branch offset is checked; a fragment that
 * breaks one is generated again. An estimate of the interpreter's work keeps
 * each program within a few million instructions. */

enum { SH_RING, SH_WALK, SH_RETYPE, SH_LATEERR, SH_DEEP, SH_LONG, SH_MIX, SH_COUNT };
static const char *const shape_names[SH_COUNT] = {"ring", "walk", "retype", "lateerr",
                                                  "deep", "long", "mix"};

typedef struct SBuf {
    Buf b;
    int pos;
} SBuf;

static SBuf sb_main, sb_meth;
static SBuf *so; /* where S() writes: main or the methods */

static int *lab_pos;
static SBuf **lab_sb;
static int lab_cap;

typedef struct Site {
    int lab, after;
    SBuf *sb;
} Site;
static Site *sites;
static int nsites, sites_cap;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n);
    if (!p)
        longjmp(out_of_memory, 1);
    return p;
}

static int newl(void)
{
    int l = next_label++;
    if (l >= lab_cap) {
        lab_cap = lab_cap ? lab_cap * 2 : 1024;
        lab_pos = xrealloc(lab_pos, sizeof *lab_pos * (size_t)lab_cap);
        lab_sb = xrealloc(lab_sb, sizeof *lab_sb * (size_t)lab_cap);
    }
    lab_pos[l] = -1;
    lab_sb[l] = NULL;
    return l;
}

static void sput(const char *fmt, va_list ap)
{
    char line[512];
    int n = vsnprintf(line, sizeof line, fmt, ap);
    if (n < 0 || (size_t)n >= sizeof line)
        abort();
    buf_put(&so->b, line, (size_t)n);
}

/* One instruction of `size` bytes. */
static void S(int size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_put(&so->b, "    ", 4);
    sput(fmt, ap);
    va_end(ap);
    buf_put(&so->b, "\n", 1);
    so->pos += size;
}

static void SL(int l)
{
    char line[32];
    int n = snprintf(line, sizeof line, "L%d:\n", l);
    buf_put(&so->b, line, (size_t)n);
    lab_pos[l] = so->pos;
    lab_sb[l] = so;
}

/* A branch (BR, BR_COND, CALL) to label l: its offset is checked later. */
static void SJ(const char *op, int l)
{
    S(2, "%s L%d", op, l);
    if (nsites == sites_cap) {
        sites_cap = sites_cap ? sites_cap * 2 : 1024;
        sites = xrealloc(sites, sizeof *sites * (size_t)sites_cap);
    }
    sites[nsites++] = (Site){l, so->pos, so};
}

typedef struct Snap {
    size_t ml, xl;
    int mp, xp, ns;
} Snap;

static Snap snap_take(void)
{
    return (Snap){sb_main.b.len, sb_meth.b.len, sb_main.pos, sb_meth.pos, nsites};
}

static void snap_restore(Snap s)
{
    sb_main.b.len = s.ml;
    sb_meth.b.len = s.xl;
    if (sb_main.b.s)
        sb_main.b.s[s.ml] = '\0';
    if (sb_meth.b.s)
        sb_meth.b.s[s.xl] = '\0';
    sb_main.pos = s.mp;
    sb_meth.pos = s.xp;
    nsites = s.ns;
}

/* The branches emitted since `from` all reach their labels. */
static bool sites_ok(int from)
{
    for (int i = from; i < nsites; i++) {
        int l = sites[i].lab;
        if (lab_pos[l] < 0 || lab_sb[l] != sites[i].sb)
            return false;
        int off = lab_pos[l] - sites[i].after;
        if (off < -128 || off > 127)
            return false;
    }
    return true;
}

/* ---- values */

/* Pushes the integer v (any value; large ones by PUSH, MUL, ADD). */
static void push_int(long v)
{
    if (v >= -128 && v <= 127) {
        S(2, "PUSH %ld", v);
        return;
    }
    long q = v / 100, r = v % 100;
    push_int(q);
    S(2, "PUSH 100");
    S(1, "MUL");
    if (r) {
        S(2, "PUSH %ld", r);
        S(1, "ADD");
    }
}

/* x -> x mod k (k > 0; floor division: 0..k-1 for any x). */
static void mod_top(long k)
{
    S(2, "PICK 0");
    push_int(k);
    S(1, "DIV");
    push_int(k);
    S(1, "MUL");
    S(1, "SUB");
}

/* Pushes a count in lo..hi (lo <= hi) derived from the input N (main only:
 * argument 0 is N there). Returns the largest value it can push. */
static long push_count(long lo, long hi)
{
    if (hi <= lo || chance(15)) {
        long v = hi <= lo ? lo : lo + (long)draw((uint64_t)(hi - lo + 1));
        push_int(v);
        return v;
    }
    long span = hi - lo;
    long k = 2 + rnd((int)(span < 100 ? span : 100));
    long s = span / (k - 1);
    if (s < 1)
        s = 1;
    S(1, "PUSHARG");
    if (chance(50)) {
        S(2, "PICK 0");
        S(1, "MUL");
    } else if (chance(30)) {
        push_int(1 + rnd(7));
        S(1, "ADD");
    }
    mod_top(k);
    if (s != 1) {
        push_int(s);
        S(1, "MUL");
    }
    if (lo) {
        push_int(lo);
        S(1, "ADD");
    }
    return lo + (k - 1) * s;
}

/* A loop's trips the budget allows: at least 1, at most hi_trips. */
static long trips_bound(long trips, long hi_trips)
{
    if (trips > hi_trips)
        trips = hi_trips;
    return trips < 1 ? 1 : trips;
}

/* ---- do-while loops with trampolines */

static bool long_mode; /* shape long: counts in the upper half of their range */

/* Pushes a loop's trip count up to `hi` (from half of it in long mode). */
static long push_trips(long hi)
{
    return push_count(long_mode && hi > 2 ? hi / 2 : 1, hi);
}

#define MAXLOOPS 8
static int loop_target[MAXLOOPS]; /* where each open loop's back-edge goes */
static int nloops_open;

/* Starts a loop whose count is on the top of the stack (>= 1). */
static void loop_begin(void)
{
    if (nloops_open >= MAXLOOPS)
        abort();
    int l = newl();
    SL(l);
    loop_target[nloops_open++] = l;
}

/* Between statements of a loop body: a trampoline for every open loop whose
 * back-edge target is getting out of reach. */
static void tramp_point(void)
{
    int need = 0;
    for (int i = 0; i < nloops_open; i++)
        if (so->pos - lab_pos[loop_target[i]] > 70)
            need++;
    if (!need)
        return;
    int over = newl();
    SJ("BR", over);
    for (int i = 0; i < nloops_open; i++) {
        if (so->pos - lab_pos[loop_target[i]] <= 70 - 2 * need)
            continue;
        int t = newl();
        SL(t);
        SJ("BR", loop_target[i]);
        loop_target[i] = t;
    }
    SL(over);
}

/* Ends the innermost loop: the count is decremented, the loop goes on while
 * it is not zero, then the count is dropped. */
static void loop_end(void)
{
    tramp_point();
    S(2, "PUSH 1");
    S(1, "SUB");
    S(2, "PICK 0");
    SJ("BR_COND", loop_target[--nloops_open]);
    S(1, "POP");
}

/* The same for a loop over a cursor (a list or an object chain, its head
 * non-nil): goes on while the cursor on the top is not nil, then drops it. */
static void loop_end_cursor(void)
{
    tramp_point();
    S(2, "PICK 0");
    SJ("BR_COND", loop_target[--nloops_open]);
    S(1, "POP");
}

/* if (top mod p == 0) { body }: pops nothing; the value tested is at depth d. */
static int cond_begin(int d, long p)
{
    int skip = newl();
    S(2, "PICK %d", d);
    mod_top(p);
    SJ("BR_COND", skip);
    return skip;
}

static void cond_end(int skip)
{
    SL(skip);
}

static void meth_end(void)
{
    so = &sb_main;
}

/* Smallest power of two p with hi / p <= lines (to print every p trips). */
static long print_period(long hi, long lines)
{
    long p = 1;
    while (hi / p > lines)
        p *= 2;
    return p;
}

/* An integer transformation of the top of the stack (cheap). */
static void xform_int(void)
{
    switch (rnd(6)) {
    case 0:
        break;
    case 1:
        push_int(rnd(9) + 2);
        S(1, "MUL");
        break;
    case 2:
        push_int(rnd(200) - 100);
        S(1, "ADD");
        break;
    case 3:
        S(2, "PICK 0");
        S(1, "MUL");
        break;
    case 4:
        push_int(rnd(7) + 2);
        S(1, "DIV");
        break;
    default:
        S(2, "PUSH 0");
        S(1, "SWAP");
        S(1, "SUB");
        break;
    }
}

/* ---- shape 1: cyclic object graphs across several classes */

static const char *const ring_attrs[] = {"tag", "cnt", "v0", "v1", "x", "y"};
#define NRATTR 6

typedef struct RCls {
    bool has[NRATTR];
    int get_label, h_label;
    char desc[300];
} RCls;

/* Builds a descriptor: "next", the attributes of `has`, the methods given,
 * all in a random order. */
static void build_desc(char *desc, size_t cap, const bool *has, const char **extra, int nextra)
{
    const char *items[NRATTR + 8];
    char methbuf[4][64];
    int n = 0;
    items[n++] = "next";
    for (int a = 0; a < NRATTR; a++)
        if (has[a])
            items[n++] = ring_attrs[a];
    for (int i = 0; i < nextra && i < 4; i++) {
        snprintf(methbuf[i], sizeof methbuf[i], "%s", extra[i]);
        items[n++] = methbuf[i];
    }
    for (int i = n - 1; i > 0; i--) {
        int j = rnd(i + 1);
        const char *t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += (size_t)snprintf(desc + len, cap - len, "%s%s", i ? "," : "", items[i]);
}

/* The body of a ring method: leaves one integer and returns. */
static void ring_method(const RCls *k, int argc, bool common_tag, bool have_h, bool is_h,
                        const char *hname)
{
    /* an optional effect first */
    if (common_tag && chance(25)) { /* the next object's tag := something */
        S(2, "PUSHARGN 0");
        S(2, "GETATTR next");
        if (argc)
            S(2, "PUSHARGN 1");
        else
            push_int(rnd(100));
        S(2, "SETATTR tag");
    } else if (k->has[1] && chance(30)) { /* self.cnt -= arg or k */
        S(2, "PUSHARGN 0");
        S(2, "PUSHARGN 0");
        S(2, "GETATTR cnt");
        if (argc)
            S(2, "PUSHARGN 1");
        else
            push_int(rnd(5) + 1);
        S(1, "SUB");
        S(2, "SETATTR cnt");
    } else if (!is_h && chance(8)) { /* unlink the next object: the ring shrinks */
        S(2, "PUSHARGN 0");
        S(2, "PUSHARGN 0");
        S(2, "GETATTR next");
        S(2, "GETATTR next");
        S(2, "SETATTR next");
    }
    for (;;) {
        switch (rnd(8)) {
        case 0: /* a constant */
            push_int(rnd(40) - 10);
            break;
        case 1: /* self.cnt += d; return self.cnt */
            if (!k->has[1])
                continue;
            S(2, "PUSHARGN 0");
            S(2, "PICK 0");
            S(2, "GETATTR cnt");
            push_int(rnd(5) + 1);
            S(1, "ADD");
            S(2, "SETATTR cnt");
            S(2, "PUSHARGN 0");
            S(2, "GETATTR cnt");
            break;
        case 2: { /* an attribute of its own */
            int cand[NRATTR], n = 0;
            for (int a = 0; a < NRATTR; a++)
                if (k->has[a])
                    cand[n++] = a;
            if (!n)
                continue;
            S(2, "PUSHARGN 0");
            S(2, "GETATTR %s", ring_attrs[cand[rnd(n)]]);
            if (argc && chance(50)) {
                S(2, "PUSHARGN 1");
                S(1, "ADD");
            }
            break;
        }
        case 3: /* the next object's tag */
            if (!common_tag)
                continue;
            S(2, "PUSHARGN 0");
            S(2, "GETATTR next");
            S(2, "GETATTR tag");
            break;
        case 4: /* the next object's h */
            if (!have_h || is_h)
                continue;
            S(2, "PUSHARGN 0");
            S(2, "GETATTR next");
            S(3, "SEND %s/0", hname);
            push_int(rnd(10));
            S(1, "ADD");
            break;
        case 5: /* from the argument */
            if (!argc)
                continue;
            S(2, "PUSHARGN 1");
            push_int(rnd(7) - 3);
            S(1, "MUL");
            break;
        case 6: /* self.cnt := self.cnt * 2 + arg, mod 1000 */
            if (!k->has[1])
                continue;
            S(2, "PUSHARGN 0");
            S(2, "PUSHARGN 0");
            S(2, "GETATTR cnt");
            S(2, "PUSH 2");
            S(1, "MUL");
            if (argc)
                S(2, "PUSHARGN 1");
            else
                S(2, "PUSH 1");
            S(1, "ADD");
            mod_top(1000);
            S(2, "SETATTR cnt");
            S(2, "PUSHARGN 0");
            S(2, "GETATTR cnt");
            break;
        default:
            push_int(rnd(3));
            break;
        }
        break;
    }
    S(1, "RETURN");
}

enum {
    RS_SEND,
    RS_SEND_NEXT,
    RS_SETTAG,
    RS_GETTAG,
    RS_ADV,
    RS_COND_SEND,
    RS_COND_ADV,
    RS_COND_PRINT
};

/* Stack of a ring walk: [.. acc cur c]. */
static void ring_stmt(int kind, const char *mname, int argc, long period)
{
    switch (kind) {
    case RS_SEND:
    case RS_SEND_NEXT:
    case RS_COND_SEND: {
        int skip = kind == RS_COND_SEND ? cond_begin(0, 2 + rnd(6)) : -1;
        S(2, "PICK 1");
        if (kind == RS_SEND_NEXT)
            S(2, "GETATTR next");
        if (argc) {
            if (chance(60))
                S(2, "PICK 1");
            else
                push_int(rnd(20));
        }
        S(3, "SEND %s/%d", mname, argc);
        S(2, "PICK 3");
        S(1, chance(75) ? "ADD" : "SUB");
        S(2, "PUT 2");
        if (skip >= 0)
            cond_end(skip);
        break;
    }
    case RS_SETTAG:
        S(2, "PICK 1");
        S(2, chance(50) ? "PICK 3" : "PICK 1");
        S(2, "SETATTR tag");
        break;
    case RS_GETTAG:
        S(2, "PICK 1");
        if (chance(40))
            S(2, "GETATTR next");
        S(2, "GETATTR tag");
        S(2, "PICK 3");
        S(1, "ADD");
        S(2, "PUT 2");
        break;
    case RS_ADV:
    case RS_COND_ADV: {
        int skip = kind == RS_COND_ADV ? cond_begin(0, 2 + rnd(4)) : -1;
        S(2, "PICK 1");
        S(2, "GETATTR next");
        S(2, "PUT 1");
        if (skip >= 0)
            cond_end(skip);
        break;
    }
    case RS_COND_PRINT: {
        int skip = cond_begin(0, period);
        S(2, "PICK 2");
        S(1, "PRINT");
        cond_end(skip);
        break;
    }
    }
}

/* Cost of one ring method call (the interpreter's instructions, roughly). */
#define RING_SEND_COST 40

static void frag_ring(long budget, long hi_trips)
{
    int nobj = 2 + rnd(4);
    int ncl = 1 + rnd(nobj);
    bool common_tag = chance(70);
    bool common_cnt = chance(50);
    const char *mname = chance(50) ? "get" : "step";
    const char *hname = "h";
    int argc = rnd(2);
    bool have_h = chance(40);
    RCls cls[5];
    for (int c = 0; c < ncl; c++) {
        RCls *k = &cls[c];
        for (int a = 0; a < NRATTR; a++)
            k->has[a] = chance(45);
        if (common_tag)
            k->has[0] = true;
        if (common_cnt)
            k->has[1] = true;
        k->get_label = newl();
        k->h_label = have_h ? newl() : -1;
        char m1[64], m2[64];
        const char *extra[2] = {m1, m2};
        snprintf(m1, sizeof m1, "%s=L%d", mname, k->get_label);
        snprintf(m2, sizeof m2, "%s=L%d", hname, k->h_label);
        build_desc(k->desc, sizeof k->desc, k->has, extra, have_h ? 2 : 1);
    }
    /* methods */
    for (int c = 0; c < ncl; c++) {
        so = &sb_meth;
        SL(cls[c].get_label);
        ring_method(&cls[c], argc, common_tag, have_h, false, hname);
        if (have_h) {
            SL(cls[c].h_label);
            ring_method(&cls[c], 0, common_tag, false, true, hname);
        }
        meth_end();
    }
    /* the objects: [o0 .. o(n-1)], attributes set to integers */
    int ocls[5];
    for (int i = 0; i < nobj; i++) {
        ocls[i] = i < ncl ? i : rnd(ncl);
        S(2, "NEW %s", cls[ocls[i]].desc);
        for (int a = 0; a < NRATTR; a++) {
            if (!cls[ocls[i]].has[a])
                continue;
            S(2, "PICK 0");
            push_int(rnd(50));
            S(2, "SETATTR %s", ring_attrs[a]);
        }
    }
    for (int i = 0; i < nobj; i++) {
        int j = (i + 1) % nobj;
        S(2, "PICK %d", nobj - 1 - i);
        S(2, "PICK %d", nobj - 1 - j + 1);
        S(2, "SETATTR next");
    }
    bool keep = chance(60);
    int start = rnd(nobj);
    S(2, "PICK %d", nobj - 1 - start);
    if (!keep)
        for (int i = 0; i < nobj; i++) {
            S(1, "SWAP");
            S(1, "POP");
        }
    S(2, "PUSH 0");
    S(1, "SWAP"); /* [.. acc cur] */

    /* the walk: plan the body, then its count */
    int plan[12], np = 0;
    int nsend = 1 + rnd(3);
    for (int i = 0; i < nsend; i++)
        plan[np++] = chance(75) ? RS_SEND : (chance(50) ? RS_SEND_NEXT : RS_COND_SEND);
    plan[np++] = RS_ADV;
    if (common_tag)
        for (int i = rnd(3); i > 0; i--)
            plan[np++] = chance(50) ? RS_SETTAG : RS_GETTAG;
    if (chance(20))
        plan[np++] = RS_COND_ADV;
    if (chance(50))
        plan[np++] = RS_COND_PRINT;
    for (int i = np - 1; i > 0; i--) {
        int j = rnd(i + 1), t = plan[i];
        plan[i] = plan[j];
        plan[j] = t;
    }
    long per = 8 + np * 8 + nsend * RING_SEND_COST * (have_h ? 2 : 1);
    long hi = trips_bound(budget / per, hi_trips);
    long hi_eff = push_trips(hi);
    long period = print_period(hi_eff, 30);
    loop_begin();
    for (int i = 0; i < np; i++) {
        ring_stmt(plan[i], mname, argc, period);
        tramp_point();
    }
    loop_end();
    /* [.. acc cur] */
    if (common_tag && chance(50)) {
        S(2, "GETATTR tag");
        S(1, "PRINT");
    } else {
        S(1, "POP");
    }
    S(1, "PRINT");
    if (keep) {
        for (int i = nobj - 1; i >= 0; i--) {
            const RCls *k = &cls[ocls[i]];
            if (k->has[1]) {
                S(2, "GETATTR cnt");
                S(1, "PRINT");
            } else if (k->has[0]) {
                S(2, "GETATTR tag");
                S(1, "PRINT");
            } else {
                S(1, "POP");
            }
        }
    }
}

/* ---- shape 2: lists and object chains walked with the head on the stack */

/* Builds a list of length count (on the top, >= 1): [.. c] -> [.. lst].
 * elem: 0 integers, 1 two-element lists of integers. */
static void build_list(int elem)
{
    S(1, "NIL");
    S(1, "SWAP"); /* [.. lst c] */
    loop_begin();
    S(1, "SWAP");
    S(2, "PICK 1"); /* [.. c lst c] */
    xform_int();
    if (elem == 1) {
        S(1, "NIL");
        S(1, "SWAP");
        S(1, "CONS");
        push_int(rnd(20) - 5);
        S(1, "CONS");
    }
    S(1, "CONS");
    S(1, "SWAP");
    loop_end();
}

/* A walk of the list on the top (non-empty): [.. lst] -> [.. lst acc],
 * elements integers (elem 0) or two-element lists (elem 1). */
static void walk_list(int elem, int how)
{
    if (how == 2) /* map: the accumulator is a list */
        S(1, "NIL");
    else
        S(2, "PUSH 0");
    S(2, "PICK 1"); /* [.. lst acc cur] */
    loop_begin();
    S(2, "PICK 0");
    S(1, "CAR");
    if (elem == 1) {
        if (chance(50)) {
            S(2, "PICK 0");
            S(1, "CAR");
            S(1, "SWAP");
            S(1, "CDR");
            S(1, "CAR");
            S(1, chance(50) ? "MUL" : "SUB");
        } else { /* a nested walk over the element */
            S(2, "PUSH 0");
            S(1, "SWAP"); /* [.. cur s icur] */
            loop_begin();
            S(2, "PICK 0");
            S(1, "CAR");
            S(2, "PICK 2");
            S(1, "ADD");
            S(2, "PUT 1");
            S(1, "CDR");
            loop_end_cursor(); /* [.. cur s] */
        }
    }
    xform_int();
    switch (how) {
    case 0: /* sum */
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    case 1: { /* max */
        int take = newl(), done = newl();
        S(2, "PICK 0");
        S(2, "PICK 3");
        S(1, "GT");
        SJ("BR_COND", take);
        S(1, "POP");
        SJ("BR", done);
        SL(take);
        S(2, "PUT 1");
        SL(done);
        break;
    }
    default: /* map into a reversed list */
        S(2, "PICK 2");
        S(1, "SWAP");
        S(1, "CONS");
        S(2, "PUT 1");
        break;
    }
    S(1, "CDR");
    loop_end_cursor(); /* [.. lst acc] */
}

/* A nested walk: for each element of the list, a walk over the whole list:
 * [.. lst] -> [.. lst acc]. Integer elements. */
static void walk_nested(void)
{
    S(2, "PUSH 0");
    S(2, "PICK 1"); /* [.. lst acc cur] */
    loop_begin();
    S(2, "PICK 0");
    S(1, "CAR");    /* [.. lst acc cur e] */
    S(2, "PICK 3"); /* [.. lst acc cur e icur] */
    loop_begin();
    S(2, "PICK 0");
    S(1, "CAR");
    S(2, "PICK 2");
    S(1, chance(50) ? "SUB" : "MUL");
    S(2, "PICK 4");
    S(1, "ADD");
    S(2, "PUT 3");
    S(1, "CDR");
    loop_end_cursor(); /* [.. lst acc cur e] */
    S(1, "POP");
    S(1, "CDR");
    loop_end_cursor(); /* [.. lst acc] */
}

static void frag_walk(long budget, long hi_len)
{
    int kind = rnd(5);
    if (kind <= 2) { /* a list */
        int elem = kind == 2 ? 1 : 0;
        int nwalks = 1 + rnd(3);
        bool nested = elem == 0 && chance(35);
        bool index_walk = elem == 0 && !nested && chance(25);
        long per = 12 + nwalks * 14 + (elem ? 20 : 0);
        long hi = budget / per;
        if (nested) { /* quadratic */
            long q = 1;
            while ((q + 1) * (q + 1) * 10 < budget)
                q++;
            hi = q;
        } else if (index_walk) {
            long q = 1;
            while ((q + 1) * (q + 1) / 2 * 3 + (q + 1) * 12 < budget)
                q++;
            hi = q;
        }
        if (hi > hi_len)
            hi = hi_len;
        if (hi < 1)
            hi = 1;
        long len = push_count(1, hi);
        if (index_walk)
            S(2, "PICK 0"); /* [.. L c] */
        build_list(elem);
        if (len <= 40 && chance(50)) {
            S(2, "PICK 0");
            S(1, "PRINT");
        }
        if (index_walk) { /* [.. L lst] */
            S(2, "PUSH 0");
            S(2, "PICK 2"); /* [.. L lst acc i] */
            loop_begin();
            S(2, "PICK 2");
            S(2, "PICK 1");
            S(2, "PUSH 1");
            S(1, "SUB");
            S(1, "DIV");
            xform_int();
            S(2, "PICK 2");
            S(1, "ADD");
            S(2, "PUT 1");
            loop_end(); /* [.. L lst acc] */
            S(1, "PRINT");
            S(1, "SWAP");
            S(1, "POP");
        }
        if (chance(20) && !nested && len * 2 <= hi) { /* the list twice */
            S(2, "PICK 0");
            S(1, "ADD");
        }
        for (int w = 0; w < nwalks; w++) {
            if (nested && w == 0) {
                walk_nested();
            } else {
                int how = rnd(3);
                walk_list(elem, how);
                if (how == 2 && len > 40) /* a long mapped list: its first element */
                    S(1, "CAR");
            }
            S(1, "PRINT");
            tramp_point();
        }
        S(1, "POP");
        return;
    }
    /* an object chain by `next`, of one or two classes */
    bool two = chance(60);
    int l1 = newl(), l2 = newl();
    char d1[120], d2[120];
    bool meth = chance(60);
    if (meth) {
        snprintf(d1, sizeof d1, chance(50) ? "val,next,get=L%d" : "next,val,get=L%d", l1);
        snprintf(d2, sizeof d2, chance(50) ? "w,next,val,get=L%d" : "get=L%d,val,w,next", l2);
    } else {
        snprintf(d1, sizeof d1, chance(50) ? "val,next" : "next,val");
        snprintf(d2, sizeof d2, chance(50) ? "w,next,val" : "val,w,next");
    }
    if (meth) {
        for (int c = 0; c < 2; c++) {
            so = &sb_meth;
            SL(c ? l2 : l1);
            switch (rnd(3)) {
            case 0:
                push_int(rnd(10));
                break;
            case 1:
                S(2, "PUSHARGN 0");
                S(2, "GETATTR val");
                xform_int();
                break;
            default: /* self.val += 1; return self.val */
                S(2, "PUSHARGN 0");
                S(2, "PICK 0");
                S(2, "GETATTR val");
                S(2, "PUSH 1");
                S(1, "ADD");
                S(2, "SETATTR val");
                S(2, "PUSHARGN 0");
                S(2, "GETATTR val");
                break;
            }
            S(1, "RETURN");
            meth_end();
        }
    }
    bool nested = chance(30);
    int nwalks = 1 + rnd(2);
    long hi = budget / (30 + nwalks * 30);
    if (nested) {
        long q = 1;
        while ((q + 1) * (q + 1) * 14 < budget)
            q++;
        hi = q;
    }
    if (hi > hi_len)
        hi = hi_len;
    if (hi < 1)
        hi = 1;
    S(1, "NIL");
    push_count(1, hi); /* [.. head c] */
    loop_begin();
    if (two) {
        int odd = newl(), join = newl();
        S(2, "PICK 0");
        mod_top(2 + rnd(2));
        SJ("BR_COND", odd);
        S(2, "NEW %s", d1);
        SJ("BR", join);
        SL(odd);
        S(2, "NEW %s", d2);
        S(2, "PICK 0");
        push_int(rnd(9));
        S(2, "SETATTR w");
        SL(join);
    } else {
        S(2, "NEW %s", d1);
    }
    S(2, "PICK 0");
    S(2, "PICK 2");
    xform_int();
    S(2, "SETATTR val");
    S(2, "PICK 0");
    S(2, "PICK 3");
    S(2, "SETATTR next");
    S(2, "PUT 1");
    loop_end(); /* [.. head] */
    for (int w = 0; w < nwalks; w++) {
        S(2, "PUSH 0");
        S(2, "PICK 1"); /* [.. head acc cur] */
        loop_begin();
        if (nested && w == 0) {
            S(2, "PICK 0");
            S(2, "GETATTR val"); /* [.. head acc cur v] */
            S(2, "PICK 3");      /* [.. head acc cur v icur] */
            loop_begin();
            S(2, "PICK 0");
            S(2, "GETATTR val");
            S(2, "PICK 2");
            S(1, chance(50) ? "ADD" : "MUL");
            S(2, "PICK 4");
            S(1, "ADD");
            S(2, "PUT 3");
            S(2, "GETATTR next");
            loop_end_cursor();
            S(1, "POP");
        }
        int nst = 1 + rnd(3);
        for (int i = 0; i < nst; i++) {
            switch (rnd(meth ? 4 : 3)) {
            case 0:
                S(2, "PICK 0");
                S(2, "GETATTR val");
                S(2, "PICK 2");
                S(1, "ADD");
                S(2, "PUT 1");
                break;
            case 1: /* cur.val := cur.val + acc mod 997 */
                S(2, "PICK 0");
                S(2, "PICK 0");
                S(2, "GETATTR val");
                S(2, "PICK 3");
                S(1, "ADD");
                mod_top(997);
                S(2, "SETATTR val");
                break;
            case 2: { /* the next object's val, when there is one */
                int skip = newl();
                S(2, "PICK 0");
                S(2, "GETATTR next");
                S(1, "NIL");
                S(1, "EQ");
                SJ("BR_COND", skip);
                S(2, "PICK 0");
                S(2, "GETATTR next");
                S(2, "GETATTR val");
                S(2, "PICK 2");
                S(1, "SUB");
                S(2, "PUT 1");
                SL(skip);
                break;
            }
            default:
                S(2, "PICK 0");
                S(3, "SEND get/0");
                S(2, "PICK 2");
                S(1, "ADD");
                S(2, "PUT 1");
                break;
            }
            tramp_point();
        }
        S(2, "GETATTR next");
        loop_end_cursor();
        S(1, "PRINT");
    }
    S(2, "GETATTR val");
    S(1, "PRINT");
}

/* ---- shape 3: a slot changing type in a hot loop */

/* Stack of the loop: [.. o lst acc x t c]; t tells x's type: 0 integer,
 * 1 nil, 2 list (non-empty, of integers), 3 object (attribute f, an integer). */
static void retype_use(int ty, const char *mname)
{
    switch (ty) {
    case 0:
        if (chance(50)) {
            S(2, "PICK 2");
            S(2, "PICK 4");
            S(1, "ADD");
        } else {
            S(2, "PICK 2");
            push_int(rnd(5) + 2);
            S(1, "MUL");
            S(2, "PICK 4");
            S(1, "SUB");
        }
        S(2, "PUT 3");
        break;
    case 1:
        if (chance(50)) {
            S(2, "PICK 2");
            S(2, "PICK 5");
            S(1, "ADD"); /* nil + lst is lst */
            S(1, "CAR");
        } else {
            S(2, "PICK 2");
            S(1, "NIL");
            S(1, "EQ");
        }
        S(2, "PICK 4");
        S(1, "ADD");
        S(2, "PUT 3");
        break;
    case 2:
        S(2, "PICK 2");
        if (chance(50)) {
            S(1, "CAR");
        } else {
            S(2, "PUSH 0");
            S(1, "DIV");
        }
        S(2, "PICK 4");
        S(1, "ADD");
        S(2, "PUT 3");
        break;
    default:
        switch (rnd(3)) {
        case 0:
            S(2, "PICK 2");
            S(2, "GETATTR f");
            S(2, "PICK 4");
            S(1, "ADD");
            S(2, "PUT 3");
            break;
        case 1:
            S(2, "PICK 2");
            S(2, "PICK 1");
            S(3, "SEND %s/1", mname);
            S(2, "PICK 4");
            S(1, "ADD");
            S(2, "PUT 3");
            break;
        default:
            S(2, "PICK 2");
            S(2, "PICK 1");
            S(2, "SETATTR f");
            break;
        }
        break;
    }
}

/* Pushes a value of type ty for x: [.. o lst acc x t c] -> [.. c v]. */
static void retype_value(int ty, const char *desc)
{
    switch (ty) {
    case 0:
        S(2, "PICK 0");
        if (chance(50)) {
            push_int(rnd(7) + 1);
            S(1, "MUL");
        }
        break;
    case 1:
        S(1, "NIL");
        break;
    case 2:
        if (chance(60)) {
            S(2, "PICK 4");
            S(2, "PICK 1");
            S(1, "CONS");
        } else {
            S(2, "PICK 4");
        }
        break;
    default:
        if (chance(50)) {
            S(2, "PICK 5");
        } else {
            S(2, "NEW %s", desc);
            S(2, "PICK 0");
            S(2, "PICK 2");
            S(2, "SETATTR f");
        }
        break;
    }
}

static void frag_retype(long budget, long hi_trips)
{
    int ml = newl();
    const char *mname = chance(50) ? "bump" : "get";
    char desc[120];
    snprintf(desc, sizeof desc, chance(50) ? "f,%s=L%d" : "g,%s=L%d,f", mname, ml);
    so = &sb_meth; /* m(a): self.f := self.f + a mod 1009; returns it */
    SL(ml);
    S(2, "PUSHARGN 0");
    S(2, "PUSHARGN 0");
    S(2, "GETATTR f");
    S(2, "PUSHARGN 1");
    S(1, "ADD");
    mod_top(1009);
    S(2, "SETATTR f");
    S(2, "PUSHARGN 0");
    S(2, "GETATTR f");
    S(1, "RETURN");
    meth_end();

    /* the schedule: x's type in each segment of seg trips, cyclically */
    int nsched = 2 + rnd(4);
    int sched[6];
    bool used[4] = {true, false, false, false};
    sched[0] = 0;
    for (int i = 1; i < nsched; i++) {
        sched[i] = rnd(4);
        used[sched[i]] = true;
    }
    if (chance(60)) { /* back to an integer at the end of the cycle */
        sched[nsched++] = 0;
    }
    long seg = 1 + rnd(chance(50) ? 8 : 60);

    S(2, "NEW %s", desc);
    S(2, "PICK 0");
    S(2, "PUSH 1");
    S(2, "SETATTR f");
    S(1, "NIL");
    for (int i = rnd(3) + 1; i > 0; i--) {
        push_int(rnd(30));
        S(1, "CONS");
    }
    S(2, "PUSH 0");
    S(2, "PUSH 0");
    S(2, "PUSH 0"); /* [.. o lst acc x t] */
    long per = 110;
    long hi = trips_bound(budget / per, hi_trips);
    long hi_eff = push_trips(hi);
    long period = print_period(hi_eff, 24);
    loop_begin();
    /* use x by its tag */
    int arm[4], join = newl();
    for (int ty = 1; ty < 4; ty++) {
        arm[ty] = newl();
        if (!used[ty])
            continue;
        S(2, "PICK 1");
        S(2, "PUSH %d", ty);
        S(1, "EQ");
        SJ("BR_COND", arm[ty]);
    }
    retype_use(0, mname);
    tramp_point();
    SJ("BR", join);
    for (int ty = 1; ty < 4; ty++) {
        if (!used[ty])
            continue;
        SL(arm[ty]);
        retype_use(ty, mname);
        tramp_point();
        SJ("BR", join);
    }
    SL(join);
    tramp_point();
    /* print x now and then */
    if (chance(60)) {
        int skip = cond_begin(0, period);
        S(2, "PICK 2");
        S(1, "PRINT");
        cond_end(skip);
        tramp_point();
    }
    /* the new x: k = (c / seg) mod nsched */
    S(2, "PICK 0");
    push_int(seg);
    S(1, "DIV");
    mod_top(nsched); /* [.. x t c k] */
    int sarm[7], sjoin = newl();
    for (int i = 1; i < nsched; i++) {
        sarm[i] = newl();
        S(2, "PICK 0");
        S(2, "PUSH %d", i);
        S(1, "EQ");
        SJ("BR_COND", sarm[i]);
    }
    for (int i = 0; i < nsched; i++) {
        if (i)
            SL(sarm[i]);
        S(1, "POP");
        retype_value(sched[i], desc);
        S(2, "PUT 2");
        S(2, "PUSH %d", sched[i]);
        S(2, "PUT 1");
        tramp_point();
        if (i < nsched - 1)
            SJ("BR", sjoin);
    }
    SL(sjoin);
    loop_end(); /* [.. o lst acc x t] */
    S(1, "POP");
    S(1, "PRINT");
    S(1, "PRINT");
    S(1, "POP");
    S(2, "GETATTR f");
    S(1, "PRINT");
}

/* ---- shape 4: a run-time error after many iterations */

enum {
    LE_ZDIV,
    LE_ZDIV_METH,
    LE_TYPE,
    LE_TYPE_METH,
    LE_CAR_END,
    LE_INDEX,
    LE_ATTR_CHAIN,
    LE_ATTR_SWAP,
    LE_RECURSION,
    LE_COUNT
};

static void frag_lateerr(long budget, long hi_trips)
{
    int kind = rnd(LE_COUNT);
    (void)budget;
    long hi = hi_trips;
    if (hi > 5000)
        hi = 5000;
    if (hi < 100)
        hi = 100;
    long lo = 100 + rnd(200);
    if (lo > hi)
        lo = hi;
    /* the error at count value e (the loop counts down from its count to 1):
     * mostly within the loop's trips */
    long e = chance(80) ? 1 + rnd((int)lo) : hi + 1 + rnd(100);
    long llen = 1 + rnd(30);
    long llen_end = chance(80) ? 1 + rnd((int)lo) : hi + 1 + rnd(100);
    int ml = newl();
    char desc[160];
    const char *mname = chance(50) ? "run" : "get";
    snprintf(desc, sizeof desc, chance(50) ? "v,%s=L%d" : "%s=L%d,u,v", mname, ml);
    /* the method (kinds that send): m(a) */
    so = &sb_meth;
    SL(ml);
    switch (kind) {
    case LE_ZDIV_METH:
        push_int(1000 + rnd(1000));
        S(2, "PUSHARGN 1");
        S(1, "DIV");
        break;
    case LE_TYPE_METH: /* self.v + a: a is nil once */
        S(2, "PUSHARGN 0");
        S(2, "GETATTR v");
        S(2, "PUSHARGN 1");
        S(1, "ADD");
        S(2, "PUSHARGN 0");
        S(2, "PICK 1");
        mod_top(1000);
        S(2, "SETATTR v");
        break;
    case LE_RECURSION: { /* m(a): a == 0 ? 0 : self.m(a - 1) + 1 */
        int go = newl();
        S(2, "PUSHARGN 1");
        SJ("BR_COND", go);
        S(2, "PUSH 0");
        S(1, "RETURN");
        SL(go);
        S(2, "PUSHARGN 0");
        S(2, "PUSHARGN 1");
        S(2, "PUSH 1");
        S(1, "SUB");
        S(3, "SEND %s/1", mname);
        S(2, "PUSH 1");
        S(1, "ADD");
        break;
    }
    default:
        S(2, "PUSHARGN 0");
        S(2, "GETATTR v");
        S(2, "PUSHARGN 1");
        S(1, "ADD");
        break;
    }
    S(1, "RETURN");
    meth_end();

    /* what the loop needs below acc: an object, a list, a chain */
    int below = 0;
    switch (kind) {
    case LE_ZDIV_METH:
    case LE_TYPE_METH:
    case LE_RECURSION:
        S(2, "NEW %s", desc);
        S(2, "PICK 0");
        S(2, "PUSH 3");
        S(2, "SETATTR v");
        below = 1;
        break;
    case LE_CAR_END: /* a list walked by a cursor: CAR of nil at the trip
                      * after its end */
        push_int(llen_end);
        build_list(0);
        below = 1;
        break;
    case LE_INDEX: /* a list of llen elements */
        push_int(llen);
        build_list(0);
        below = 1;
        break;
    case LE_ATTR_CHAIN: { /* a chain: e - 1 objects with m, then one without */
        bool bu = chance(50);
        S(2, "NEW %s", bu ? "u,next" : "next,v,x");
        S(2, "PICK 0");
        S(1, "NIL");
        S(2, "SETATTR next");
        S(2, "PICK 0");
        S(2, "PUSH 5");
        S(2, "SETATTR %s", bu ? "u" : "v");
        char good[160];
        snprintf(good, sizeof good, "next,v,%s=L%d", mname, ml);
        push_int(e > 1 ? e - 1 : 1);
        loop_begin(); /* [.. head c] */
        S(2, "NEW %s", good);
        S(2, "PICK 0");
        S(2, "PICK 2");
        S(2, "SETATTR v");
        S(2, "PICK 0");
        S(2, "PICK 3");
        S(2, "SETATTR next");
        S(2, "PUT 1");
        loop_end();
        below = 1;
        break;
    }
    case LE_ATTR_SWAP:
        S(2, "NEW %s", desc);
        S(2, "PICK 0");
        S(2, "PUSH 7");
        S(2, "SETATTR v");
        S(2, "NEW %s", chance(50) ? "u" : "w,v");
        below = 2;
        break;
    default:
        break;
    }
    push_int(e);
    S(1, "PRINT");
    S(2, "PUSH 0"); /* acc */
    push_count(lo, hi);
    long period = print_period(lo, 8);
    loop_begin(); /* [.. below acc c] */
    if (chance(70)) {
        int skip = cond_begin(0, period);
        S(2, "PICK 1");
        S(1, "PRINT");
        cond_end(skip);
    }
    S(2, "PICK 0");
    S(2, "PICK 2");
    S(1, "ADD");
    S(2, "PUT 1"); /* acc += c */
    tramp_point();
    switch (kind) {
    case LE_ZDIV: /* acc += big / (c - e) */
        push_int(100000 + rnd(1000));
        S(2, "PICK 1");
        push_int(e);
        S(1, "SUB");
        S(1, "DIV");
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    case LE_ZDIV_METH:
    case LE_TYPE_METH:
    case LE_RECURSION:
        S(2, "PICK 2");
        if (kind == LE_TYPE_METH) {
            int nil = newl(), j = newl();
            S(2, "PICK 1");
            push_int(e);
            S(1, "EQ");
            SJ("BR_COND", nil);
            S(2, "PICK 1");
            SJ("BR", j);
            SL(nil);
            S(1, "NIL");
            SL(j);
        } else if (kind == LE_RECURSION) { /* depth grows as c falls */
            push_int(hi + 1);
            S(2, "PICK 2");
            S(1, "SUB");
            push_int(4 + rnd(20));
            S(1, "MUL");
            mod_top(1400);
        } else {
            S(2, "PICK 1");
            push_int(e);
            S(1, "SUB");
        }
        S(3, "SEND %s/1", mname);
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    case LE_TYPE: { /* acc += (c == e ? nil : c) */
        int nil = newl(), j = newl();
        S(2, "PICK 0");
        push_int(e);
        S(1, "EQ");
        SJ("BR_COND", nil);
        S(2, "PICK 0");
        SJ("BR", j);
        SL(nil);
        S(1, "NIL");
        SL(j);
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    }
    case LE_CAR_END: /* acc += car cur; cur := cdr cur */
        S(2, "PICK 2");
        S(1, "CAR");
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        S(2, "PICK 2");
        S(1, "CDR");
        S(2, "PUT 2");
        break;
    case LE_INDEX: /* acc += lst[c mod llen + (c == e) * 1000] */
        S(2, "PICK 2");
        S(2, "PICK 1");
        mod_top(llen);
        S(2, "PICK 2");
        push_int(e);
        S(1, "EQ");
        push_int(1000);
        S(1, "MUL");
        S(1, "ADD");
        S(1, "DIV");
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    case LE_ATTR_CHAIN: /* acc += cur.m(c); cur := cur.next */
        S(2, "PICK 2");
        S(2, "PICK 1");
        S(3, "SEND %s/1", mname);
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        S(2, "PICK 2");
        S(2, "GETATTR next");
        S(2, "PUT 2");
        break;
    case LE_ATTR_SWAP: { /* [.. good bad acc c]: at c == e good := bad */
        int skip = newl();
        S(2, "PICK 0");
        push_int(e);
        S(1, "NE");
        SJ("BR_COND", skip);
        S(2, "PICK 2");
        S(2, "PUT 3");
        SL(skip);
        S(2, "PICK 3");
        if (chance(50)) {
            S(2, "GETATTR v");
        } else {
            S(2, "PICK 1");
            S(3, "SEND %s/1", mname);
        }
        S(2, "PICK 2");
        S(1, "ADD");
        S(2, "PUT 1");
        break;
    }
    default:
        break;
    }
    loop_end();
    S(1, "PRINT");
    for (int i = 0; i < below; i++)
        S(1, "POP");
}

/* ---- shape 5: deep recursion through CALL and SEND */

/* A depth: a few, about 900, around the bound (998 nested frames below main
 * are allowed: a method at depth argument 998 returns, at 999 it fails), or
 * beyond it. */
static long push_depth(long *max)
{
    long lo, hi;
    switch (rnd(5)) {
    case 0:
        lo = 1, hi = 60;
        break;
    case 1:
        lo = 850, hi = 960;
        break;
    case 2:
        lo = 994, hi = 1003;
        break;
    case 3:
        lo = 990, hi = 1300;
        break;
    default:
        lo = 1, hi = 2500;
        break;
    }
    *max = push_count(lo, hi);
    return lo;
}

static void frag_deep(long budget, long hi_trips)
{
    (void)hi_trips;
    int kind = rnd(6);
    const char *mname = chance(50) ? "rec" : "down";
    if (kind == 0) {
        /* CALL recursion without end: a RecursionError, after some output */
        int f = newl(), over = newl();
        push_int(rnd(100));
        S(1, "PRINT");
        SJ("BR", over);
        SL(f);
        if (chance(50)) {
            S(2, "PUSH 1");
            SJ("CALL", f);
            S(1, "ADD");
        } else {
            SJ("CALL", f);
        }
        S(1, "RETURN");
        SL(over);
        SJ("CALL", f);
        S(1, "PRINT");
        return;
    }
    if (kind == 1 || kind == 2) {
        /* SEND self-recursion m(n): n == 0 ? base : self.m(n - 1) op n, with
         * side effects; at the bottom perhaps a chain of CALLs (kind 2) */
        int ml = newl(), go = newl();
        int nf = kind == 2 ? 1 + rnd(5) : 0;
        bool infinite_call = kind == 2 && chance(30);
        int fl[6];
        char desc[100];
        snprintf(desc, sizeof desc, chance(50) ? "cnt,%s=L%d" : "%s=L%d,cnt", mname, ml);
        so = &sb_meth;
        SL(ml);
        if (chance(40)) { /* self.cnt += 1 */
            S(2, "PUSHARGN 0");
            S(2, "PICK 0");
            S(2, "GETATTR cnt");
            S(2, "PUSH 1");
            S(1, "ADD");
            S(2, "SETATTR cnt");
        }
        if (chance(30)) { /* print at every 100th level */
            int skip = newl();
            S(2, "PUSHARGN 1");
            mod_top(100);
            SJ("BR_COND", skip);
            S(2, "PUSHARGN 1");
            S(1, "PRINT");
            SL(skip);
        }
        S(2, "PUSHARGN 1");
        SJ("BR_COND", go);
        if (nf) {
            for (int i = 0; i < nf; i++)
                fl[i] = newl();
            SJ("CALL", fl[nf - 1]);
        } else {
            push_int(rnd(10));
        }
        S(1, "RETURN");
        SL(go);
        S(2, "PUSHARGN 0");
        S(2, "PUSHARGN 1");
        S(2, "PUSH 1");
        S(1, "SUB");
        S(3, "SEND %s/1", mname);
        S(2, "PUSHARGN 1");
        S(1, chance(70) ? "ADD" : "SUB");
        S(1, "RETURN");
        for (int i = 0; i < nf; i++) {
            SL(fl[i]);
            if (i == 0) {
                if (infinite_call)
                    SJ("CALL", fl[0]);
                else
                    push_int(rnd(5));
            } else {
                SJ("CALL", fl[i - 1]);
                S(2, "PUSH 1");
                S(1, "ADD");
            }
            S(1, "RETURN");
        }
        meth_end();
        S(2, "NEW %s", desc);
        S(2, "PICK 0");
        S(2, "PUSH 0");
        S(2, "SETATTR cnt");
        bool loop = chance(40);
        if (loop) { /* several descents, each deeper */
            long trips = 2 + rnd(12);
            long step = 50 + rnd(200);
            S(2, "PUSH 0");
            push_int(trips); /* [.. o acc c] */
            loop_begin();
            S(2, "PICK 2");
            push_int(trips + 1);
            S(2, "PICK 2");
            S(1, "SUB");
            push_int(step);
            S(1, "MUL"); /* depth (trips + 1 - c) * step */
            S(3, "SEND %s/1", mname);
            S(2, "PICK 0");
            S(1, "PRINT");
            S(2, "PICK 2");
            S(1, "ADD");
            S(2, "PUT 1");
            loop_end();
            S(1, "PRINT");
        } else {
            long mx;
            S(2, "PICK 0");
            push_depth(&mx);
            S(3, "SEND %s/1", mname);
            S(1, "PRINT");
        }
        S(2, "GETATTR cnt");
        S(1, "PRINT");
        return;
    }
    if (kind == 3) {
        /* recursion along a chain of objects of two classes: sum() =
         * self.val + (self.next ? self.next.sum() : 0) */
        int l1 = newl(), l2 = newl();
        char d1[100], d2[100];
        snprintf(d1, sizeof d1, "val,next,%s=L%d", mname, l1);
        snprintf(d2, sizeof d2, chance(50) ? "next,%s=L%d,val" : "w,val,next,%s=L%d", mname, l2);
        for (int c = 0; c < 2; c++) {
            int go = newl();
            so = &sb_meth;
            SL(c ? l2 : l1);
            S(2, "PUSHARGN 0");
            S(2, "GETATTR next");
            S(2, "PICK 0");
            SJ("BR_COND", go);
            S(1, "POP");
            S(2, "PUSHARGN 0");
            S(2, "GETATTR val");
            S(1, "RETURN");
            SL(go);
            S(3, "SEND %s/0", mname);
            S(2, "PUSHARGN 0");
            S(2, "GETATTR val");
            if (c)
                xform_int();
            S(1, "ADD");
            S(1, "RETURN");
            meth_end();
        }
        long mx;
        S(1, "NIL");
        push_depth(&mx); /* [.. head c] */
        loop_begin();
        int odd = newl(), join = newl();
        S(2, "PICK 0");
        mod_top(2 + rnd(3));
        SJ("BR_COND", odd);
        S(2, "NEW %s", d1);
        SJ("BR", join);
        SL(odd);
        S(2, "NEW %s", d2);
        SL(join);
        S(2, "PICK 0");
        S(2, "PICK 2");
        S(2, "SETATTR val");
        S(2, "PICK 0");
        S(2, "PICK 3");
        S(2, "SETATTR next");
        S(2, "PUT 1");
        loop_end();
        S(3, "SEND %s/0", mname);
        S(1, "PRINT");
        return;
    }
    if (kind == 4) {
        /* mutual recursion between two classes: a.ping(n) = b.pong(n - 1) */
        int lp = newl(), lq = newl();
        char da[100], db[100];
        snprintf(da, sizeof da, "other,ping=L%d", lp);
        snprintf(db, sizeof db, chance(50) ? "pong=L%d,other,x" : "x,other,pong=L%d", lq);
        for (int c = 0; c < 2; c++) {
            int go = newl();
            so = &sb_meth;
            SL(c ? lq : lp);
            S(2, "PUSHARGN 1");
            S(2, "PUSH 0");
            S(1, "GT");
            SJ("BR_COND", go);
            push_int(c ? 7 : 3);
            S(1, "RETURN");
            SL(go);
            S(2, "PUSHARGN 0");
            S(2, "GETATTR other");
            S(2, "PUSHARGN 1");
            S(2, "PUSH %d", c ? 1 : 2);
            S(1, "SUB");
            S(3, "SEND %s/1", c ? "ping" : "pong");
            S(2, "PUSH %d", c ? 2 : 1);
            S(1, "ADD");
            S(1, "RETURN");
            meth_end();
        }
        long mx;
        S(2, "NEW %s", da);
        S(2, "NEW %s", db);
        S(2, "PICK 1");
        S(2, "PICK 1");
        S(2, "SETATTR other");
        S(2, "PICK 0");
        S(2, "PICK 2");
        S(2, "SETATTR other");
        S(1, "POP");
        /* ping(n) makes about 2n / 3 frames */
        long lo = push_depth(&mx);
        (void)lo;
        if (chance(50)) {
            S(2, "PUSH 3");
            S(1, "MUL");
            S(2, "PUSH 2");
            S(1, "DIV");
        }
        S(3, "SEND ping/1");
        S(1, "PRINT");
        return;
    }
    /* kind 5: recursion where every frame runs a small loop */
    int ml = newl(), go = newl();
    char desc[100];
    snprintf(desc, sizeof desc, "%s=L%d", mname, ml);
    so = &sb_meth;
    SL(ml);
    S(2, "PUSHARGN 1");
    SJ("BR_COND", go);
    S(2, "PUSH 1");
    S(1, "RETURN");
    SL(go);
    S(2, "PUSH 0");
    push_int(1 + rnd(6)); /* [s c] */
    loop_begin();
    S(2, "PICK 0");
    S(2, "PUSHARGN 1");
    S(1, "MUL");
    S(2, "PICK 2");
    S(1, "ADD");
    S(2, "PUT 1");
    loop_end();
    S(2, "PUSHARGN 0");
    S(2, "PUSHARGN 1");
    S(2, "PUSH 1");
    S(1, "SUB");
    S(3, "SEND %s/1", mname);
    S(1, "ADD");
    mod_top(100003);
    S(1, "RETURN");
    meth_end();
    long mx;
    S(2, "NEW %s", desc);
    push_depth(&mx);
    S(3, "SEND %s/1", mname);
    S(1, "PRINT");
    (void)budget;
}

/* ---- shape 6: loops long enough for the tiers */

/* A recurrence over k integers: [.. v1 .. vk c] */
static void frag_long(long budget, long hi_trips)
{
    int kind = rnd(4);
    if (kind == 0) {
        frag_ring(budget, hi_trips);
        return;
    }
    if (kind == 1) {
        frag_retype(budget, hi_trips);
        return;
    }
    bool nested = kind == 3;
    int nv = 1 + rnd(3);
    for (int i = 0; i < nv; i++)
        push_int(rnd(20));
    int nst = 1 + rnd(4);
    long per = 8 + nst * 9;
    long outer = nested ? 2 + rnd(60) : 1;
    long hi = trips_bound(budget / per / outer, hi_trips);
    if (nested) {
        push_int(outer);
        loop_begin(); /* [.. v c0] */
        nv++;         /* the outer count is one of the values */
    }
    long hi_eff = push_count(hi / 2 > 0 ? hi / 2 : 1, hi);
    long period = print_period(hi_eff * outer, 16);
    loop_begin(); /* [.. v1 .. vk c] */
    for (int i = 0; i < nst; i++) {
        /* values at depth 1..nv (the outer count, nested, at depth 1: read,
         * never written), the count at 0 */
        int a = 1 + (nested ? 1 : 0) + rnd(nested ? nv - 1 : nv), b = rnd(nv + 1);
        switch (rnd(5)) {
        case 0: /* va := va + vb */
            S(2, "PICK %d", a);
            S(2, "PICK %d", b + 1);
            S(1, "ADD");
            S(2, "PUT %d", a);
            break;
        case 1: /* va := va * 3 + c mod 100003 */
            S(2, "PICK %d", a);
            S(2, "PUSH 3");
            S(1, "MUL");
            S(2, "PICK 1");
            S(1, "ADD");
            mod_top(100003);
            S(2, "PUT %d", a);
            break;
        case 2: /* va := va - vb / 7 */
            S(2, "PICK %d", a);
            S(2, "PICK %d", b + 1);
            S(2, "PUSH 7");
            S(1, "DIV");
            S(1, "SUB");
            S(2, "PUT %d", a);
            break;
        case 3: /* if va < vb: va := va + 1 */
        {
            int skip = newl();
            S(2, "PICK %d", a);
            S(2, "PICK %d", b + 1);
            S(1, "LT");
            S(2, "PUSH 0");
            S(1, "EQ");
            SJ("BR_COND", skip);
            S(2, "PICK %d", a);
            S(2, "PUSH 1");
            S(1, "ADD");
            S(2, "PUT %d", a);
            SL(skip);
            break;
        }
        default: { /* print va now and then */
            int skip = cond_begin(0, period);
            S(2, "PICK %d", a);
            S(1, "PRINT");
            cond_end(skip);
            break;
        }
        }
        tramp_point();
    }
    loop_end();
    if (nested) {
        nv--;
        loop_end();
    }
    for (int i = 0; i < nv; i++)
        S(1, "PRINT");
}

/* ---- the program */

static void frag(int shape, long budget, long hi_trips)
{
    switch (shape) {
    case SH_RING:
        frag_ring(budget, hi_trips);
        break;
    case SH_WALK:
        frag_walk(budget, hi_trips > 3000 ? 3000 : hi_trips);
        break;
    case SH_RETYPE:
        frag_retype(budget, hi_trips);
        break;
    case SH_LATEERR:
        frag_lateerr(budget, hi_trips);
        break;
    case SH_DEEP:
        frag_deep(budget, hi_trips);
        break;
    default:
        long_mode = true;
        frag_long(budget, hi_trips);
        long_mode = false;
        break;
    }
}

/* A program of fragments of one shape (or of every shape: mix). */
static void shape_program(long size, int shape)
{
    so = &sb_main;
    int nfrag = 1 + rnd((int)(size / 20 < 1 ? 1 : size / 20 > 4 ? 4 : size / 20));
    long budget = (shape == SH_LONG ? 5000000 : 3000000) / nfrag;
    buf_put(&sb_main.b, "main:\n", 6);
    for (int f = 0; f < nfrag; f++) {
        int sh = shape == SH_MIX ? rnd(SH_MIX) : shape;
        static const long trips_short[] = {20, 200, 2000, 20000};
        static const long trips_long[] = {5000, 50000, 300000};
        long hi_trips = sh == SH_LONG ? trips_long[rnd(3)] : trips_short[rnd(4)];
        bool ok = false;
        for (int tries = 0; tries < 8 && !ok; tries++) {
            Snap s = snap_take();
            int nl = next_label;
            char c[64];
            snprintf(c, sizeof c, "# fragment %d: %s\n", f, shape_names[sh]);
            buf_put(&sb_main.b, c, strlen(c));
            nloops_open = 0;
            so = &sb_main;
            frag(sh, budget, hi_trips);
            so = &sb_main;
            ok = sites_ok(s.ns);
            if (!ok) {
                snap_restore(s);
                (void)nl;
            }
        }
        if (!ok) {
            char c[64];
            snprintf(c, sizeof c, "# fragment %d: dropped\n", f);
            buf_put(&sb_main.b, c, strlen(c));
        }
    }
    if (chance(50)) { /* a result */
        push_int(rnd(100));
        if (chance(50)) {
            S(1, "PUSHARG");
            S(1, "ADD");
        }
    }
    S(1, "RETURN");
    buf_put(&program, sb_main.b.s, sb_main.b.len);
    if (sb_meth.b.len)
        buf_put(&program, sb_meth.b.s, sb_meth.b.len);
}

/* ------------------------------------------------------ general programs */

static Buf method_text[NMETH_MAX][NCLASS_MAX];
static Buf main_text;

static void reset_model(Model *mm)
{
    memset(mm, 0, sizeof *mm);
    mm->mult = 1;
}

/* Appends one formatted line to the program. */
static void put_line(const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= sizeof line)
        abort();
    buf_put(&program, line, (size_t)n);
}

/* A program of the general generator: classes with methods, main. */
static void general_program(long size)
{
    /* the program's shape */
    nmeth = 1 + rnd(NMETH_MAX);
    for (int j = 0; j < nmeth; j++) {
        sigs[j].argc = rnd(4);
        for (int i = 0; i < 3; i++)
            sigs[j].param_any[i] = chance(25);
        sigs[j].ret = rnd(3);
    }
    ncls = 2 + rnd(NCLASS_MAX - 1);
    for (int c = 0; c < ncls; c++) {
        Cls *k = &classes[c];
        if (c > 0 && chance(20)) { /* the same descriptor as the previous class */
            *k = classes[c - 1];
            continue;
        }
        k->impl_of = c;
        int members = 0;
        for (int a = 0; a < NATTR; a++)
            members += k->attr[a] = chance(55);
        for (int j = 0; j < nmeth; j++)
            members += k->meth[j] = chance(65);
        if (!members)
            k->attr[rnd(NATTR)] = true;
        size_t n = 0;
        for (int a = 0; a < NATTR; a++)
            if (k->attr[a])
                n += (size_t)snprintf(k->desc + n, sizeof k->desc - n, "%sa%d", n ? "," : "", a);
        for (int j = 0; j < nmeth; j++)
            if (k->meth[j])
                n += (size_t)snprintf(k->desc + n, sizeof k->desc - n, "%sm%d=c%d_m%d",
                                      n ? "," : "", j, c, j);
    }
    if (chance(38)) {
        err_kind = rnd(E_COUNT);
        int w = rnd(10);
        err_where = w < 6 ? 1 : w < 8 ? 2 : 3;
        if (err_where == 2) {
            /* a method of a class main is likely to use: any class will do */
            err_cls = classes[rnd(ncls)].impl_of;
            int cand[NMETH_MAX], n = 0;
            for (int j = 0; j < nmeth; j++)
                if (classes[err_cls].meth[j])
                    cand[n++] = j;
            if (n)
                err_meth = cand[rnd(n)];
            else
                err_where = 1;
        }
    }

    /* methods, lowest rank first: their costs are known when they are sent */
    Model mm;
    m = &mm;
    for (int j = 0; j < nmeth; j++) {
        meth_cost[j] = 0;
        for (int c = 0; c < ncls; c++) {
            if (!classes[c].meth[j] || classes[c].impl_of != c)
                continue;
            reset_model(m);
            out = &method_text[j][c];
            Frame f = {.kind = F_METHOD,
                       .nargs = 1 + sigs[j].argc,
                       .send_bound = j,
                       .ret = sigs[j].ret,
                       .error_here = err_where == 2 && err_meth == j && err_cls == c};
            f.args[0] = ty_obj(c);
            for (int i = 0; i < sigs[j].argc; i++)
                f.args[1 + i] = sigs[j].param_any[i] ? ty_any() : ty_int();
            fr = &f;
            cost_limit = 4000;
            text("c%d_m%d:\n", c, j);
            gen_stmts(0, 2 + rnd(8));
            gen_epilogue(true);
            if (m->cost + 10 > meth_cost[j])
                meth_cost[j] = m->cost + 10;
        }
    }

    /* main */
    reset_model(m);
    out = &main_text;
    Frame f = {.kind = F_MAIN,
               .nargs = 1,
               .args = {ty_int()},
               .send_bound = nmeth,
               .ret = chance(50) ? R_ANY : R_NONE,
               .error_here = err_where == 1};
    fr = &f;
    cost_limit = 200000;
    text("main:\n");
    gen_stmts(0, (int)size);
    gen_epilogue(true);

    /* output: main first (pc 0), then the methods; the last routine may run
     * into the end of the code instead of returning */
    put_line("# %d classes, %d method names; deliberate error: %s\n", ncls, nmeth,
             err_where == 0   ? "none"
             : err_where == 1 ? "in main"
             : err_where == 2 ? "in a method"
                              : "in a function");
    Buf *routines[1 + NMETH_MAX * NCLASS_MAX];
    int nr = 0;
    routines[nr++] = &main_text;
    for (int j = 0; j < nmeth; j++)
        for (int c = 0; c < ncls; c++)
            if (method_text[j][c].len)
                routines[nr++] = &method_text[j][c];
    for (int i = 0; i < nr; i++) {
        Buf *b = routines[i];
        if (i == nr - 1 && chance(50)) {
            /* drop the final RETURN: the frame ends at the end of the code */
            static const char ret[] = "    RETURN\n";
            size_t rl = sizeof ret - 1;
            if (b->len >= rl && memcmp(b->s + b->len - rl, ret, rl) == 0)
                b->len -= rl;
        }
        buf_put(&program, b->s ? b->s : "", b->len);
    }
}

/* ------------------------------------------------------------ the entry */

static void free_buf(Buf *b)
{
    free(b->s);
    *b = (Buf){0};
}

/* Everything one program leaves behind, cleared before the next one (the
 * label and branch tables keep their memory). */
static void reset_state(void)
{
    free_buf(&program);
    free_buf(&main_text);
    for (int j = 0; j < NMETH_MAX; j++)
        for (int c = 0; c < NCLASS_MAX; c++)
            free_buf(&method_text[j][c]);
    free_buf(&sb_main.b);
    free_buf(&sb_meth.b);
    sb_main.pos = sb_meth.pos = 0;
    so = NULL;
    nmeth = ncls = 0;
    memset(sigs, 0, sizeof sigs);
    memset(classes, 0, sizeof classes);
    memset(meth_cost, 0, sizeof meth_cost);
    err_where = err_meth = err_cls = err_kind = 0;
    out = NULL;
    m = NULL;
    fr = NULL;
    next_label = 0;
    cost_limit = 0;
    nsites = 0;
    long_mode = false;
    nloops_open = 0;
}

int tlcgen_shape(const char *name)
{
    for (int k = 0; k < SH_COUNT; k++)
        if (strcmp(name, shape_names[k]) == 0)
            return k;
    return -1;
}

char *tlcgen_generate(const TlcgenOptions *o, size_t *len)
{
    reset_state();
    if (setjmp(out_of_memory)) {
        reset_state();
        return NULL;
    }
    debug_model = o->debug_model;
    choice_bytes = o->choices;
    choice_left = o->choices ? o->nchoices : 0;
    rng_state = o->seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
    if (rng_state == 0)
        rng_state = 1;
    for (int i = 0; i < 8; i++)
        next_u64();
    put_line("# generated by tlcgen %llu %ld%s%s", o->seed, o->size,
             o->shape == TLCGEN_GENERAL ? "" : " ",
             o->shape == TLCGEN_GENERAL ? "" : shape_names[o->shape]);
    if (o->choices)
        put_line(" from %zu choice bytes", o->nchoices);
    put_line("\n");
    if (o->shape == TLCGEN_GENERAL)
        general_program(o->size);
    else
        shape_program(o->size, o->shape);
    char *text = program.s ? program.s : calloc(1, 1);
    if (!text) {
        reset_state();
        return NULL;
    }
    *len = program.len;
    program = (Buf){0};
    reset_state();
    return text;
}
