/* Value arguments (docs/architecture.md, "Value arguments"): a residual
 * call of the portal passes a virtual object of a value allocator
 * (JIT_VALUE_ALLOCATOR) as its one unknown word rather than as a pointer to
 * a materialized copy. The callee's residual graph is specialized on the
 * object's shape (allocator, size, tag, the constant pointer fields, where
 * the unknown word lies) and rebuilds the object as a virtual one from its
 * parameter. Values may be copied (the hint's promise), so the caller keeps
 * its own virtual object as it was. Results go back the same way: the
 * word, and the shape in jg_value_result_shape, which the caller promotes.
 * Calls from outside residual code pass real objects: those of a known
 * shape (seeded from the interpreter's own graphs when the partial
 * evaluator starts) travel by value too (jg_pe_host_shapes). */
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
    bool seeded;         /* by value_args_seed: its tag (0) until a compilation meets it */
    int64_t word_offset; /* the word passed, -1: none (every field constant) */
    uint8_t word_type;   /* JG_I64 or JG_PTR */
    uint32_t nconst;
    Field *consts; /* constant pointer fields, by offset */
    struct ValueShape *next;
} ValueShape;

/* Of an object of the host array that is not a value but has words that
 * point to objects (JgPeOptions.host_fields): its first word (a type) and
 * those of its words that point to an object of a value shape, with the
 * shape. Interned: equal ones are one. */
typedef struct HostFields {
    uint64_t first;
    uint32_t n;
    int64_t offset[PE_HOST_FIELDS_MAX];
    const ValueShape *shape[PE_HOST_FIELDS_MAX];
    struct HostFields *next;
} HostFields;

struct JgArgShapes {
    uint32_t n;              /* portal parameters */
    const ValueShape **slot; /* per parameter: NULL, passed as it is */
    /* from a host's call: per object of the host array (JgPeOptions.host_array),
     * its shape or NULL, and if NULL its fields read at the entry or NULL */
    uint32_t narray;
    const ValueShape **array;
    const HostFields **fields;
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

/* An object whose fields are all constants but one word never written
 * (zero: the integer 0) travels as the word, as the same object with any
 * other integer does: the constant 0 makes no specialization of its own. */
static void zero_word(const Virt *o, ValueShape *shape)
{
    if (o->size % 8)
        return;
    int64_t gap = -1;
    uint32_t f = 0;
    for (int64_t at = 0; at < o->size; at += 8) {
        if (f < o->nfields && o->fields[f].offset == at) {
            f++;
            continue;
        }
        if (gap >= 0)
            return;
        gap = at;
    }
    if (f == o->nfields && gap >= 0) {
        shape->word_offset = gap;
        shape->word_type = JG_I64;
    }
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
    if (shape->word_offset < 0)
        zero_word(o, shape);
    return true;
}

static const ValueShape *intern_value_shape(JgPe *pe, const ValueShape *shape)
{
    for (ValueShape *s = pe->value_shapes; s; s = s->next)
        if (same_value_shape(s, shape)) {
            if (s->seeded && !shape->seeded) {
                s->tag = shape->tag;
                s->seeded = false;
            }
            return s;
        }
    ValueShape *s = jg_arena_alloc(&pe->arena, sizeof *s);
    *s = *shape;
    s->consts = jg_arena_alloc(&pe->arena, sizeof(Field) * (shape->nconst + 1));
    memcpy(s->consts, shape->consts, sizeof(Field) * shape->nconst);
    s->next = pe->value_shapes;
    pe->value_shapes = s;
    return s;
}

static const JgArgShapes *intern_arg_shapes(JgPe *pe, uint32_t n, const ValueShape **slot,
                                            uint32_t narray, const ValueShape **array,
                                            const HostFields **fields)
{
    for (const JgArgShapes *a = pe->arg_shapes; a; a = a->next)
        if (a->n == n && memcmp(a->slot, slot, sizeof *slot * n) == 0 && a->narray == narray &&
            (narray == 0 || (memcmp(a->array, array, sizeof *array * narray) == 0 &&
                             memcmp(a->fields, fields, sizeof *fields * narray) == 0)))
            return a;
    JgArgShapes *a = jg_arena_alloc(&pe->arena, sizeof *a);
    a->n = n;
    a->slot = jg_arena_alloc(&pe->arena, sizeof *slot * (n + 1));
    memcpy(a->slot, slot, sizeof *slot * n);
    a->narray = narray;
    a->array = jg_arena_alloc(&pe->arena, sizeof *array * (narray + 1));
    a->fields = jg_arena_alloc(&pe->arena, sizeof *fields * (narray + 1));
    if (narray) {
        memcpy(a->array, array, sizeof *array * narray);
        memcpy(a->fields, fields, sizeof *fields * narray);
    }
    a->next = pe->arg_shapes;
    pe->arg_shapes = a;
    return a;
}

/* The word `o` travels as under `shape`, as a pointer-typed value. */
static JgVal word_of(JgPe *pe, State *s, uint32_t block, Virt *o, const ValueShape *shape)
{
    if (shape->word_offset < 0)
        return emit_const(pe, JG_PTR, 0);
    const Field *fd = virt_field(o, shape->word_offset);
    JgVal word = fd ? residualize(pe, s, block, fd->value) : emit_const(pe, JG_I64, 0);
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
    return any ? intern_arg_shapes(pe, n, slot, 0, NULL, NULL) : NULL;
}

/* Whether real object `p` is one of `shape`: its constant pointer fields
 * are the shape's. The shape's first one must be at offset 0 (a type): the
 * only word read before knowing the object's kind. */
static bool host_object_has_shape(const char *p, const ValueShape *shape)
{
    if (!shape->nconst || shape->consts[0].offset != 0)
        return false;
    for (uint32_t k = 0; k < shape->nconst; k++) {
        uint64_t bits;
        memcpy(&bits, p + shape->consts[k].offset, sizeof bits);
        if (bits != shape->consts[k].value.bits)
            return false;
    }
    return true;
}

static Av rebuild(JgPe *pe, const ValueShape *shape, JgVal param, uint32_t block);
static Av rebuild_with(JgPe *pe, const ValueShape *shape, Av word);

/* The known shape of real object `p`, or NULL. */
static const ValueShape *host_shape(const JgPe *pe, const char *p)
{
    for (const ValueShape *shape = pe->value_shapes; p && shape; shape = shape->next)
        if (host_object_has_shape(p, shape))
            return shape;
    return NULL;
}

static const HostFields *intern_host_fields(JgPe *pe, const HostFields *f)
{
    for (const HostFields *h = pe->host_fields; h; h = h->next)
        if (h->first == f->first && h->n == f->n &&
            memcmp(h->offset, f->offset, sizeof *f->offset * f->n) == 0 &&
            memcmp(h->shape, f->shape, sizeof *f->shape * f->n) == 0)
            return h;
    HostFields *h = jg_arena_alloc(&pe->arena, sizeof *h);
    *h = *f;
    h->next = pe->host_fields;
    pe->host_fields = h;
    return h;
}

/* The fields of real object `p` (objects[j]) that point to objects of a
 * value shape, or NULL: none, or `p` is in the array before j (two objects
 * whose fields the entry reads must be two: the code keeps what each holds
 * apart). */
static const HostFields *host_fields(JgPe *pe, const char *const *objects, uint32_t j)
{
    const char *p = objects[j];
    int64_t offsets[PE_HOST_FIELDS_MAX];
    uint32_t n =
        p && pe->options.host_fields ? pe->options.host_fields(p, offsets, PE_HOST_FIELDS_MAX) : 0;
    for (uint32_t k = 0; n && k < j; k++)
        if (objects[k] == p)
            return NULL;
    HostFields f = {.n = 0};
    for (uint32_t i = 0; i < n && i < PE_HOST_FIELDS_MAX; i++) {
        if (offsets[i] <= 0 || offsets[i] % 8)
            continue; /* not a word after the first */
        const char *q;
        memcpy(&q, p + offsets[i], sizeof q);
        const ValueShape *shape = host_shape(pe, q);
        if (shape) {
            f.offset[f.n] = offsets[i];
            f.shape[f.n++] = shape;
        }
    }
    if (!f.n)
        return NULL;
    memcpy(&f.first, p, sizeof f.first);
    return intern_host_fields(pe, &f);
}

/* Whether the host array's parameters are a red pointer and a green
 * integer of the portal. */
static bool host_array_usable(const JgPe *pe)
{
    const JgGraph *portal = pe->module->portal;
    unsigned a = pe->options.host_array_param, n = pe->options.host_array_len_param;
    uint64_t greens = pe->bta->portal_green_params;
    return pe->options.host_array && a < portal->nparams && n < portal->nparams && a < 64 &&
           n < 64 && !(greens >> a & 1) && (greens >> n & 1) && portal->param_types[a] == JG_PTR &&
           jg_type_is_int((JgType)portal->param_types[n]);
}

const JgArgShapes *jg_pe_host_shapes(JgPe *pe, uint64_t *args)
{
    const JgGraph *portal = pe->module->portal;
    if (pe->options.no_value_args || !pe->value_shapes || !portal)
        return NULL;
    uint64_t greens = pe->bta->portal_green_params;
    uint32_t n = portal->nparams;
    const ValueShape *slot[n + 1];
    bool any = false;
    for (uint32_t i = 0; i < n; i++) {
        slot[i] = NULL;
        const char *p = (const char *)(uintptr_t)args[i];
        if (i >= 64 || (greens >> i & 1) || portal->param_types[i] != JG_PTR || !p)
            continue;
        if (!(slot[i] = host_shape(pe, p)))
            continue;
        any = true;
        args[i] = 0;
        if (slot[i]->word_offset >= 0)
            memcpy(&args[i], p + slot[i]->word_offset, sizeof args[i]);
    }
    /* the host array's objects stay where they are, for the residual code
     * to read (value_args_host_load); their shapes, part of the key, are
     * read here */
    uint32_t narray = 0;
    const ValueShape *array[PE_HOST_ARRAY_MAX + 1];
    const HostFields *fields[PE_HOST_ARRAY_MAX + 1];
    if (host_array_usable(pe)) {
        const char *const *objects =
            (const char *const *)(uintptr_t)args[pe->options.host_array_param];
        uint64_t count = args[pe->options.host_array_len_param];
        if (objects && count <= PE_HOST_ARRAY_MAX)
            for (uint32_t j = 0; j < count; j++) {
                array[j] = host_shape(pe, objects[j]);
                fields[j] = array[j] ? NULL : host_fields(pe, objects, j);
                if (array[j] || fields[j])
                    narray = j + 1;
            }
    }
    any |= narray > 0;
    return any ? intern_arg_shapes(pe, n, slot, narray, array, fields) : NULL;
}

void value_args_host_array(JgPe *pe, State *s, const JgArgShapes *shapes, JgVal param)
{
    bool on = shapes && shapes->narray; /* jg_pe_host_shapes checked the parameters */
    s->host_array = on ? param : 0;
    pe->host_array_shapes = on ? shapes : NULL;
}

/* Whether a pending store to a pointer's bytes at `offset` is through
 * another base than `base`. */
static bool pending_elsewhere(const State *s, JgVal base, int64_t offset)
{
    for (uint32_t i = 0; i < s->ncache; i++) {
        const CacheEntry *e = &s->cache[i];
        if (e->pending && e->base != base && cache_entry_overlaps(e, offset, JG_PTR))
            return true;
    }
    return false;
}

/* Host array element (base, offset), an object with fields `hf`: loaded,
 * its first word known, and each field that points to an object of a
 * value shape read into a virtual copy stored there by a pending store.
 * Values may be copied, so the copy stands for the object; the stores
 * keep every such field virtual from the entry on, as in the frame
 * specialized from its start, whatever path first writes it. One whose
 * offset another base's pending store covers is left to plain loads
 * (the two bases might be one object: pending_flush_aliases). */
static Av host_load_fields(JgPe *pe, State *s, uint32_t block, JgVal base, int64_t offset,
                           const HostFields *hf)
{
    JgVal at = emit_pointer_plus(pe, block, base, offset);
    JgVal object = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &at);
    Av result = av_var(JG_PTR, object);
    /* the host array does not change (JgPeOptions.host_array) */
    cache_put(pe, s, base, offset, JG_PTR, result)->immutable = 1;
    cache_put(pe, s, object, 0, JG_PTR, av_const(JG_PTR, hf->first))->immutable = 1;
    for (uint32_t k = 0; k < hf->n; k++) {
        if (pending_elsewhere(s, object, hf->offset[k]))
            continue;
        const ValueShape *shape = hf->shape[k];
        JgVal field = emit_pointer_plus(pe, block, object, hf->offset[k]);
        JgVal boxed = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &field);
        JgVal word = 0;
        if (shape->word_offset >= 0) {
            JgVal w = emit_pointer_plus(pe, block, boxed, shape->word_offset);
            word = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &w);
        }
        pending_put(pe, s, object, hf->offset[k], JG_PTR, rebuild(pe, shape, word, block));
    }
    return result;
}

bool value_args_host_load(JgPe *pe, State *s, uint32_t block, JgVal base, int64_t offset,
                          JgType type, Av *out)
{
    const JgArgShapes *shapes = pe->host_array_shapes;
    if (!shapes || !base || base != s->host_array || type != JG_PTR || offset < 0 || offset % 8 ||
        (uint64_t)offset / 8 >= shapes->narray)
        return false;
    if (!shapes->array[offset / 8]) {
        const HostFields *hf = shapes->fields[offset / 8];
        if (!hf)
            return false;
        *out = host_load_fields(pe, s, block, base, offset, hf);
        return true;
    }
    const ValueShape *shape = shapes->array[offset / 8];
    const HostGuess *g = pe->host_guess;
    for (uint32_t k = 0; g && k < g->n; k++)
        if (g->slot[k] == (uint64_t)offset / 8) {
            *out = rebuild_with(pe, shape, av_const((JgType)shape->word_type, g->word[k]));
            return true;
        }
    JgVal at = emit_pointer_plus(pe, block, base, offset);
    JgVal object = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &at);
    JgVal word = 0;
    if (shape->word_offset >= 0) {
        JgVal field = emit_pointer_plus(pe, block, object, shape->word_offset);
        word = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &field);
    }
    *out = rebuild(pe, shape, word, block);
    const Field *fd = shape->word_offset >= 0 ? virt_field(out->obj, shape->word_offset) : NULL;
    if (fd && fd->value.kind == AV_VAR)
        guess_probe(pe, (uint32_t)(offset / 8), fd->value.var);
    return true;
}

bool value_args_host_word(const JgArgShapes *shapes, uint32_t j, int64_t *offset)
{
    const ValueShape *shape = j < shapes->narray ? shapes->array[j] : NULL;
    if (!shape || shape->word_offset < 0 || shape->word_type != JG_I64)
        return false;
    *offset = shape->word_offset;
    return true;
}

/* Offsets from a new object `base` that an op of its block addresses. */
typedef struct SeedAddress {
    JgVal value;
    int64_t offset;
} SeedAddress;

enum { SEED_MAX_FIELDS = 16 };

/* The shape of the object the value allocator call `at` of block `b`
 * makes, if the block's later stores give it one: constants and at most
 * one unknown word at constant offsets. */
static void seed_from(JgPe *pe, const JgGraph *g, const JgBlock *b, uint32_t at)
{
    const JgOp *call = &b->ops.items[at];
    SeedAddress addr[SEED_MAX_FIELDS + 1] = {{call->result, 0}};
    uint32_t naddr = 1;
    Field fields[SEED_MAX_FIELDS];
    uint32_t nfields = 0;
    for (uint32_t k = at + 1; k < b->ops.count; k++) {
        const JgOp *op = &b->ops.items[k];
        if (op->opcode != JG_OP_PTRADD && op->opcode != JG_OP_STORE)
            continue;
        int64_t offset = -1;
        for (uint32_t j = 0; j < naddr && offset < 0; j++)
            if (op->nargs == 2 && op->args[0] == addr[j].value)
                offset = addr[j].offset;
        if (offset < 0)
            continue;
        const JgValueInfo *v = jg_value(g, op->args[1]);
        if (op->opcode == JG_OP_PTRADD) {
            if (v->kind != JG_VK_CONST || naddr == SEED_MAX_FIELDS + 1)
                return;
            addr[naddr++] = (SeedAddress){op->result, offset + (int64_t)v->bits};
            continue;
        }
        uint32_t f = 0;
        while (f < nfields && fields[f].offset != offset)
            f++;
        if (f == SEED_MAX_FIELDS)
            return;
        fields[f] = (Field){.offset = offset,
                            .type = v->type,
                            .value = v->kind == JG_VK_CONST ? av_const((JgType)v->type, v->bits)
                                                            : av_var((JgType)v->type, 0)};
        nfields += f == nfields;
    }
    for (uint32_t i = 1; i < nfields; i++)
        for (uint32_t j = i; j > 0 && fields[j - 1].offset > fields[j].offset; j--) {
            Field t = fields[j];
            fields[j] = fields[j - 1];
            fields[j - 1] = t;
        }
    const JgValueInfo *size = jg_value(g, call->args[1]);
    const JgValueInfo *tag = call->nargs == 3 ? jg_value(g, call->args[2]) : NULL;
    Field consts[SEED_MAX_FIELDS];
    ValueShape shape = {.allocator = call->callee,
                        .size = (int64_t)size->bits,
                        .has_tag = tag != NULL,
                        .tag = tag && tag->kind == JG_VK_CONST ? tag->bits : 0,
                        .seeded = true,
                        .word_offset = -1,
                        .consts = consts};
    for (uint32_t i = 0; i < nfields; i++) {
        const Field *fd = &fields[i];
        if (jg_type_size((JgType)fd->type) != 8)
            return;
        if (fd->type == JG_PTR && fd->value.kind == AV_CONST) {
            consts[shape.nconst++] = *fd;
            continue;
        }
        /* one word, an integer or a pointer (as shape_of takes them) */
        if (shape.word_offset >= 0 || (fd->type != JG_I64 && fd->type != JG_PTR))
            return;
        shape.word_offset = fd->offset;
        shape.word_type = fd->type;
    }
    if (shape.nconst && consts[0].offset == 0)
        intern_value_shape(pe, &shape);
}

void value_args_seed(JgPe *pe)
{
    if (pe->options.no_value_args)
        return;
    const JgModule *m = pe->module;
    for (uint32_t i = 0; i < m->graphs.count; i++) {
        const JgGraph *g = m->graphs.items[i];
        for (uint32_t bi = 0; bi < g->blocks.count; bi++) {
            const JgBlock *b = &g->blocks.items[bi];
            for (uint32_t k = 0; k < b->ops.count; k++) {
                const JgOp *op = &b->ops.items[k];
                if (op->opcode == JG_OP_CALL && op->callee && (op->callee->flags & JG_FLAG_VALUE) &&
                    (op->nargs == 2 || op->nargs == 3) &&
                    jg_value(g, op->args[1])->kind == JG_VK_CONST && op->result)
                    seed_from(pe, g, b, k);
            }
        }
    }
}

bool value_args_passed(const JgArgShapes *shapes, uint32_t i)
{
    return shapes && i < shapes->n && shapes->slot[i];
}

/* A virtual object of `shape` whose word is `word`. */
static Av rebuild_with(JgPe *pe, const ValueShape *shape, Av word)
{
    Virt *o = virt_new(pe, VIRT_HEAP, shape->size, shape->allocator);
    o->has_tag = shape->has_tag;
    o->tag = shape->tag;
    for (uint32_t k = 0; k < shape->nconst; k++)
        virt_store(pe, o, shape->consts[k].offset, (JgType)shape->consts[k].type,
                   shape->consts[k].value);
    if (shape->word_offset >= 0)
        virt_store(pe, o, shape->word_offset, (JgType)shape->word_type, word);
    return (Av){.kind = AV_VIRT, .type = JG_PTR, .obj = o};
}

/* The virtual object of `shape` whose word is the pointer-typed `param`
 * (its conversion emitted into `block`). */
static Av rebuild(JgPe *pe, const ValueShape *shape, JgVal param, uint32_t block)
{
    if (shape->word_offset < 0)
        return rebuild_with(pe, shape, (Av){0});
    JgVal word =
        shape->word_type == JG_PTR ? param : emit_op(pe, block, JG_OP_PTRTOINT, JG_I64, 1, &param);
    return rebuild_with(pe, shape, av_var((JgType)shape->word_type, word));
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

uint64_t jg_value_result_box_reusing(uint64_t r, const JgArgShapes *shapes, const uint64_t *words,
                                     const uint64_t *objects)
{
    const ValueShape *shape = jg_value_result_shape;
    for (uint32_t i = 0; shape && shapes && i < shapes->n; i++)
        if (shapes->slot[i] == shape && words[i] == r) {
            jg_value_result_shape = NULL;
            return objects[i];
        }
    return jg_value_result_box(r);
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
