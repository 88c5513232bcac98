/* Forwarding blocks (docs/backend.md, "Forwarding blocks"). The partial
 * evaluator leaves blocks that only pass their parameters on: no ops, a
 * goto whose arguments are the block's parameters or constants. Many are
 * dispatcher entries (keys of a loop body that an earlier compilation
 * reached), and a loop whose body has several entries is irreducible:
 * LLVM's loop passes (rotation, LICM, unrolling, the vectorizer) only see
 * loops with one header, so they never touch it. A link to a forwarding
 * block, and a dispatcher's landing in one, go straight to the end of its
 * chain instead, the arguments mapped through: the chain's blocks are then
 * never lowered, and the loop has one header again. */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

#define NONE UINT32_MAX

/* Marks every value used by an op, a terminator or a flexswitch, except the
 * arguments of gotos of blocks without ops (those are composed instead). */
static void mark_uses(const LgMethod *m, bool *used)
{
    for (uint32_t b = m->lo; b < m->hi; b++) {
        const JgBlock *blk = &m->g->blocks.items[b];
        for (uint32_t i = 0; i < blk->ops.count; i++)
            for (uint32_t a = 0; a < blk->ops.items[i].nargs; a++)
                used[blk->ops.items[i].args[a]] = true;
        const JgTerm *t = &blk->term;
        used[t->value] = true;
        if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
            const JgFlexswitch *fs = t->flex;
            used[fs->value] = true;
            for (uint32_t i = 0; i < fs->nlive; i++)
                used[fs->live[i]] = true;
        }
        bool composed = blk->ops.count == 0 && t->kind == JG_TERM_GOTO;
        for (uint32_t l = 0; !composed && l < t->nlinks; l++)
            for (uint32_t a = 0; a < t->links[l].nargs; a++)
                used[t->links[l].args[a]] = true;
    }
}

static bool is_param_of(const JgGraph *g, JgVal v, uint32_t block)
{
    const JgValueInfo *vi = jg_value(g, v);
    return vi->kind == JG_VK_PARAM && vi->block == block;
}

/* Whether `b` only passes its parameters on to another local block, and no
 * other code of the method uses them. */
static bool forwards(const LgMethod *m, uint32_t b, const bool *used)
{
    const JgBlock *blk = &m->g->blocks.items[b];
    const JgTerm *t = &blk->term;
    if (b == m->lo || blk->ops.count || t->kind != JG_TERM_GOTO || t->nlinks != 1)
        return false;
    const JgLink *l = &t->links[0];
    if (!lg_internal(m, l->target) || l->target == b ||
        l->nargs != m->g->blocks.items[l->target].nparams)
        return false;
    for (uint32_t p = 0; p < blk->nparams; p++)
        if (used[blk->params[p]])
            return false;
    for (uint32_t a = 0; a < l->nargs; a++)
        if (!jg_is_const(m->g, l->args[a]) && !is_param_of(m->g, l->args[a], b))
            return false;
    return true;
}

/* fwd_args of `b`, whose goto leads to `next` (already resolved): the
 * arguments of the chain's end in terms of b's parameters and constants. */
static bool compose(LgMethod *m, uint32_t b)
{
    JgLink buf;
    const JgLink *l = lg_effective_link(m, &m->g->blocks.items[b].term.links[0], &buf);
    JgVal *args = l ? malloc(sizeof *args * (l->nargs ? l->nargs : 1)) : NULL;
    if (!args)
        return l ? lg_fail(m, "out of memory") : false;
    if (l->nargs) /* a link without arguments may have no array */
        memcpy(args, l->args, sizeof *args * l->nargs);
    m->fwd_target[b - m->lo] = l->target;
    m->fwd_args[b - m->lo] = args;
    return true;
}

/* Follows the chain from `b`; a chain that runs in a circle (an empty
 * infinite loop) keeps its last block. */
static bool resolve(LgMethod *m, uint32_t b, bool *candidate, uint8_t *state, uint32_t *path)
{
    uint32_t depth = 0, x = b;
    while (candidate[x - m->lo] && state[x - m->lo] == 0) {
        state[x - m->lo] = 1;
        path[depth++] = x;
        x = m->g->blocks.items[x].term.links[0].target;
    }
    if (candidate[x - m->lo] && state[x - m->lo] == 1) {
        /* x closes a circle: it stays a block, the others lead to it */
        candidate[x - m->lo] = false;
        state[x - m->lo] = 2;
    }
    while (depth--) {
        uint32_t y = path[depth];
        if (!candidate[y - m->lo])
            continue;
        if (!compose(m, y))
            return false;
        state[y - m->lo] = 2;
    }
    return true;
}

bool lg_find_forwarding(LgMethod *m)
{
    uint32_t n = m->hi - m->lo, nvals = m->g->values.count;
    bool *used = calloc(nvals ? nvals : 1, sizeof *used);
    bool *candidate = calloc(n, sizeof *candidate);
    uint8_t *state = calloc(n, sizeof *state);
    uint32_t *path = malloc(sizeof *path * n);
    m->fwd_target = malloc(sizeof *m->fwd_target * n);
    m->fwd_args = calloc(n, sizeof *m->fwd_args);
    bool ok = used && candidate && state && path && m->fwd_target && m->fwd_args;
    if (!ok)
        lg_fail(m, "out of memory");
    if (ok) {
        mark_uses(m, used);
        for (uint32_t i = 0; i < n; i++) {
            m->fwd_target[i] = NONE;
            candidate[i] = forwards(m, m->lo + i, used);
        }
        for (uint32_t i = 0; ok && i < n; i++)
            if (candidate[i] && state[i] == 0)
                ok = resolve(m, m->lo + i, candidate, state, path);
    }
    free(used);
    free(candidate);
    free(state);
    free(path);
    return ok;
}

void lg_free_forwarding(LgMethod *m)
{
    for (uint32_t i = 0; m->fwd_args && i < m->hi - m->lo; i++)
        free(m->fwd_args[i]);
    free(m->fwd_args);
    free(m->fwd_target);
}

uint32_t lg_final_target(const LgMethod *m, uint32_t target)
{
    if (!lg_internal(m, target) || !m->fwd_target || m->fwd_target[target - m->lo] == NONE)
        return target;
    return m->fwd_target[target - m->lo];
}

const JgLink *lg_effective_link(LgMethod *m, const JgLink *l, JgLink *buf)
{
    uint32_t final = lg_final_target(m, l->target);
    if (final == l->target)
        return l;
    const JgVal *through = m->fwd_args[l->target - m->lo];
    uint32_t nparams = m->g->blocks.items[final].nparams;
    if (nparams > m->scratch_cap) {
        JgVal *grown = realloc(m->scratch, sizeof *grown * nparams);
        if (!grown)
            return lg_fail(m, "out of memory"), NULL;
        m->scratch = grown;
        m->scratch_cap = nparams;
    }
    for (uint32_t a = 0; a < nparams; a++) {
        JgVal v = through[a];
        m->scratch[a] = is_param_of(m->g, v, l->target) && jg_value(m->g, v)->index < l->nargs
                            ? l->args[jg_value(m->g, v)->index]
                            : v;
    }
    *buf = (JgLink){.target = final, .nargs = nparams, .args = m->scratch};
    return buf;
}
