/* The per-type operation tables and the four kinds of type. The JIT inlines
 * these through the promoted type of the receiver (tlc_type_of), so every
 * function here also checks its other operand's type with tlc_type_of.
 *
 * Nothing here is `static`: the JIT finds the native address of every
 * function and table of the interpreter by its symbol name (see
 * docs/architecture.md, "Interpreter sources"). */
#include "ops.h"
#include "errors.h"
#include "object.h"
#include "opcodes.h"
#include "values.h"

int64_t tlc_int_value(TlcObject *o)
{
    return ((TlcInt *)o)->value;
}

bool tlc_is_int(TlcObject *o)
{
    return tlc_type_of(o) == &tlc_int_type;
}

bool tlc_is_list(TlcObject *o)
{
    TlcKind k = tlc_type_of(o)->kind;
    return k == TLC_KIND_NIL || k == TLC_KIND_CONS;
}

bool tlc_always_true(TlcObject *self)
{
    (void)self;
    return true;
}

bool tlc_always_false(TlcObject *self)
{
    (void)self;
    return false;
}

bool tlc_same_identity(TlcObject *b, TlcObject *a)
{
    return b == a;
}

TlcObject *tlc_no_arith(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    tlc_raise_operands(op, pc, b, a);
}

bool tlc_no_compare(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    tlc_raise_operands(op, pc, b, a);
}

TlcObject *tlc_no_car(TlcObject *self, int op, int64_t pc)
{
    tlc_raise_expected(op, pc, "cons", self);
}

/* ---- integers: arithmetic wraps (computed in unsigned), DIV floors ---- */

bool tlc_int_truth(TlcObject *self)
{
    return tlc_int_value(self) != 0;
}

TlcObject *tlc_int_add(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)tlc_int_value(b) + (uint64_t)tlc_int_value(a)),
                       tlc_site(op, pc));
}

TlcObject *tlc_int_sub(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)tlc_int_value(b) - (uint64_t)tlc_int_value(a)),
                       tlc_site(op, pc));
}

TlcObject *tlc_int_mul(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)tlc_int_value(b) * (uint64_t)tlc_int_value(a)),
                       tlc_site(op, pc));
}

/* Floor division like Python's //; INT64_MIN // -1 wraps to INT64_MIN. */
TlcObject *tlc_int_div(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    int64_t x = tlc_int_value(b), y = tlc_int_value(a);
    if (y == 0)
        tlc_raise(TLC_ERR_ZERO_DIVISION, op, pc, "integer division by zero");
    if (y == -1)
        return tlc_int_new((int64_t)(0u - (uint64_t)x), tlc_site(op, pc));
    int64_t q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0)))
        q -= 1;
    return tlc_int_new(q, tlc_site(op, pc));
}

bool tlc_int_eq(TlcObject *b, TlcObject *a)
{
    return tlc_is_int(a) && tlc_int_value(b) == tlc_int_value(a);
}

/* The comparison itself, not a three-way result tested by the caller: `op`
 * is green, so partial evaluation leaves one comparison of x and y. */
bool tlc_int_compare(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    int64_t x = tlc_int_value(b), y = tlc_int_value(a);
    return op == TLC_OP_LT ? x < y : op == TLC_OP_LE ? x <= y : op == TLC_OP_GT ? x > y : x >= y;
}

/* ---- lists: nil and cons share concatenation and indexing ---- */

TlcObject *tlc_list_add(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_list(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_list_concat(b, a, op, pc);
}

TlcObject *tlc_list_div(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!tlc_is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_list_nth(b, tlc_int_value(a), op, pc);
}

bool tlc_cons_eq(TlcObject *b, TlcObject *a)
{
    return tlc_type_of(a) == &tlc_cons_type && tlc_cons_equal(b, a);
}

TlcObject *tlc_cons_car(TlcObject *self, int op, int64_t pc)
{
    (void)op;
    (void)pc;
    return ((TlcCons *)self)->car;
}

TlcObject *tlc_cons_cdr(TlcObject *self, int op, int64_t pc)
{
    (void)op;
    (void)pc;
    return ((TlcCons *)self)->cdr;
}

const TlcOps tlc_int_ops = {
    .truth = tlc_int_truth,
    .add = tlc_int_add,
    .sub = tlc_int_sub,
    .mul = tlc_int_mul,
    .div = tlc_int_div,
    .eq = tlc_int_eq,
    .compare = tlc_int_compare,
    .car = tlc_no_car,
    .cdr = tlc_no_car,
};

const TlcOps tlc_nil_ops = {
    .truth = tlc_always_false,
    .add = tlc_list_add,
    .sub = tlc_no_arith,
    .mul = tlc_no_arith,
    .div = tlc_list_div,
    .eq = tlc_same_identity,
    .compare = tlc_no_compare,
    .car = tlc_no_car,
    .cdr = tlc_no_car,
};

const TlcOps tlc_cons_ops = {
    .truth = tlc_always_true,
    .add = tlc_list_add,
    .sub = tlc_no_arith,
    .mul = tlc_no_arith,
    .div = tlc_list_div,
    .eq = tlc_cons_eq,
    .compare = tlc_no_compare,
    .car = tlc_cons_car,
    .cdr = tlc_cons_cdr,
};

const TlcOps tlc_instance_ops = {
    .truth = tlc_always_true,
    .add = tlc_no_arith,
    .sub = tlc_no_arith,
    .mul = tlc_no_arith,
    .div = tlc_no_arith,
    .eq = tlc_same_identity,
    .compare = tlc_no_compare,
    .car = tlc_no_car,
    .cdr = tlc_no_car,
};

const TlcType tlc_int_type = {.kind = TLC_KIND_INT, .name = "int", .ops = &tlc_int_ops};
const TlcType tlc_nil_type = {.kind = TLC_KIND_NIL, .name = "nil", .ops = &tlc_nil_ops};
const TlcType tlc_cons_type = {.kind = TLC_KIND_CONS, .name = "cons", .ops = &tlc_cons_ops};
const TlcObject tlc_nil_object = {.type = &tlc_nil_type};
