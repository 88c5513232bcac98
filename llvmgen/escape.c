/* Which ALLOCAs of a secondary must outlive it. A secondary's frame dies
 * when it returns to the primary's dispatcher, but the memory of an ALLOCA
 * lives, in the interpreter, as long as the frame of the function that
 * made it: its address may travel to another method (an external link, a
 * flexswitch's live values), be stored into memory, or be returned. Those
 * ALLOCAs take memory from the method's area in the primary's activation
 * (areas.c).
 *
 * The analysis follows addresses through pointer arithmetic, selects,
 * casts, hints and block parameters of the method (a fixpoint on a small
 * lattice: none, one ALLOCA, several). Addresses passed to calls are
 * assumed not to be kept by the callee. */
#include <stdlib.h>

#include "internal.h"

#define SEVERAL UINT32_MAX

static uint32_t join(uint32_t a, uint32_t b)
{
    if (a == 0 || a == b)
        return b;
    if (b == 0)
        return a;
    return SEVERAL;
}

static bool flow(uint32_t *origin, JgVal to, JgVal from)
{
    uint32_t j = join(origin[to], origin[from]);
    if (j == origin[to])
        return false;
    origin[to] = j;
    return true;
}

/* Whether the op passes an address from its operands to its result. */
static bool carries_address(const JgOp *op)
{
    switch ((JgOpcode)op->opcode) {
    case JG_OP_PTRADD:
    case JG_OP_ADD:
    case JG_OP_SUB:
    case JG_OP_AND:
    case JG_OP_OR:
    case JG_OP_XOR:
    case JG_OP_SELECT:
    case JG_OP_PTRTOINT:
    case JG_OP_INTTOPTR:
    case JG_OP_BITCAST:
    case JG_OP_ZEXT:
    case JG_OP_TRUNC:
    case JG_OP_PROMOTE:
    case JG_OP_CONCRETE:
    case JG_OP_DEEPFREEZE:
    case JG_OP_FORGET:
        return true;
    default:
        return false;
    }
}

static bool propagate_block(const LgMethod *m, uint32_t *origin, uint32_t b)
{
    const JgBlock *blk = &m->g->blocks.items[b];
    uint32_t nvals = m->g->values.count;
    bool changed = false;
    for (uint32_t i = 0; i < blk->ops.count; i++) {
        const JgOp *op = &blk->ops.items[i];
        if (!op->result || op->result >= nvals)
            continue;
        if (op->opcode == JG_OP_ALLOCA && origin[op->result] != op->result) {
            origin[op->result] = op->result;
            changed = true;
        } else if (carries_address(op)) {
            for (uint32_t a = 0; a < op->nargs; a++)
                if (op->args[a] && op->args[a] < nvals)
                    changed |= flow(origin, op->result, op->args[a]);
        }
    }
    if (blk->term.kind == JG_TERM_FLEXSWITCH)
        return changed;
    for (uint32_t l = 0; l < blk->term.nlinks; l++) {
        const JgLink *link = &blk->term.links[l];
        if (link->target < m->lo || link->target >= m->hi)
            continue;
        const JgBlock *t = &m->g->blocks.items[link->target];
        for (uint32_t a = 0; a < link->nargs && a < t->nparams; a++)
            if (link->args[a] && link->args[a] < nvals)
                changed |= flow(origin, t->params[a], link->args[a]);
    }
    return changed;
}

/* Marks the ALLOCA(s) behind `v` as escaping. */
static void sink(LgMethod *m, const uint32_t *origin, JgVal v)
{
    if (!v || v >= m->g->values.count || !origin[v])
        return;
    if (origin[v] != SEVERAL) {
        m->escapes[origin[v]] = true;
        return;
    }
    for (JgVal x = 1; x < m->g->values.count; x++)
        if (origin[x] == x)
            m->escapes[x] = true;
}

static void sink_values(LgMethod *m, const uint32_t *origin, uint32_t n, const JgVal *vals)
{
    for (uint32_t i = 0; i < n; i++)
        sink(m, origin, vals[i]);
}

static void find_sinks(LgMethod *m, const uint32_t *origin, uint32_t b)
{
    const JgBlock *blk = &m->g->blocks.items[b];
    for (uint32_t i = 0; i < blk->ops.count; i++) {
        const JgOp *op = &blk->ops.items[i];
        if (op->opcode == JG_OP_STORE && op->nargs == 2)
            sink(m, origin, op->args[1]);
    }
    const JgTerm *t = &blk->term;
    if (t->kind == JG_TERM_RETURN) {
        sink(m, origin, t->value);
    } else if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
        const JgFlexswitch *fs = t->flex;
        sink(m, origin, fs->value);
        sink_values(m, origin, fs->nlive, fs->live);
    } else {
        for (uint32_t l = 0; l < t->nlinks; l++)
            if (t->links[l].target < m->lo)
                sink_values(m, origin, t->links[l].nargs, t->links[l].args);
    }
}

/* The memory the escaping ALLOCAs take, 16-byte aligned each. */
static bool sum_area(LgMethod *m)
{
    uint64_t bytes = 0;
    for (uint32_t b = m->lo; b < m->hi; b++)
        for (uint32_t i = 0; i < m->g->blocks.items[b].ops.count; i++) {
            const JgOp *op = &m->g->blocks.items[b].ops.items[i];
            if (op->opcode == JG_OP_ALLOCA && op->result && op->result < m->g->values.count &&
                m->escapes[op->result])
                bytes += ((op->imm > 0 ? (uint64_t)op->imm : 1) + 15) & ~UINT64_C(15);
        }
    if (bytes > UINT32_MAX / 2)
        return lg_fail(m, "%llu bytes of ALLOCA memory", (unsigned long long)bytes);
    m->area_bytes = (uint32_t)bytes;
    return true;
}

bool lg_find_escaping_allocas(LgMethod *m)
{
    uint32_t *origin = calloc(m->g->values.count ? m->g->values.count : 1, sizeof *origin);
    if (!origin)
        return lg_fail(m, "out of memory");
    bool changed = true;
    while (changed) {
        changed = false;
        for (uint32_t b = m->lo; b < m->hi; b++)
            changed |= propagate_block(m, origin, b);
    }
    for (uint32_t b = m->lo; b < m->hi; b++)
        find_sinks(m, origin, b);
    free(origin);
    return sum_area(m);
}
