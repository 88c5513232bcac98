/* The graph printer (docs/graph-tools.md): one deterministic text form for
 * interpreter graphs and residual graphs, used by `--dump=graphs`, residual
 * dumps and tests. Values print as vN (index in the graph's value table),
 * constants inline, blocks as blockN(params), links as blockN(args). */
#include "ir.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Column at which a "; line N" comment starts (when the text is shorter). */
#define COMMENT_COLUMN 48

/* A FILE plus the current column, so that line comments can be aligned. */
typedef struct Printer {
    FILE *out;
    const JgGraph *g;
    JgValueAnnotator annotate;
    void *ctx;
    int column;
} Printer;

static void pr(Printer *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void pr(Printer *p, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(p->out, fmt, ap);
    va_end(ap);
    if (n > 0)
        p->column += n;
}

static void newline(Printer *p)
{
    fputc('\n', p->out);
    p->column = 0;
}

static void line_comment(Printer *p, uint32_t line)
{
    if (!line)
        return;
    pr(p, "%*s; line %" PRIu32, p->column < COMMENT_COLUMN ? COMMENT_COLUMN - p->column : 1, "",
       line);
}

/* Shortest "%.*g" text that reads back as exactly `d`; always recognisable
 * as a float (".0" is added to integral values). */
static void format_double(char *buf, size_t size, double d, bool single)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, size, "%.*g", prec, d);
        double back = strtod(buf, NULL);
        if (single ? (float)back == (float)d : back == d)
            break;
    }
    if (!strpbrk(buf, ".eEni") && strlen(buf) + 3 <= size)
        strcat(buf, ".0");
}

static void print_const(Printer *p, const JgValueInfo *vi)
{
    JgType t = (JgType)vi->type;
    char buf[64];
    switch (t) {
    case JG_I1:
        pr(p, "%s", vi->bits & 1 ? "true" : "false");
        return;
    case JG_I8:
    case JG_I16:
    case JG_I32:
    case JG_I64:
        pr(p, "%" PRId64, jg_sign_extend(t, vi->bits));
        return;
    case JG_PTR:
        if (vi->symbol)
            pr(p, "@%s", vi->symbol);
        else if (vi->bits == 0)
            pr(p, "null");
        else
            pr(p, "0x%" PRIx64, vi->bits);
        return;
    case JG_F32: {
        uint32_t b32 = (uint32_t)vi->bits;
        float f;
        memcpy(&f, &b32, sizeof f);
        format_double(buf, sizeof buf, f, true);
        pr(p, "%s", buf);
        return;
    }
    case JG_F64: {
        double d;
        memcpy(&d, &vi->bits, sizeof d);
        format_double(buf, sizeof buf, d, false);
        pr(p, "%s", buf);
        return;
    }
    default:
        pr(p, "const?%" PRIu64, vi->bits);
        return;
    }
}

/* A use of a value: constants inline, everything else as vN. */
static void print_use(Printer *p, JgVal v)
{
    if (v == 0 || v >= p->g->values.count) {
        pr(p, "<bad v%" PRIu32 ">", v);
        return;
    }
    const JgValueInfo *vi = jg_value(p->g, v);
    if (vi->kind == JG_VK_CONST)
        print_const(p, vi);
    else
        pr(p, "v%" PRIu32, v);
}

/* A definition: vN, the annotator's suffix, and the type. */
static void print_def(Printer *p, JgVal v)
{
    pr(p, "v%" PRIu32, v);
    if (p->annotate) {
        const char *suffix = p->annotate(p->ctx, p->g, v);
        if (suffix)
            pr(p, "%s", suffix);
    }
    JgType t = v < p->g->values.count ? jg_value_type(p->g, v) : JG_VOID;
    pr(p, ": %s", jg_type_name(t));
}

static void print_args(Printer *p, uint32_t nargs, const JgVal *args)
{
    for (uint32_t i = 0; i < nargs; i++) {
        if (i)
            pr(p, ", ");
        print_use(p, args[i]);
    }
}

static void print_link(Printer *p, const JgLink *l)
{
    pr(p, "block%" PRIu32 "(", l->target);
    print_args(p, l->nargs, l->args);
    pr(p, ")");
}

static void print_call(Printer *p, const JgOp *op)
{
    pr(p, "call ");
    if (op->nargs == 0) {
        pr(p, "<no callee>()");
        return;
    }
    const JgValueInfo *fn = op->args[0] < p->g->values.count ? jg_value(p->g, op->args[0]) : NULL;
    bool named_const = fn && fn->kind == JG_VK_CONST && fn->symbol;
    if (op->callee && op->callee->name && !named_const)
        pr(p, "@%s", op->callee->name);
    else
        print_use(p, op->args[0]);
    pr(p, "(");
    print_args(p, op->nargs - 1, op->args + 1);
    pr(p, ")");
}

static void print_op(Printer *p, const JgOp *op)
{
    pr(p, "    ");
    if (op->result) {
        print_def(p, op->result);
        pr(p, " = ");
    }
    JgOpcode code = (JgOpcode)op->opcode;
    if (code == JG_OP_CALL) {
        print_call(p, op);
    } else {
        pr(p, "%s", jg_opcode_name(code));
        if (code == JG_OP_ICMP || code == JG_OP_FCMP)
            pr(p, " %s", jg_pred_name((JgPred)op->pred));
        if (code == JG_OP_ALLOCA)
            pr(p, " %" PRId64, op->imm);
        else if (code != JG_OP_ICMP && code != JG_OP_FCMP && (op->imm & JG_IMM_GROUPED))
            pr(p, " grouped");
        if (op->nargs) {
            pr(p, " ");
            print_args(p, op->nargs, op->args);
        }
        if (op->likely) {
            pr(p, ", likely ");
            print_use(p, op->likely);
        }
    }
    line_comment(p, op->line);
    newline(p);
}

/* A switch case value as the switched value's type shows it. */
static void print_case(Printer *p, JgType t, int64_t c)
{
    if (t == JG_PTR)
        pr(p, "0x%" PRIx64, (uint64_t)c);
    else if (jg_type_is_int(t))
        pr(p, "%" PRId64, jg_sign_extend(t, jg_truncate_bits(t, (uint64_t)c)));
    else
        pr(p, "%" PRId64, c);
}

static void print_switch(Printer *p, const JgTerm *t, const char *name)
{
    pr(p, "%s ", name);
    print_use(p, t->value);
    JgType vt = t->value && t->value < p->g->values.count ? jg_value_type(p->g, t->value) : JG_I64;
    pr(p, " [");
    for (uint32_t i = 1; i < t->nlinks; i++) {
        if (i > 1)
            pr(p, ", ");
        print_case(p, vt, t->cases ? t->cases[i - 1] : 0);
        pr(p, " -> ");
        print_link(p, &t->links[i]);
    }
    pr(p, "], default ");
    if (t->nlinks)
        print_link(p, &t->links[0]);
    else
        pr(p, "<none>");
}

static void print_term(Printer *p, const JgTerm *t)
{
    pr(p, "    ");
    switch ((JgTermKind)t->kind) {
    case JG_TERM_NONE:
        pr(p, "<no terminator>");
        break;
    case JG_TERM_GOTO:
        pr(p, "goto ");
        if (t->nlinks)
            print_link(p, &t->links[0]);
        break;
    case JG_TERM_BRANCH:
        pr(p, "branch ");
        print_use(p, t->value);
        for (uint32_t i = 0; i < t->nlinks; i++) {
            pr(p, ", ");
            print_link(p, &t->links[i]);
        }
        break;
    case JG_TERM_SWITCH:
        print_switch(p, t, "switch");
        break;
    case JG_TERM_FLEXSWITCH:
        print_switch(p, t, "flexswitch");
        break;
    case JG_TERM_RETURN:
        pr(p, "return");
        if (t->value) {
            pr(p, " ");
            print_use(p, t->value);
        }
        break;
    case JG_TERM_UNREACHABLE:
        pr(p, "unreachable");
        break;
    default:
        pr(p, "<terminator kind %u>", (unsigned)t->kind);
        break;
    }
    line_comment(p, t->line);
    newline(p);
}

static void print_block(Printer *p, uint32_t index)
{
    const JgBlock *b = &p->g->blocks.items[index];
    pr(p, "block%" PRIu32 "(", index);
    for (uint32_t i = 0; i < b->nparams; i++) {
        if (i)
            pr(p, ", ");
        print_def(p, b->params[i]);
    }
    pr(p, ")");
    if (b->flags & JG_BLOCK_ENTRY)
        pr(p, " [entry]");
    pr(p, ":");
    newline(p);
    for (unsigned i = 0; i < b->ops.count; i++)
        print_op(p, &b->ops.items[i]);
    print_term(p, &b->term);
}

static const char *const flag_names[] = {"elidable", "dont_look_inside", "allocator", "portal",
                                         "noreturn", "external",         "residual"};

static void print_flags(Printer *p, uint32_t flags)
{
    if (!flags)
        return;
    pr(p, "  [");
    bool first = true;
    for (unsigned i = 0; i < 32; i++) {
        if (!(flags & (1u << i)))
            continue;
        if (!first)
            pr(p, ", ");
        first = false;
        if (i < sizeof flag_names / sizeof flag_names[0])
            pr(p, "%s", flag_names[i]);
        else
            pr(p, "flag%u", i);
    }
    pr(p, "]");
}

/* The header names the entry block's parameters when the graph has a body,
 * only their types for declarations. */
static void print_header(Printer *p)
{
    const JgGraph *g = p->g;
    pr(p, "graph %s(", g->name ? g->name : "<anonymous>");
    bool body = !(g->flags & JG_FLAG_EXTERNAL) && g->blocks.count > 0 &&
                g->blocks.items[0].nparams == g->nparams;
    for (uint32_t i = 0; i < g->nparams; i++) {
        if (i)
            pr(p, ", ");
        if (body)
            pr(p, "v%" PRIu32 ": ", g->blocks.items[0].params[i]);
        pr(p, "%s", jg_type_name((JgType)g->param_types[i]));
    }
    if (g->variadic)
        pr(p, g->nparams ? ", ..." : "...");
    pr(p, ") -> %s", jg_type_name((JgType)g->ret_type));
    print_flags(p, g->flags);
    if (g->file)
        pr(p, "  ; %s:%" PRIu32, g->file, g->line);
    newline(p);
}

void jg_print_graph(FILE *out, const JgGraph *g, JgValueAnnotator annotate, void *ctx)
{
    Printer p = {.out = out, .g = g, .annotate = annotate, .ctx = ctx};
    print_header(&p);
    if (g->flags & JG_FLAG_EXTERNAL)
        return;
    for (unsigned i = 0; i < g->blocks.count; i++)
        print_block(&p, i);
}
