/* The operations behind the per-type tables (tlc/ops.c). Declared so that
 * they have external linkage: the JIT resolves their native addresses. */
#ifndef TLC_OPS_H
#define TLC_OPS_H

#include "object.h"

int64_t tlc_int_value(TlcObject *o);
bool tlc_is_int(TlcObject *o);
bool tlc_is_list(TlcObject *o);
bool tlc_always_true(TlcObject *self);
bool tlc_always_false(TlcObject *self);
bool tlc_same_identity(TlcObject *b, TlcObject *a);
TlcObject *tlc_no_arith(TlcObject *b, TlcObject *a, int op, int64_t pc);
bool tlc_no_compare(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_no_car(TlcObject *self, int op, int64_t pc);
bool tlc_int_truth(TlcObject *self);
TlcObject *tlc_int_add(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_int_sub(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_int_mul(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_int_div(TlcObject *b, TlcObject *a, int op, int64_t pc);
bool tlc_int_eq(TlcObject *b, TlcObject *a);
bool tlc_int_compare(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_list_add(TlcObject *b, TlcObject *a, int op, int64_t pc);
TlcObject *tlc_list_div(TlcObject *b, TlcObject *a, int op, int64_t pc);
bool tlc_cons_eq(TlcObject *b, TlcObject *a);
TlcObject *tlc_cons_car(TlcObject *self, int op, int64_t pc);
TlcObject *tlc_cons_cdr(TlcObject *self, int op, int64_t pc);

extern const TlcOps tlc_int_ops;
extern const TlcOps tlc_nil_ops;
extern const TlcOps tlc_cons_ops;

#endif
