/* Value arguments (docs/architecture.md, "Value arguments"): a residual
 * call of the portal passes a virtual object of a value allocator
 * (JIT_VALUE_ALLOCATOR) as its one unknown word rather than as a pointer to
 * a materialized copy. The callee's residual graph is specialized on the
 * object's shape (allocator, size, tag, the constant pointer fields, where
 * the unknown word lies) and rebuilds the object as a virtual one from its
 * parameter. Values may be copied (the hint's promise), so the caller keeps
 * its own virtual object as it was. Results go back the same way: the
 * word, and the shape in jg_value_result_shape, which the caller promotes. */
#include <string.h>

#include "pe_internal.h"

/* Of one argument. Integer fields are never part of a shape, only pointer
 * fields (type descriptors): shapes grow with the program, not its data.
 * Nor is the allocation's tag (its site): with it, a callee that forwards
 * its arguments would be specialized once per combination of its callers'
 * sites. The callee materializes with the tag of the first call that made
 * the shape (for TLC: a MemoryError there names an instruction that boxes
 * integers, not always the one whose box it is). */
typedef struct ValueShape {
    const JgGraph *allocator;
    int64_t size;
    uint64_t tag;
    bool has_tag;
    int64_t word_offset; /* the word passed, -1: none (every field constant) */
    uint8_t word_type;   /* JG_I64 or JG_PTR */
    uint32_t nconst;
    Field *consts; /* constant pointer fields, by offset */
    struct ValueShape *next;
} ValueShape;

struct JgArgShapes {
    uint32_t n;              /* portal parameters */
    const ValueShape **slot; /* per parameter: NULL, passed as it is */
    struct JgArgShapes *next;
};

static bool same_value_shape(const ValueShape *a, const ValueShape *b)
{
    if (a->allocator != b->allocator || a->size != b->size || a->has_tag != b->has_tag ||
        a->word_offset != b->word_offset || a->word_type != b->word_type || a->nconst != b->nconst)
        return false;
    for (uint32_t i = 0; i < a->nconst; i++)
        if (a->consts[i].offset != b->consts[i].offset || a->consts[i].type != b->consts[i].type ||
            a->consts[i].value.bits != b->consts[i].value.bits)
            return false;
    return true;
}

/* The shape `o` would travel as, or false when it cannot travel by value:
 * not of a value allocator, already materialized, a field that is a
 * virtual object or narrower than a word, or more than one unknown word. */
static bool shape_of(const Virt *o, ValueShape *shape, Field *consts)
{
    if (o->kind != VIRT_HEAP || !o->allocator || !(o->allocator->flags & JG_FLAG_VALUE) ||
        o->materialized)
        return false;
    *shape = (ValueShape){.allocator = o->allocator,
                          .size = o->size,
                          .tag = o->tag,
                          .has_tag = o->has_tag,
                          .word_offset = -1,
                          .consts = consts};
    for (uint32_t i = 0; i < o->nfields; i++) {
        const Field *fd = &o->fields[i];
        if (jg_type_size((JgType)fd->type) != 8 || fd->value.kind == AV_VIRT)
            return false;
        bool pointer_constant = fd->type == JG_PTR && fd->value.kind == AV_CONST;
        if (pointer_constant) {
            consts[shape->nconst++] = *fd;
            continue;
        }
        if (shape->word_offset >= 0 || (fd->type != JG_I64 && fd->type != JG_PTR))
            return false;
        shape->word_offset = fd->offset;
        shape->word_type = fd->type;
    }
    return true;
}

static const ValueShape *intern_value_shape(JgPe *pe, const ValueShape *shape)
{
    for (const ValueShape *s = pe->value_shapes; s; s = s->next)
        if (same_value_shape(s, shape))
            return s;
    ValueShape *s = jg_arena_alloc(&pe->arena, sizeof *s);
    *s = *shape;
    s->consts = jg_arena_alloc(&pe->arena, sizeof(Field) * (shape->nconst + 1));
    memcpy(s->consts, shape->consts, sizeof(Field) * shape->nconst);
    s->next = pe->value_shapes;
    pe->value_shapes = s;
    return s;
}

static const JgArgShapes *intern_arg_shapes(JgPe *pe, uint32_t n, const ValueShape **slot)
{
    for (const JgArgShapes *a = pe->arg_shapes; a; a = a->next)
        if (a->n == n && memcmp(a->slot, slot, sizeof *slot * n) == 0)
            return a;
    JgArgShapes *a = jg_arena_alloc(&pe->arena, sizeof *a);
    a->n = n;
    a->slot = jg_arena_alloc(&pe->arena, sizeof *slot * (n + 1));
    memcpy(a->slot, slot, sizeof *slot * n);
    a->next = pe->arg_shapes;
    pe->arg_shapes = a;
    return a;
}

/* The word `o` travels as under `shape`, as a pointer-typed value. */
static JgVal word_of(JgPe *pe, State *s, uint32_t block, Virt *o, const ValueShape *shape)
{
    if (shape->word_offset < 0)
        return emit_const(pe, JG_PTR, 0);
    JgVal word = residualize(pe, s, block, virt_field(o, shape->word_offset)->value);
    return shape->word_type == JG_PTR ? word : emit_op(pe, block, JG_OP_INTTOPTR, JG_PTR, 1, &word);
}

const JgArgShapes *value_args_pass(JgPe *pe, State *s, uint32_t block, const Frame *f,
                                   const JgOp *op, JgVal *args)
{
    if (pe->options.no_value_args)
        return NULL;
    uint64_t greens = pe->bta->portal_green_params;
    uint32_t n = op->nargs - 1;
    const ValueShape *slot[n + 1];
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        slot[i] = NULL;
        Av a = av_get(f, op->args[i + 1]);
        if ((i < 64 && (greens >> i & 1)) || a.kind != AV_VIRT || a.offset != 0 ||
            jg_value_type(f->g, op->args[i + 1]) != JG_PTR)
            continue;
        Field consts[a.obj->nfields + 1];
        ValueShape shape;
        if (!shape_of(a.obj, &shape, consts))
            continue;
        slot[i] = intern_value_shape(pe, &shape);
        any = true;
        args[i + 1] = word_of(pe, s, block, a.obj, slot[i]);
    }
    return any ? intern_arg_shapes(pe, n, slot) : NULL;
}

bool value_args_passed(const JgArgShapes *shapes, uint32_t i)
{
    return shapes && i < shapes->n && shapes->slot[i];
}

/* The virtual object of `shape` whose word is the pointer-typed `param`
 * (its conversion emitted into `block`). */
static Av rebuild(JgPe *pe, const ValueShape *shape, JgVal param, uint32_t block)
{
    Virt *o = virt_new(pe, VIRT_HEAP, shape->size, shape->allocator);
    o->has_tag = shape->has_tag;
    o->tag = shape->tag;
    for (uint32_t k = 0; k < shape->nconst; k++)
        virt_store(pe, o, shape->consts[k].offset, (JgType)shape->consts[k].type,
                   shape->consts[k].value);
    if (shape->word_offset >= 0) {
        JgVal word = shape->word_type == JG_PTR
                         ? param
                         : emit_op(pe, block, JG_OP_PTRTOINT, JG_I64, 1, &param);
        virt_store(pe, o, shape->word_offset, (JgType)shape->word_type,
                   av_var((JgType)shape->word_type, word));
    }
    return (Av){.kind = AV_VIRT, .type = JG_PTR, .obj = o};
}

Av value_args_receive(JgPe *pe, const JgArgShapes *shapes, uint32_t i, JgVal param)
{
    return rebuild(pe, shapes->slot[i], param, 0);
}

/* ---- results ---- */

const void *jg_value_result_shape;

bool value_results_on(const JgPe *pe)
{
    return !pe->options.no_value_args && pe->module->portal &&
           pe->module->portal->ret_type == JG_PTR;
}

JgVal value_results_return(JgPe *pe, State *s, uint32_t block, Av value)
{
    if (!value_results_on(pe))
        return residualize(pe, s, block, value);
    const ValueShape *shape = NULL;
    if (value.kind == AV_VIRT && value.offset == 0) {
        Field consts[value.obj->nfields + 1];
        ValueShape found;
        if (shape_of(value.obj, &found, consts))
            shape = intern_value_shape(pe, &found);
    }
    JgVal r = shape ? word_of(pe, s, block, value.obj, shape) : residualize(pe, s, block, value);
    JgVal store[2] = {emit_const(pe, JG_PTR, (uint64_t)(uintptr_t)&jg_value_result_shape),
                      emit_const(pe, JG_PTR, (uint64_t)(uintptr_t)shape)};
    emit_op(pe, block, JG_OP_STORE, JG_VOID, 2, store);
    return r;
}

Av value_results_shape(JgPe *pe, uint32_t block)
{
    JgVal at = emit_const(pe, JG_PTR, (uint64_t)(uintptr_t)&jg_value_result_shape);
    return av_var(JG_PTR, emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &at));
}

Av value_results_receive(JgPe *pe, uint64_t shape, JgVal r, uint32_t block)
{
    if (!shape)
        return av_var(JG_PTR, r);
    return rebuild(pe, (const ValueShape *)(uintptr_t)shape, r, block);
}

uint64_t jg_value_result_box(uint64_t r)
{
    const ValueShape *shape = jg_value_result_shape;
    if (!shape)
        return r;
    jg_value_result_shape = NULL;
    /* the call materialize() emits, made now */
    const JgGraph *allocator = shape->allocator;
    uint32_t n = shape->has_tag ? 2 : 1;
    JgType types[2] = {(JgType)allocator->param_types[0], (JgType)allocator->param_types[n - 1]};
    uint64_t args[2] = {(uint64_t)shape->size, shape->tag};
    char *p = (char *)(uintptr_t)jg_call_native(allocator->native, JG_PTR, n, types, args, n);
    for (uint32_t k = 0; k < shape->nconst; k++)
        memcpy(p + shape->consts[k].offset, &shape->consts[k].value.bits, sizeof(uint64_t));
    if (shape->word_offset >= 0)
        memcpy(p + shape->word_offset, &r, sizeof r);
    return (uint64_t)(uintptr_t)p;
}
