/* Graphviz of residual graphs: one cluster per method (the blocks of one
 * compilation), solid edges for internal links, dashed for external links
 * (through the dispatchers), flexswitch cases labelled with their values. */
#include "dot.h"

#include <inttypes.h>

static uint32_t method_of(const JgResidual *r, uint32_t block)
{
    uint32_t m = 0;
    for (uint32_t i = 0; i < r->compilation_starts.count; i++)
        if (r->compilation_starts.items[i] <= block)
            m = i;
    return m;
}

static void write_block(FILE *out, const JgResidual *r, uint32_t b)
{
    const JgBlock *blk = &r->graph->blocks.items[b];
    const char *term = "";
    switch (blk->term.kind) {
    case JG_TERM_RETURN:
        term = "return";
        break;
    case JG_TERM_FLEXSWITCH:
        term = "flexswitch";
        break;
    case JG_TERM_BRANCH:
        term = "branch";
        break;
    case JG_TERM_SWITCH:
        term = "switch";
        break;
    case JG_TERM_UNREACHABLE:
        term = "unreachable";
        break;
    default:
        break;
    }
    fprintf(out, "    b%" PRIu32 " [label=\"block%" PRIu32 "%s\\n%u ops %s\"%s];\n", b, b,
            (blk->flags & JG_BLOCK_ENTRY) ? " [entry]" : "", blk->ops.count, term,
            blk->term.kind == JG_TERM_FLEXSWITCH ? " shape=diamond" : "");
}

static void write_residual(FILE *out, const JgResidual *r, unsigned index)
{
    const JgGraph *g = r->graph;
    fprintf(out, "  subgraph cluster_g%u {\n    label=\"%s\";\n", index, g->name);
    for (uint32_t m = 0; m < r->compilation_starts.count; m++) {
        uint32_t start = r->compilation_starts.items[m];
        uint32_t end = m + 1 < r->compilation_starts.count ? r->compilation_starts.items[m + 1]
                                                           : g->blocks.count;
        fprintf(out,
                "  subgraph cluster_g%u_m%" PRIu32 " {\n    label=\"%s method %" PRIu32 "\";\n",
                index, m, m == 0 ? "primary" : "secondary", m);
        for (uint32_t b = start; b < end; b++)
            write_block(out, r, b);
        fprintf(out, "  }\n");
    }
    fprintf(out, "  }\n");
    for (uint32_t b = 0; b < g->blocks.count; b++) {
        const JgTerm *t = &g->blocks.items[b].term;
        for (uint32_t l = 0; l < t->nlinks; l++) {
            uint32_t to = t->links[l].target;
            if (to == UINT32_MAX)
                continue;
            bool external = method_of(r, b) != method_of(r, to);
            fprintf(out, "  b%" PRIu32 " -> b%" PRIu32 " [", b, to);
            if (external)
                fprintf(out, "style=dashed color=red ");
            if (t->kind == JG_TERM_FLEXSWITCH && l > 0)
                fprintf(out, "label=\"case 0x%" PRIx64 "\"", (uint64_t)t->cases[l - 1]);
            fprintf(out, "];\n");
        }
    }
}

bool jg_write_dot(const char *path, const JgPe *pe)
{
    FILE *out = fopen(path, "w");
    if (!out)
        return false;
    fprintf(out, "digraph residual {\n  node [shape=box fontname=monospace];\n");
    unsigned i = 0;
    for (const JgResidual *r = jg_pe_residuals(pe); r; r = r->next)
        write_residual(out, r, i++);
    fprintf(out, "}\n");
    return fclose(out) == 0;
}
