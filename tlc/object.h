/* The TLC object model: boxed values over the Boehm GC, with a per-type table
 * of operations (docs/architecture.md, "The TLC interpreter").
 *
 * Every value is a pointer to a TlcObject whose first field is its type. The
 * types of integers, nil and cons cells are constant globals; every class is
 * a type of its own, created once per distinct class descriptor (hash-consed)
 * and never changed afterwards, so the JIT may fold loads from any type. */
#ifndef TLC_OBJECT_H
#define TLC_OBJECT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "jitgen/allocator.h"
#include "jitgen/hints.h"
#include "program.h"

typedef struct TlcType TlcType;
typedef struct TlcOps TlcOps;

typedef struct TlcObject {
    const TlcType *type;
} TlcObject;

typedef struct TlcInt {
    TlcObject base;
    int64_t value;
} TlcInt;

typedef struct TlcCons {
    TlcObject base;
    TlcObject *car;
    TlcObject *cdr;
} TlcCons;

/* An instance: its type is its class; one slot per attribute. */
typedef struct TlcInstance {
    TlcObject base;
    TlcObject *attrs[];
} TlcInstance;

typedef enum TlcKind {
    TLC_KIND_INT,
    TLC_KIND_NIL,
    TLC_KIND_CONS,
    TLC_KIND_INSTANCE,
} TlcKind;

/* Operations every type provides. Binary operations receive the operands in
 * stack order (b below a) plus the opcode and pc, which only error messages
 * use. They return the result or raise a TLC error (they never return NULL). */
struct TlcOps {
    bool (*truth)(TlcObject *self);
    TlcObject *(*add)(TlcObject *b, TlcObject *a, int op, int64_t pc);
    TlcObject *(*sub)(TlcObject *b, TlcObject *a, int op, int64_t pc);
    TlcObject *(*mul)(TlcObject *b, TlcObject *a, int op, int64_t pc);
    TlcObject *(*div)(TlcObject *b, TlcObject *a, int op, int64_t pc);
    /* b == a in the sense of EQ */
    bool (*eq)(TlcObject *b, TlcObject *a);
    /* b OP a for OP one of LT..GE; both must be integers */
    bool (*compare)(TlcObject *b, TlcObject *a, int op, int64_t pc);
    TlcObject *(*car)(TlcObject *self, int op, int64_t pc);
    TlcObject *(*cdr)(TlcObject *self, int op, int64_t pc);
};

struct TlcType {
    TlcKind kind;
    const char *name; /* "int", "nil", "cons", "object" */
    const TlcOps *ops;
    /* classes only */
    uint32_t nattrs;
    const char *const *attrs;
    uint32_t nmethods;
    const char *const *method_names;
    const uint32_t *method_pcs;
};

extern const TlcType tlc_int_type;
extern const TlcType tlc_nil_type;
extern const TlcType tlc_cons_type;
extern const TlcObject tlc_nil_object;
extern const TlcOps tlc_instance_ops; /* shared by every class */

#define TLC_NIL ((TlcObject *)&tlc_nil_object)

/* Where an allocation happens, for the MemoryError it may raise: the opcode
 * and the pc of the instruction, packed into one integer that the partial
 * evaluator passes unchanged when it materializes a virtual object (an
 * allocator's constant tag, docs/architecture.md). */
typedef int64_t TlcSite;

static inline TlcSite tlc_site(int op, int64_t pc)
{
    return pc * 256 + (op & 0xff);
}

static inline int tlc_site_op(TlcSite site)
{
    return (int)(site & 0xff);
}

static inline int64_t tlc_site_pc(TlcSite site)
{
    return site / 256;
}

/* The one allocation function: fresh zero-filled GC memory of `size` bytes.
 * Counts every call (tlc_allocations). When the heap is full (its limit,
 * tlc_heap_set_limit, reached), raises a MemoryError at `site`. */
JIT_ALLOCATOR void *tlc_alloc(uint64_t size, TlcSite site);
/* The same for objects that hold no pointers into the GC heap (integers):
 * the collector neither scans them nor clears whole blocks for them. The
 * memory is still zero-filled, as the partial evaluator assumes of every
 * allocator. Its objects are values: written only by their constructor
 * (tlc_int_new) and compared by value (EQ on integers), never by address,
 * so the JIT may pass a copy of one rather than a pointer to it. */
JIT_VALUE_ALLOCATOR void *tlc_alloc_atomic(uint64_t size, TlcSite site);

/* Allocations made so far (reported as run.allocations). */
extern uint64_t tlc_allocations;

/* tlc_alloc and tlc_alloc_atomic as compiled code may take their fast path
 * itself (jitgen/allocator.h): their free lists, emptied by a count at or
 * below the collector's GC_TINY_FREELISTS + 1. */
extern const JgFreeListAllocator tlc_free_list_allocators[2];

/* The type of a value, promoted: the JIT specializes the code that follows on
 * it (one flexswitch per distinct type seen). Types are never mutated. */
static inline const TlcType *tlc_type_of(const TlcObject *o)
{
    return jit_deepfreeze(jit_promote(jit_load_immutable(&o->type)));
}

/* The constructors: `site` is the instruction allocating (tlc_site). */
TlcObject *tlc_int_new(int64_t value, TlcSite site);
TlcObject *tlc_cons_new(TlcObject *car, TlcObject *cdr, TlcSite site);
TlcObject *tlc_instance_new(const TlcType *cls, TlcSite site);

/* The class for a descriptor: equal descriptors (same attribute names and
 * same method names with the same entry points, in order) give the same
 * type. NULL when out of memory. */
JIT_ELIDABLE const TlcType *tlc_class_get(const TlcClassDesc *desc);

/* Index of attribute `name` in class `cls`, or -1. */
JIT_ELIDABLE int64_t tlc_class_attr_index(const TlcType *cls, const char *name);

/* Entry pc of method `name` of class `cls`, or -1. */
JIT_ELIDABLE int64_t tlc_class_method_pc(const TlcType *cls, const char *name);

/* Releases the class table (at process exit; for leak checkers). */
void tlc_classes_free(void);

#endif
