/* Cold entries (docs/backend.md, "Cold entries"). A dispatcher landing in
 * the middle of a loop makes the loop irreducible: LLVM's loop passes only
 * work on loops entered at one header. The partial evaluator makes many
 * blocks enterable just in case a later compilation jumps to them, and
 * such jumps are rare. So a secondary whose landings would enter a loop
 * anywhere but at its header is built twice: the method itself, whose
 * landings at those blocks call a copy of the method, and that copy (only
 * those landings and the blocks they reach, `optnone`: LLVM's optimizer
 * skips it), which runs until control leaves it exactly as the method
 * would, or until it reaches the landing where that loop begins, where it
 * leaves through the dispatcher into the method itself (cold_exit): a loop
 * taken over at a cold landing goes on in optimized code. */
#include <stdlib.h>

#include "internal.h"

/* The i-th successor of local block `b` as lowered (past forwarding
 * blocks), UINT32_MAX - 1 for one in another method, UINT32_MAX past the
 * last. */
static uint32_t successor(const LgMethod *m, uint32_t b, uint32_t i)
{
    const JgTerm *t = &m->g->blocks.items[b].term;
    if (!lg_has_successors(t) || i >= t->nlinks)
        return UINT32_MAX;
    uint32_t s = lg_final_target(m, t->links[i].target);
    return lg_internal(m, s) ? s : UINT32_MAX - 1;
}

typedef struct Frame {
    uint32_t block, next;
} Frame;

/* Strongly connected components of the reachable blocks (Tarjan, without
 * recursion): comp[local] is a component number, cyclic[comp] whether it
 * holds a cycle. */
static bool components(const LgMethod *m, uint32_t *comp, bool *cyclic)
{
    uint32_t n = m->hi - m->lo, counter = 0, ncomp = 0, sp = 0, depth = 0;
    uint32_t *index = malloc(sizeof *index * n), *low = malloc(sizeof *low * n);
    uint32_t *stack = malloc(sizeof *stack * n);
    bool *on = calloc(n, sizeof *on), *self_loop = calloc(n, sizeof *self_loop);
    Frame *frames = malloc(sizeof *frames * n);
    bool ok = index && low && stack && on && self_loop && frames;
    for (uint32_t i = 0; ok && i < n; i++)
        index[i] = UINT32_MAX;
    for (uint32_t r = 0; ok && r < m->norder; r++) {
        uint32_t root = m->order[r] - m->lo;
        if (index[root] != UINT32_MAX)
            continue;
        frames[depth++] = (Frame){root, 0};
        index[root] = low[root] = counter++;
        stack[sp++] = root;
        on[root] = true;
        while (depth) {
            Frame *f = &frames[depth - 1];
            uint32_t v = f->block;
            uint32_t s = successor(m, m->lo + v, f->next);
            if (s != UINT32_MAX) {
                f->next++;
                if (s == UINT32_MAX - 1)
                    continue;
                uint32_t w = s - m->lo;
                self_loop[v] = self_loop[v] || w == v;
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    on[w] = true;
                    frames[depth++] = (Frame){w, 0};
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            depth--;
            if (depth && low[v] < low[frames[depth - 1].block])
                low[frames[depth - 1].block] = low[v];
            if (low[v] != index[v])
                continue;
            uint32_t size = 0, w;
            bool loop = false;
            do {
                w = stack[--sp];
                on[w] = false;
                comp[w] = ncomp;
                loop = loop || self_loop[w];
                size++;
            } while (w != v);
            cyclic[ncomp++] = loop || size > 1;
        }
    }
    free(index);
    free(low);
    free(stack);
    free(on);
    free(self_loop);
    free(frames);
    return ok;
}

/* Marks m->cold: enterable blocks whose landing would enter a cycle of
 * blocks at another block than the one the method's own code enters it at
 * (or, for a cycle only landings reach, than the first such landing). A
 * cycle the method's own code enters at several blocks is irreducible
 * anyway and is left alone. */
static void mark_cold(LgMethod *m, const uint32_t *comp, const bool *cyclic)
{
    uint32_t n = m->hi - m->lo;
    uint32_t *entry = malloc(sizeof *entry * n); /* per component: its entry block, or: */
    enum { NONE = UINT32_MAX, MANY = UINT32_MAX - 1 };
    if (!entry)
        return;
    for (uint32_t c = 0; c < n; c++)
        entry[c] = NONE;
    if (cyclic[comp[0]]) /* the dispatcher enters the method's first block */
        entry[comp[0]] = m->lo;
    for (uint32_t i = 0; i < m->norder; i++) {
        uint32_t b = m->order[i];
        for (uint32_t l = 0;; l++) {
            uint32_t s = successor(m, b, l);
            if (s == UINT32_MAX)
                break;
            if (s == UINT32_MAX - 1)
                continue;
            uint32_t c = comp[s - m->lo];
            if (c == comp[b - m->lo] || !cyclic[c])
                continue;
            entry[c] = entry[c] == NONE || entry[c] == s ? s : MANY;
        }
    }
    for (uint32_t b = m->lo; b < m->hi; b++) {
        if (!m->lg->blocks[b].enterable || b == m->lo)
            continue;
        uint32_t t = lg_final_target(m, b);
        if (!cyclic[comp[t - m->lo]])
            continue;
        uint32_t c = comp[t - m->lo];
        if (entry[c] == NONE)
            entry[c] = t; /* the first landing in a cycle nothing else enters */
        m->cold[b - m->lo] = entry[c] != MANY && entry[c] != t;
        m->ncold += m->cold[b - m->lo];
    }
    /* the loops cold landings enter: where their entry is a landing of its
     * own (not cold), the clone leaves there, and the trip that began at a
     * cold landing goes on in the optimized loop; otherwise (the method's
     * own code enters the loop) the clone runs it */
    for (uint32_t b = m->lo; b < m->hi; b++) {
        if (!m->cold[b - m->lo])
            continue;
        uint32_t e = entry[comp[lg_final_target(m, b) - m->lo]];
        if (e < m->hi && e != m->lo && m->lg->blocks[e].enterable && !m->cold[e - m->lo])
            m->cold_exit[e - m->lo] = true;
    }
    free(entry);
}

bool lg_find_cold_entries(LgMethod *m)
{
    uint32_t n = m->hi - m->lo;
    m->cold = calloc(n, sizeof *m->cold);
    m->ncold = 0;
    if (!m->cold)
        return lg_fail(m, "out of memory");
    if (m->primary || m->clone)
        return true;
    m->cold_exit = calloc(n, sizeof *m->cold_exit);
    if (!m->cold_exit)
        return lg_fail(m, "out of memory");
    uint32_t *comp = calloc(n, sizeof *comp);
    bool *cyclic = calloc(n, sizeof *cyclic);
    bool ok = comp && cyclic && components(m, comp, cyclic);
    if (ok)
        mark_cold(m, comp, cyclic);
    free(comp);
    free(cyclic);
    return ok ? true : lg_fail(m, "out of memory");
}
