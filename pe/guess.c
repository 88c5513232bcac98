/* Guesses. A host's call into the middle of a loop (an interpreter handing
 * over its frame) brings the frame's values in the host array
 * (JgPeOptions.host_array), where every integer is unknown to the
 * specialization: a number the program set before the loop and never
 * changes (a modulus, a bound) is a constant in the graph specialized from
 * the frame's start and a variable in this one, and every operation on it
 * stays (a division tests its divisor and divides).
 *
 * So the graph is first specialized without assumptions, noting the
 * residual values the loads of the array's integers gave; an integer that
 * a loop of that graph keeps and no block parameter mixes with another
 * value (no loop changes it, no branch replaces it) is invariant. (A loop
 * that goes on through a flexswitch, a send's class say, is not closed
 * yet and shows nothing: its integers are not assumed.) If there is one, that
 * graph is dropped and the specialization starts again behind one guard in
 * the entry block: a flexswitch on whether each invariant integer still
 * holds its value now. Its case 1 assumes them (constants from the start,
 * as the graph from the frame's start has them) and is compiled at once;
 * a later call with other values compiles case 0, without assumptions,
 * once. A loop counter or an accumulator is never assumed: specializing on
 * its value now would only peel a trip of the loop and, for nested loops,
 * compile an inner loop once for the outer loop's current values. */
#include <stdlib.h>
#include <string.h>

#include "pe_internal.h"

bool guess_probe_start(JgPe *pe)
{
    const JgArgShapes *shapes = pe->host_array_shapes;
    pe->probing = false;
    pe->nprobes = 0;
    if (!shapes || pe->options.no_host_guesses)
        return false;
    int64_t offset;
    for (uint32_t j = 0; j < PE_HOST_ARRAY_MAX; j++)
        if (value_args_host_word(shapes, j, &offset)) {
            pe->probing = true;
            return true;
        }
    return false;
}

void guess_probe(JgPe *pe, uint32_t slot, JgVal word)
{
    uint32_t max = sizeof pe->probes / sizeof pe->probes[0];
    if (pe->probing && pe->nprobes < max)
        pe->probes[pe->nprobes++] = (struct GuessProbe){slot, word};
}

enum { ORIGIN_UNSET = 0xffff, ORIGIN_MIXED = 0xfffe };

/* Whether block `from` of `g` reaches itself again along links: a loop. */
static bool on_cycle(const JgGraph *g, uint32_t from, uint8_t *seen, uint32_t *stack)
{
    memset(seen, 0, g->blocks.count);
    uint32_t top = 0;
    stack[top++] = from;
    while (top) {
        const JgTerm *t = &g->blocks.items[stack[--top]].term;
        for (uint32_t l = 0; l < t->nlinks; l++) {
            uint32_t to = t->links[l].target;
            if (to == from)
                return true;
            if (to < g->blocks.count && !seen[to]) {
                seen[to] = 1;
                stack[top++] = to;
            }
        }
    }
    return false;
}

/* The most blocks searched for a loop per specialization (on_cycle). */
enum { GUESS_MAX_SEARCHES = 64 };

/* Per host array element, whether the parameter of a loop's block of `g`
 * keeps its word (`kept`): every value it receives, around the loop too,
 * is that word. A loop the graph does not close yet (it goes on through a
 * flexswitch's case, compiled when first taken) shows nothing. */
static bool find_kept(const JgGraph *g, const uint16_t *origin, bool *kept)
{
    uint32_t n = g->blocks.count, searches = 0;
    uint8_t *seen = malloc(n + 1);
    uint32_t *stack = malloc(sizeof *stack * (n + 1));
    if (!seen || !stack) {
        free(seen);
        free(stack);
        return false;
    }
    for (uint32_t b = 0; b < n && searches < GUESS_MAX_SEARCHES; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        bool candidate = false;
        for (uint32_t i = 0; i < blk->nparams; i++) {
            uint16_t o = origin[blk->params[i]];
            candidate |= o < PE_HOST_ARRAY_MAX && !kept[o];
        }
        if (!candidate)
            continue;
        searches++;
        if (!on_cycle(g, b, seen, stack))
            continue;
        for (uint32_t i = 0; i < blk->nparams; i++)
            if (origin[blk->params[i]] < PE_HOST_ARRAY_MAX)
                kept[origin[blk->params[i]]] = true;
    }
    free(seen);
    free(stack);
    return true;
}

/* Per host array element, whether some block parameter of `g` receives its
 * word and something else (`changed`), and whether a loop keeps it
 * (`kept`): an optimistic forward pass over the links, each parameter's
 * origin the one element all its incoming values come from. */
static bool find_invariants(const JgPe *pe, const JgGraph *g, bool *changed, bool *kept)
{
    uint32_t nvalues = g->values.count;
    uint16_t *origin = malloc(sizeof *origin * (nvalues + 1));
    if (!origin)
        return false;
    for (uint32_t v = 0; v < nvalues; v++) {
        const JgValueInfo *info = &g->values.items[v];
        origin[v] = info->kind == JG_VK_PARAM ? ORIGIN_UNSET : ORIGIN_MIXED;
    }
    for (uint32_t k = 0; k < pe->nprobes; k++)
        if (pe->probes[k].word < nvalues)
            origin[pe->probes[k].word] = (uint16_t)pe->probes[k].slot;
    for (bool again = true; again;) {
        again = false;
        for (uint32_t b = 0; b < g->blocks.count; b++) {
            const JgTerm *t = &g->blocks.items[b].term;
            for (uint32_t l = 0; l < t->nlinks; l++) {
                const JgLink *link = &t->links[l];
                if (link->target >= g->blocks.count)
                    continue;
                const JgBlock *to = &g->blocks.items[link->target];
                for (uint32_t i = 0; i < link->nargs && i < to->nparams; i++) {
                    uint16_t from = origin[link->args[i]];
                    uint16_t *at = &origin[to->params[i]];
                    if (from == ORIGIN_UNSET || from == *at)
                        continue;
                    if (from < PE_HOST_ARRAY_MAX && *at != ORIGIN_UNSET)
                        changed[from] = true;
                    if (*at < PE_HOST_ARRAY_MAX)
                        changed[*at] = true;
                    uint16_t now = *at == ORIGIN_UNSET ? from : ORIGIN_MIXED;
                    again |= now != *at;
                    *at = now;
                }
            }
        }
    }
    bool ok = find_kept(g, origin, kept);
    free(origin);
    return ok;
}

const HostGuess *guess_make(JgPe *pe, const uint64_t *args)
{
    pe->probing = false;
    const JgArgShapes *shapes = pe->host_array_shapes;
    if (!shapes || !pe->nprobes)
        return NULL;
    bool changed[PE_HOST_ARRAY_MAX] = {false}, kept[PE_HOST_ARRAY_MAX] = {false};
    if (!find_invariants(pe, pe->rg, changed, kept))
        return NULL;
    const char *const *objects = (const char *const *)(uintptr_t)args[pe->options.host_array_param];
    HostGuess g = {0};
    for (uint32_t k = 0; k < pe->nprobes && g.n < PE_HOST_GUESS_MAX; k++) {
        uint32_t j = pe->probes[k].slot;
        int64_t offset;
        bool seen = false;
        for (uint32_t i = 0; i < g.n; i++)
            seen |= g.slot[i] == j;
        if (seen || j >= PE_HOST_ARRAY_MAX || changed[j] || !kept[j] ||
            !value_args_host_word(shapes, j, &offset))
            continue;
        g.slot[g.n] = j;
        g.word_offset[g.n] = offset;
        memcpy(&g.word[g.n], objects[j] + offset, sizeof g.word[g.n]);
        g.n++;
    }
    if (!g.n)
        return NULL;
    HostGuess *made = jg_arena_alloc(pe->rg->arena, sizeof *made);
    *made = g;
    return made;
}

JgVal guess_holds(JgPe *pe, uint32_t block, JgVal host, const HostGuess *g)
{
    JgVal all = 0;
    for (uint32_t k = 0; k < g->n; k++) {
        JgVal at = emit_pointer_plus(pe, block, host, (int64_t)g->slot[k] * 8);
        JgVal object = emit_op(pe, block, JG_OP_LOAD, JG_PTR, 1, &at);
        JgVal field = emit_pointer_plus(pe, block, object, g->word_offset[k]);
        JgVal cmp[2] = {emit_op(pe, block, JG_OP_LOAD, JG_I64, 1, &field),
                        emit_const(pe, JG_I64, g->word[k])};
        JgVal same = emit_op(pe, block, JG_OP_ICMP, JG_I1, 2, cmp);
        jg_last_op(pe->rg, block)->pred = JG_EQ;
        JgVal both[2] = {all, same};
        all = all ? emit_op(pe, block, JG_OP_AND, JG_I1, 2, both) : same;
    }
    return all;
}
