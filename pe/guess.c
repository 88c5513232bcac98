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
 * yet and shows nothing: its integers are not assumed.) If there is one
 * the graph uses otherwise than as a divisor (divisors alone get likely
 * divisors, guess_divisors, and no second specialization), that
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

static uint16_t *find_origins(const JgGraph *g, const struct GuessProbe *probes, uint32_t nprobes,
                              bool *changed);

static void find_divisors(const JgGraph *g, const uint16_t *origin, bool *divisor);

/* Per host array element, whether some block parameter of `g` receives its
 * word and something else (`changed`), whether a loop keeps it (`kept`),
 * and whether a division of `g` divides by it (`divisor`). */
static bool find_invariants(const JgPe *pe, const JgGraph *g, bool *changed, bool *kept,
                            bool *divisor)
{
    uint16_t *origin = find_origins(g, pe->probes, pe->nprobes, changed);
    if (!origin)
        return false;
    bool ok = find_kept(g, origin, kept);
    find_divisors(g, origin, divisor);
    free(origin);
    return ok;
}

/* Per value of `g`, the one host array element all its incoming values come
 * from (ORIGIN_MIXED: none; the caller frees it), and per element whether
 * some block parameter receives its word and something else (`changed`):
 * an optimistic forward pass over the links, from the probes' loads. */
static uint16_t *find_origins(const JgGraph *g, const struct GuessProbe *probes, uint32_t nprobes,
                              bool *changed)
{
    uint32_t nvalues = g->values.count;
    uint16_t *origin = malloc(sizeof *origin * (nvalues + 1));
    if (!origin)
        return NULL;
    for (uint32_t v = 0; v < nvalues; v++) {
        const JgValueInfo *info = &g->values.items[v];
        origin[v] = info->kind == JG_VK_PARAM ? ORIGIN_UNSET : ORIGIN_MIXED;
    }
    for (uint32_t k = 0; k < nprobes; k++)
        if (probes[k].word < nvalues)
            origin[probes[k].word] = (uint16_t)probes[k].slot;
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
    return origin;
}

/* Into `g`: the word each probed element of `args`' host array holds now,
 * once per element, but those `skip` names (NULL: none). */
static void host_words_now(const JgPe *pe, const uint64_t *args, const bool *skip, HostGuess *g)
{
    const JgArgShapes *shapes = pe->host_array_shapes;
    const char *const *objects = (const char *const *)(uintptr_t)args[pe->options.host_array_param];
    for (uint32_t k = 0; k < pe->nprobes && g->n < PE_HOST_GUESS_MAX; k++) {
        uint32_t j = pe->probes[k].slot;
        int64_t offset;
        bool seen = false;
        for (uint32_t i = 0; i < g->n; i++)
            seen |= g->slot[i] == j;
        if (seen || j >= PE_HOST_ARRAY_MAX || (skip && skip[j]) ||
            !value_args_host_word(shapes, j, &offset))
            continue;
        g->slot[g->n] = j;
        g->word_offset[g->n] = offset;
        memcpy(&g->word[g->n], objects[j] + offset, sizeof g->word[g->n]);
        g->n++;
    }
}

const HostGuess *guess_make(JgPe *pe, const uint64_t *args)
{
    pe->probing = false;
    const JgArgShapes *shapes = pe->host_array_shapes;
    if (!shapes || !pe->nprobes)
        return NULL;
    bool changed[PE_HOST_ARRAY_MAX] = {false}, kept[PE_HOST_ARRAY_MAX] = {false},
         divisor[PE_HOST_ARRAY_MAX] = {false};
    if (!find_invariants(pe, pe->rg, changed, kept, divisor))
        return NULL;
    bool skip[PE_HOST_ARRAY_MAX], beyond_division = false;
    for (uint32_t j = 0; j < PE_HOST_ARRAY_MAX; j++) {
        skip[j] = changed[j] || !kept[j];
        beyond_division |= !skip[j] && !divisor[j];
    }
    /* divisors alone: likely divisors (guess_divisors) stand in for them
     * in this graph, without a second specialization */
    if (!beyond_division && !pe->options.no_likely_divisors)
        return NULL;
    HostGuess g = {0};
    host_words_now(pe, args, skip, &g);
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

/* ---- guesses once a loop closes ---- */

/* Loops closed by compilations of a graph that guess_late looks at before
 * it gives up (each look walks the graph once). */
enum { GUESS_LATE_TRIES = 8 };

/* What a host's call specialized without assumptions keeps for
 * guess_late: the probe's loads, and the integers of the host array then. */
typedef struct LateGuess {
    uint32_t nprobes;
    struct GuessProbe probes[64];
    HostGuess words;
    unsigned tries_left;
} LateGuess;

void guess_arm(JgPe *pe, const uint64_t *args)
{
    const JgArgShapes *shapes = pe->host_array_shapes;
    PeResidualData *rd = pe->current->pe_private; /* none: the graph has no merge point */
    if (!shapes || !pe->nprobes || !rd || pe->options.no_host_guesses)
        return;
    LateGuess *lg = jg_arena_alloc(pe->rg->arena, sizeof *lg);
    memset(lg, 0, sizeof *lg);
    lg->nprobes = pe->nprobes;
    memcpy(lg->probes, pe->probes, sizeof pe->probes[0] * pe->nprobes);
    host_words_now(pe, args, NULL, &lg->words);
    lg->tries_left = GUESS_LATE_TRIES;
    if (!lg->words.n)
        return;
    rd->hand_over = lg;
    rd->late = pe->options.late_guesses ? lg : NULL;
}

/* The word `lg` saw in host array element `slot` (an origin), if any. */
static bool late_word(const LateGuess *lg, uint16_t slot, uint64_t *word)
{
    for (uint32_t i = 0; i < lg->words.n; i++)
        if (lg->words.slot[i] == slot) {
            *word = lg->words.word[i];
            return true;
        }
    return false;
}

/* Whether parameter `p` of a loop's header receives the word of element
 * origin[p] and nothing else, no parameter mixes that word with another
 * value, and `lg` saw it (*word). */
static bool late_assumable(const LateGuess *lg, const uint16_t *origin, const bool *changed,
                           JgVal p, uint64_t *word)
{
    uint16_t o = origin[p];
    return o < PE_HOST_ARRAY_MAX && !changed[o] && late_word(lg, o, word);
}

/* Per host array element, whether a division of `g` divides by its word.
 * The loop is specialized a second time for a guess made late, which pays
 * where the word is a divisor: by a variable, a division tests for 0 and
 * -1 and divides; by a constant, it multiplies. */
static void find_divisors(const JgGraph *g, const uint16_t *origin, bool *divisor)
{
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        for (uint32_t o = 0; o < blk->ops.count; o++) {
            const JgOp *op = &blk->ops.items[o];
            bool divides = op->opcode == JG_OP_SDIV || op->opcode == JG_OP_UDIV ||
                           op->opcode == JG_OP_SREM || op->opcode == JG_OP_UREM;
            if (divides && op->nargs == 2 && origin[op->args[1]] < PE_HOST_ARRAY_MAX)
                divisor[origin[op->args[1]]] = true;
        }
    }
}

/* The header of merge entry `e` once more, from e's state with the
 * assumable parameters as their words, into a new block of this
 * compilation, entered by a guard on them from the links of blocks
 * [first, end) that entered it. If that specialization ends in an exit,
 * no link leads to it and the header is entered as before. */
static void specialize_on_words(JgPe *pe, uint32_t first, uint32_t end, const MergeEntry *e,
                                const LateGuess *lg, const uint16_t *origin, const bool *changed)
{
    JgGraph *g = pe->rg;
    uint32_t h = e->block;
    uint32_t np = g->blocks.items[h].nparams;
    JgVal from[np + 1];
    Av to[np + 1];
    uint32_t vb = jg_block_new(g, 0, NULL);
    /* entered from later compilations too, which find it before `h` */
    g->blocks.items[vb].flags |= JG_BLOCK_ENTRY;
    pe->stats.residual_blocks++;
    unsigned assumed = 0;
    for (uint32_t i = 0; i < np; i++) {
        JgVal p = g->blocks.items[h].params[i];
        JgType t = jg_value_type(g, p);
        uint64_t word;
        from[i] = p;
        if (late_assumable(lg, origin, changed, p, &word)) {
            to[i] = av_const(t, word);
            assumed++;
        } else {
            to[i] = av_var(t, jg_block_add_param(g, vb, t));
        }
    }
    State *s = state_fork(pe, e->shape);
    state_rename(pe, s, np, from, to);
    for (uint32_t i = 0; i < np; i++)
        if (s->host_array == from[i])
            s->host_array = to[i].kind == AV_VAR ? to[i].var : 0;
    s->forked = false;
    s->on_words = true;
    s->history = NULL; /* where the words were variables, merges would generalize them */
    merge_add_variant(pe, e, vb, s);
    uint64_t exits = pe->stats.exits;
    if (!pe_compile_from(pe, vb, s) || pe->stats.exits != exits) {
        merge_forget_from(pe, vb);
        return;
    }
    uint32_t gb = jg_block_new(g, 0, NULL);
    pe->stats.residual_blocks++;
    JgVal params[np + 1], pass[np + 1], all = 0;
    uint32_t npass = 0;
    for (uint32_t i = 0; i < np; i++) {
        params[i] = jg_block_add_param(g, gb, jg_value_type(g, from[i]));
        if (to[i].kind == AV_VAR) {
            pass[npass++] = params[i];
            continue;
        }
        JgVal cmp[2] = {params[i], emit_const(pe, (JgType)to[i].type, to[i].bits)};
        JgVal same = emit_op(pe, gb, JG_OP_ICMP, JG_I1, 2, cmp);
        jg_last_op(g, gb)->pred = JG_EQ;
        JgVal both[2] = {all, same};
        all = all ? emit_op(pe, gb, JG_OP_AND, JG_I1, 2, both) : same;
    }
    jg_set_branch(g, gb, all, jg_link(g, vb, npass, pass), jg_link(g, h, np, params));
    for (uint32_t b = first; b < end; b++) {
        JgTerm *t = &g->blocks.items[b].term;
        if (t->kind == JG_TERM_FLEXSWITCH)
            continue;
        for (uint32_t l = 0; l < t->nlinks; l++)
            if (t->links[l].target == h)
                t->links[l].target = gb;
    }
    pe->stats.late_guesses += assumed;
}

void guess_late(JgPe *pe, uint32_t first)
{
    PeResidualData *rd = pe->current->pe_private;
    LateGuess *lg = rd ? rd->late : NULL;
    if (!lg || !pe->closed)
        return;
    if (--lg->tries_left == 0)
        rd->late = NULL;
    JgGraph *g = pe->rg;
    uint32_t end = g->blocks.count;
    bool changed[PE_HOST_ARRAY_MAX] = {false}, divisor[PE_HOST_ARRAY_MAX] = {false};
    uint16_t *origin = find_origins(g, lg->probes, lg->nprobes, changed);
    if (!origin)
        return;
    /* the header of the loop this compilation closed, with a parameter to
     * assume that the graph divides by */
    const MergeEntry *entry = pe->closed;
    const JgBlock *h = &g->blocks.items[entry->block];
    find_divisors(g, origin, divisor);
    bool any = false;
    for (uint32_t i = 0; i < h->nparams && !any; i++) {
        uint64_t word;
        any = late_assumable(lg, origin, changed, h->params[i], &word) &&
              divisor[origin[h->params[i]]];
    }
    uint8_t *seen = any ? malloc(end + 1) : NULL;
    uint32_t *stack = any ? malloc(sizeof *stack * (end + 1)) : NULL;
    if (seen && stack && on_cycle(g, entry->block, seen, stack)) {
        rd->late = NULL; /* once per graph */
        specialize_on_words(pe, first, end, entry, lg, origin, changed);
    }
    free(seen);
    free(stack);
    free(origin);
}

/* ---- likely divisors ---- */

/* A signed 64-bit division by a variable, not marked yet. */
static bool variable_division(const JgGraph *g, const JgOp *op)
{
    return (op->opcode == JG_OP_SDIV || op->opcode == JG_OP_SREM) && op->nargs == 2 &&
           op->type == JG_I64 && !op->likely && jg_value(g, op->args[1])->kind != JG_VK_CONST;
}

/* Divisions of blocks [first, end) of the graph that divide by an integer
 * of the host array, which the graph did not assume (its loop goes on
 * through flexswitch cases, so the hand-over saw no closed loop), and by
 * nothing else on any path (the origin analysis of guess_late), are marked with
 * the word the host's call brought (JgOp.likely): a backend tests the
 * divisor against it and divides by a constant where it holds, a
 * multiplication in place of an idiv whose latency is on the loop's chain
 * when the quotient feeds the next trip (a checksum's modulus). No second
 * specialization: the graph is the same, one compare and branch more. */
void guess_divisors(JgPe *pe, uint32_t first)
{
    PeResidualData *rd = pe->current->pe_private;
    const LateGuess *lg = rd ? rd->hand_over : NULL;
    if (!lg || pe->options.no_likely_divisors)
        return;
    JgGraph *g = pe->rg;
    bool any = false;
    for (uint32_t b = first; b < g->blocks.count && !any; b++) {
        const JgBlock *blk = &g->blocks.items[b];
        for (uint32_t o = 0; o < blk->ops.count && !any; o++)
            any = variable_division(g, &blk->ops.items[o]);
    }
    if (!any)
        return;
    bool changed[PE_HOST_ARRAY_MAX] = {false};
    uint16_t *origin = find_origins(g, lg->probes, lg->nprobes, changed);
    if (!origin)
        return;
    for (uint32_t b = first; b < g->blocks.count; b++) {
        for (uint32_t o = 0; o < g->blocks.items[b].ops.count; o++) {
            const JgOp *op = &g->blocks.items[b].ops.items[o];
            uint64_t word;
            if (!variable_division(g, op) || !late_word(lg, origin[op->args[1]], &word) ||
                word == 0)
                continue;
            JgVal likely = emit_const(pe, JG_I64, word);
            /* emit_const may grow the value table, never the blocks */
            g->blocks.items[b].ops.items[o].likely = likely;
            pe->stats.likely_divisors++;
        }
    }
    free(origin);
}
