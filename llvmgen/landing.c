/* Whether a dispatcher may land in a block of a method that it was not
 * built to enter. Residual graphs are in ordinary SSA: a block may use a
 * value of a block that dominates it, and a block reached only through its
 * predecessor (the branch successors the partial evaluator makes) has no
 * parameters at all. A landing there would reach those uses without their
 * definitions ("Instruction does not dominate all uses"). A landing is safe
 * when nothing is live into the block but its parameters, which the
 * dispatcher fills: then every value used from there on is defined on the
 * way. Liveness is computed over the blocks of [lo, hi) the block reaches
 * (links out of the method pass their values explicitly). */
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* A bitset of the graph's values per reached block past this many bytes
 * is not computed: such a landing counts as unsafe. */
#define LANDING_MAX_BYTES (64u << 20)

static bool flows(const JgTerm *t)
{
    return t->kind == JG_TERM_GOTO || t->kind == JG_TERM_BRANCH || t->kind == JG_TERM_SWITCH;
}

static void set_use(const JgGraph *g, uint64_t *live, JgVal v)
{
    if (v && v < g->values.count && g->values.items[v].kind != JG_VK_CONST)
        live[v / 64] |= 1ull << (v % 64);
}

static void clear_def(uint64_t *live, JgVal v)
{
    live[v / 64] &= ~(1ull << (v % 64));
}

/* live = what block b uses before defining, given `out` (what its
 * successors need, their parameters removed). */
static void block_live_in(const JgGraph *g, uint32_t b, const uint64_t *out, uint64_t *live,
                          uint32_t words)
{
    const JgBlock *blk = &g->blocks.items[b];
    memcpy(live, out, sizeof *live * words);
    const JgTerm *t = &blk->term;
    set_use(g, live, t->value);
    if (t->kind == JG_TERM_FLEXSWITCH && t->flex) {
        const JgFlexswitch *fs = t->flex;
        set_use(g, live, fs->value);
        for (uint32_t i = 0; i < fs->nlive; i++)
            set_use(g, live, fs->live[i]);
    }
    for (uint32_t l = 0; flows(t) && l < t->nlinks; l++)
        for (uint32_t a = 0; a < t->links[l].nargs; a++)
            set_use(g, live, t->links[l].args[a]);
    for (uint32_t i = blk->ops.count; i-- > 0;) {
        const JgOp *op = &blk->ops.items[i];
        if (op->result)
            clear_def(live, op->result);
        for (uint32_t a = 0; a < op->nargs; a++)
            set_use(g, live, op->args[a]);
    }
    for (uint32_t p = 0; p < blk->nparams; p++)
        clear_def(live, blk->params[p]);
}

bool lg_safe_landing(const JgGraph *g, uint32_t lo, uint32_t hi, uint32_t block)
{
    if (block < lo || block >= hi)
        return false;
    uint32_t n = hi - lo, words = (g->values.count + 63) / 64;
    /* the blocks `block` reaches, in the order found */
    uint32_t *order = malloc(sizeof *order * n);
    uint32_t *slot = malloc(sizeof *slot * n);
    if (!order || !slot) {
        free(order);
        free(slot);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        slot[i] = UINT32_MAX;
    uint32_t count = 0;
    slot[block - lo] = count;
    order[count++] = block;
    for (uint32_t i = 0; i < count; i++) {
        const JgTerm *t = &g->blocks.items[order[i]].term;
        for (uint32_t l = 0; flows(t) && l < t->nlinks; l++) {
            uint32_t s = t->links[l].target;
            if (s >= lo && s < hi && slot[s - lo] == UINT32_MAX) {
                slot[s - lo] = count;
                order[count++] = s;
            }
        }
    }
    bool safe = false;
    uint64_t *in = NULL, *out = NULL;
    if ((uint64_t)count * words * sizeof *in <= LANDING_MAX_BYTES) {
        in = calloc((size_t)count * words, sizeof *in);
        out = malloc(sizeof *out * words);
    }
    if (in && out) {
        /* backwards to a fixpoint: live_in(x) grows only */
        for (bool changed = true; changed;) {
            changed = false;
            for (uint32_t i = count; i-- > 0;) {
                uint32_t b = order[i];
                const JgTerm *t = &g->blocks.items[b].term;
                memset(out, 0, sizeof *out * words);
                for (uint32_t l = 0; flows(t) && l < t->nlinks; l++) {
                    uint32_t s = t->links[l].target;
                    if (s < lo || s >= hi)
                        continue;
                    const uint64_t *sin = &in[(size_t)slot[s - lo] * words];
                    for (uint32_t w = 0; w < words; w++)
                        out[w] |= sin[w];
                }
                uint64_t *mine = &in[(size_t)i * words];
                uint64_t now[words];
                block_live_in(g, b, out, now, words);
                for (uint32_t w = 0; w < words; w++)
                    if ((now[w] | mine[w]) != mine[w]) {
                        mine[w] |= now[w];
                        changed = true;
                    }
            }
        }
        safe = true;
        for (uint32_t w = 0; w < words && safe; w++)
            safe = in[w] == 0; /* order[0] is `block` */
    }
    free(in);
    free(out);
    free(order);
    free(slot);
    return safe;
}
