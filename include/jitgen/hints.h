/* Hints an interpreter author writes so that the JIT generator can turn the
 * interpreter into a JIT compiler (see docs/architecture.md, "Hints").
 *
 * Natively every hint is a zero-cost identity. When the interpreter is
 * compiled for analysis (-DJITGEN_ANALYSIS, the bitcode embedded in the
 * binary) the hints are calls to external functions the frontend recognizes
 * by name, and the function attributes become `annotate` strings that survive
 * into the bitcode. */
#ifndef JITGEN_HINTS_H
#define JITGEN_HINTS_H

#include <stdint.h>

#ifdef JITGEN_ANALYSIS

/* The dispatch-loop header of the interpreter: where loops of the
 * interpreted program may close. */
void jit_merge_point(void);
/* The same, with a green flag: whether a path of the interpreted program
 * other than the one running straight on may arrive here (a branch target).
 * Where the flag is 0 the partial evaluator joins paths only after they
 * forked (a red branch, a promotion); otherwise it goes on in the same
 * residual block (docs/architecture.md, "Merge points"). */
void jit_merge_point_join(int64_t joins);
/* Need-oriented: the value and everything it depends on must be green. */
int64_t jit_concrete_i64(int64_t x);
void *jit_concrete_ptr(const void *x);
/* Make a red value green here, at run time, through a flexswitch. */
int64_t jit_promote_i64(int64_t x);
void *jit_promote_ptr(const void *x);
/* The memory reachable from the pointer never changes. */
void *jit_deepfreeze_ptr(const void *x);
/* Make a green value red: stop specializing on it. */
int64_t jit_forget_i64(int64_t x);
void *jit_forget_ptr(const void *x);
/* *p, a pointer field that never changes once the object holding it can be
 * reached (a type word): what the JIT learns from it stays known across
 * calls and stores, which may change other memory but not this word. */
void *jit_load_immutable_ptr(const void *const *p);

/* noinline: the call must stay a call in the bitcode, or clang would inline
 * the body into its callers and the annotation would be lost there */
#define JIT_ELIDABLE __attribute__((annotate("jitgen.elidable"), noinline))
#define JIT_DONT_LOOK_INSIDE __attribute__((annotate("jitgen.dont_look_inside"), noinline))
#define JIT_ALLOCATOR __attribute__((annotate("jitgen.allocator"), noinline))
/* An allocator of values: the interpreter writes an object's fields only
 * before the object is first passed anywhere and never compares its
 * address, so the JIT may copy it (pass its fields instead of a pointer).
 * The objects start with a pointer constant (their type) that no other
 * memory the portal receives starts with, and every pointer parameter of
 * the portal is NULL or points to at least one word: the JIT recognizes
 * such objects passed to the portal by reading that word. */
#define JIT_VALUE_ALLOCATOR __attribute__((annotate("jitgen.value_allocator"), noinline))
#define JIT_PORTAL __attribute__((annotate("jitgen.portal"), noinline))

#else

static inline void jit_merge_point(void)
{
}
static inline void jit_merge_point_join(int64_t joins)
{
    (void)joins;
}
static inline int64_t jit_concrete_i64(int64_t x)
{
    return x;
}
static inline void *jit_concrete_ptr(const void *x)
{
    return (void *)x;
}
static inline int64_t jit_promote_i64(int64_t x)
{
    return x;
}
static inline void *jit_promote_ptr(const void *x)
{
    return (void *)x;
}
static inline void *jit_deepfreeze_ptr(const void *x)
{
    return (void *)x;
}
static inline int64_t jit_forget_i64(int64_t x)
{
    return x;
}
static inline void *jit_forget_ptr(const void *x)
{
    return (void *)x;
}
static inline void *jit_load_immutable_ptr(const void *const *p)
{
    return (void *)*p;
}

#define JIT_ELIDABLE
#define JIT_DONT_LOOK_INSIDE
#define JIT_ALLOCATOR
#define JIT_VALUE_ALLOCATOR
#define JIT_PORTAL

#endif

/* Type-generic forms: integers of any width go through the 64-bit variant,
 * pointers through the pointer variant; the result has the argument's type. */
#define JITGEN_HINT_(name, x)                                                                      \
    ((__typeof__(x))_Generic((x), _Bool                                                            \
                             : name##_i64, char                                                    \
                             : name##_i64, signed char                                             \
                             : name##_i64, unsigned char                                           \
                             : name##_i64, short                                                   \
                             : name##_i64, unsigned short                                          \
                             : name##_i64, int                                                     \
                             : name##_i64, unsigned int                                            \
                             : name##_i64, long                                                    \
                             : name##_i64, unsigned long                                           \
                             : name##_i64, long long                                               \
                             : name##_i64, unsigned long long                                      \
                             : name##_i64, default                                                 \
                             : name##_ptr)(x))

#define jit_concrete(x) JITGEN_HINT_(jit_concrete, x)
#define jit_promote(x) JITGEN_HINT_(jit_promote, x)
#define jit_forget(x) JITGEN_HINT_(jit_forget, x)
#define jit_deepfreeze(p) ((__typeof__(p))jit_deepfreeze_ptr(p))
#define jit_load_immutable(p) ((__typeof__(*(p)))jit_load_immutable_ptr((const void *const *)(p)))

#endif
