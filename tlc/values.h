/* Operations on whole values that loop over lists: printing, structural
 * equality, concatenation, indexing. They are never inlined by the JIT
 * (residual calls), and iterate with explicit work stacks so that deeply
 * nested lists cannot overflow the C stack. */
#ifndef TLC_VALUES_H
#define TLC_VALUES_H

#include "object.h"

/* Where PRINT and DUMP write (standard output unless a host changes it). */
extern FILE *tlc_out;

/* Writes the printed form of `v` (TLC.md "Values") to `out`. */
JIT_DONT_LOOK_INSIDE void tlc_write_value(FILE *out, TlcObject *v);

/* PRINT: the value and a newline on tlc_out. */
JIT_DONT_LOOK_INSIDE void tlc_print(TlcObject *v);

/* DUMP, element by element so the JIT need not materialize the stack:
 * begin, one call per element (index 0 is the bottom), end. */
JIT_DONT_LOOK_INSIDE void tlc_dump_begin(void);
JIT_DONT_LOOK_INSIDE void tlc_dump_item(TlcObject *v, int64_t index);
JIT_DONT_LOOK_INSIDE void tlc_dump_end(void);

/* Structural equality of two cons cells (car and cdr equal). */
JIT_DONT_LOOK_INSIDE bool tlc_cons_equal(TlcObject *b, TlcObject *a);

/* b + a for lists: b's cells copied, a shared. TypeError if b is improper. */
JIT_DONT_LOOK_INSIDE TlcObject *tlc_list_concat(TlcObject *b, TlcObject *a, int op, int64_t pc);

/* The index-th element of list b; IndexError when absent. */
JIT_DONT_LOOK_INSIDE TlcObject *tlc_list_nth(TlcObject *b, int64_t index, int op, int64_t pc);

#endif
