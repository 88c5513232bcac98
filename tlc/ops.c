/* The per-type operation tables and the four kinds of type. The JIT inlines
 * these through the promoted type of the receiver (tlc_type_of), so every
 * function here also checks its other operand's type with tlc_type_of. */
#include "errors.h"
#include "object.h"
#include "values.h"

static int64_t int_value(TlcObject *o)
{
    return ((TlcInt *)o)->value;
}

static bool is_int(TlcObject *o)
{
    return tlc_type_of(o) == &tlc_int_type;
}

static bool is_list(TlcObject *o)
{
    TlcKind k = tlc_type_of(o)->kind;
    return k == TLC_KIND_NIL || k == TLC_KIND_CONS;
}

static bool always_true(TlcObject *self)
{
    (void)self;
    return true;
}

static bool always_false(TlcObject *self)
{
    (void)self;
    return false;
}

static bool same_identity(TlcObject *b, TlcObject *a)
{
    return b == a;
}

static TlcObject *no_arith(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    tlc_raise_operands(op, pc, b, a);
}

static int no_compare(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    tlc_raise_operands(op, pc, b, a);
}

static TlcObject *no_car(TlcObject *self, int op, int64_t pc)
{
    tlc_raise_expected(op, pc, "cons", self);
}

/* ---- integers: arithmetic wraps (computed in unsigned), DIV floors ---- */

static bool int_truth(TlcObject *self)
{
    return int_value(self) != 0;
}

static TlcObject *int_add(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)int_value(b) + (uint64_t)int_value(a)));
}

static TlcObject *int_sub(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)int_value(b) - (uint64_t)int_value(a)));
}

static TlcObject *int_mul(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_int_new((int64_t)((uint64_t)int_value(b) * (uint64_t)int_value(a)));
}

/* Floor division like Python's //; INT64_MIN // -1 wraps to INT64_MIN. */
static TlcObject *int_div(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    int64_t x = int_value(b), y = int_value(a);
    if (y == 0)
        tlc_raise(TLC_ERR_ZERO_DIVISION, op, pc, "integer division by zero");
    if (y == -1)
        return tlc_int_new((int64_t)(0u - (uint64_t)x));
    int64_t q = x / y;
    if (x % y != 0 && ((x < 0) != (y < 0)))
        q -= 1;
    return tlc_int_new(q);
}

static bool int_eq(TlcObject *b, TlcObject *a)
{
    return is_int(a) && int_value(b) == int_value(a);
}

static int int_compare(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    int64_t x = int_value(b), y = int_value(a);
    return (x > y) - (x < y);
}

/* ---- lists: nil and cons share concatenation and indexing ---- */

static TlcObject *list_add(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_list(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_list_concat(b, a, op, pc);
}

static TlcObject *list_div(TlcObject *b, TlcObject *a, int op, int64_t pc)
{
    if (!is_int(a))
        tlc_raise_operands(op, pc, b, a);
    return tlc_list_nth(b, int_value(a), op, pc);
}

static bool cons_eq(TlcObject *b, TlcObject *a)
{
    return tlc_type_of(a) == &tlc_cons_type && tlc_cons_equal(b, a);
}

static TlcObject *cons_car(TlcObject *self, int op, int64_t pc)
{
    (void)op;
    (void)pc;
    return ((TlcCons *)self)->car;
}

static TlcObject *cons_cdr(TlcObject *self, int op, int64_t pc)
{
    (void)op;
    (void)pc;
    return ((TlcCons *)self)->cdr;
}

static const TlcOps int_ops = {
    .truth = int_truth,
    .add = int_add,
    .sub = int_sub,
    .mul = int_mul,
    .div = int_div,
    .eq = int_eq,
    .compare = int_compare,
    .car = no_car,
    .cdr = no_car,
};

static const TlcOps nil_ops = {
    .truth = always_false,
    .add = list_add,
    .sub = no_arith,
    .mul = no_arith,
    .div = list_div,
    .eq = same_identity,
    .compare = no_compare,
    .car = no_car,
    .cdr = no_car,
};

static const TlcOps cons_ops = {
    .truth = always_true,
    .add = list_add,
    .sub = no_arith,
    .mul = no_arith,
    .div = list_div,
    .eq = cons_eq,
    .compare = no_compare,
    .car = cons_car,
    .cdr = cons_cdr,
};

const TlcOps tlc_instance_ops = {
    .truth = always_true,
    .add = no_arith,
    .sub = no_arith,
    .mul = no_arith,
    .div = no_arith,
    .eq = same_identity,
    .compare = no_compare,
    .car = no_car,
    .cdr = no_car,
};

const TlcType tlc_int_type = {.kind = TLC_KIND_INT, .name = "int", .ops = &int_ops};
const TlcType tlc_nil_type = {.kind = TLC_KIND_NIL, .name = "nil", .ops = &nil_ops};
const TlcType tlc_cons_type = {.kind = TLC_KIND_CONS, .name = "cons", .ops = &cons_ops};
const TlcObject tlc_nil_object = {.type = &tlc_nil_type};
