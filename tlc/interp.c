/* The TLC interpreter, written like the paper's RPython one: a switch
 * dispatch loop, the operand stack a local array indexed by the local `sp`,
 * calls as recursive portal calls. The hints are where the JIT generator
 * needs them: the merge point at the loop head, the opcode concrete (so the
 * code pointer and pc are green), the code deep-frozen, and every operand's
 * type promoted (tlc_type_of) before an operation dispatches on it. */
#include "interp.h"

#include "errors.h"
#include "opcodes.h"
#include "values.h"

const TlcInt tlc_int_zero = {.base = {.type = &tlc_int_type}, .value = 0};

#define NEED(n)                                                                                    \
    do {                                                                                           \
        if (sp < (n))                                                                              \
            tlc_raise(TLC_ERR_STACK_UNDERFLOW, op, at, "not enough values on the stack");          \
    } while (0)

#define ROOM(n)                                                                                    \
    do {                                                                                           \
        if (sp + (n) > TLC_STACK_CAPACITY)                                                         \
            tlc_raise(TLC_ERR_STACK_OVERFLOW, op, at, "operand stack full (256 values)");          \
    } while (0)

/* Popping clears the slot: values above the stack top are dead, and a
 * cleared slot keeps them out of the state the JIT carries around loops. */
static inline TlcObject *take(TlcObject **slot)
{
    TlcObject *v = *slot;
    *slot = NULL;
    return v;
}

#ifdef JITGEN_ANALYSIS
/* the JIT sees neither the counting nor the hand-over */
#define TIER_LOOP(offset)
#define CALL_FRAME(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth)                           \
    tlc_resume(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth, NULL, 0)
#else
TlcTier tlc_tier;

/* After a jump by `offset`: a frame whose back-edges (and calls, call_frame)
 * reach `threshold` hands itself over to the JIT at a back-edge, here, where
 * `pc` is the loop's head. */
#define TIER_LOOP(offset)                                                                          \
    do {                                                                                           \
        if ((offset) < 0 && tlc_tier.threshold && ++backedges >= tlc_tier.threshold)               \
            return tlc_tier.enter(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth, stack,     \
                                  sp);                                                             \
    } while (0)

/* A called frame runs in the native interpreter until the process has made
 * `threshold` calls; from then on through the JIT. A call also counts
 * towards its caller's hand-over, as a back-edge does (`caller_count`): a
 * caller whose own calls and back-edges reach the threshold hands itself
 * over at its next back-edge, its callees inlined into its loop's
 * compilation, and its calls meanwhile are interpreted rather than each
 * callee compiled on its own (a loop of 24 sends made 21 such compilations).
 * A recursive frame makes few calls of its own: its callees go to the JIT. */
static TlcObject *call_frame(const TlcCode *code, int64_t pc, TlcObject *arg0, TlcObject *arg1,
                             TlcObject *arg2, TlcObject *arg3, TlcObject **args, int64_t nargs,
                             int64_t depth, int64_t *caller_count)
{
    if (tlc_tier.threshold) {
        if (tlc_tier.calls < tlc_tier.threshold)
            tlc_tier.calls++;
        if (*caller_count < tlc_tier.threshold)
            ++*caller_count;
        if (tlc_tier.calls >= tlc_tier.threshold && *caller_count < tlc_tier.threshold)
            return tlc_tier.enter(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth, NULL, 0);
    }
    return tlc_resume(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth, NULL, 0);
}
#define CALL_FRAME(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth)                           \
    call_frame(code, pc, arg0, arg1, arg2, arg3, args, nargs, depth, &backedges)
#endif

#define PUSH(v) (stack[sp++] = (v))
#define POP() take(&stack[--sp])
#define OPERAND_I8() ((int8_t)code->bytes[pc++])
#define OPERAND_U8() (code->bytes[pc++])

TlcObject *tlc_frame_from_array(TlcFrameFn *frame, const TlcCode *code, int64_t pc,
                                TlcObject **args, int64_t nargs, int64_t depth)
{
    if (nargs > TLC_DIRECT_ARGS)
        return frame(code, pc, NULL, NULL, NULL, NULL, args, nargs, depth, NULL, 0);
    TlcObject *direct[TLC_DIRECT_ARGS] = {NULL};
    for (int64_t i = 0; i < nargs; i++)
        direct[i] = args[i];
    return frame(code, pc, direct[0], direct[1], direct[2], direct[3], NULL, nargs, depth, NULL, 0);
}

TlcObject *tlc_eval(const TlcCode *code, int64_t pc, TlcObject **args, int64_t nargs, int64_t depth)
{
    return tlc_frame_from_array(tlc_resume, code, pc, args, nargs, depth);
}

JIT_PORTAL TlcObject *tlc_resume(const TlcCode *code, int64_t pc, TlcObject *arg0, TlcObject *arg1,
                                 TlcObject *arg2, TlcObject *arg3, TlcObject **args, int64_t nargs,
                                 int64_t depth, TlcObject *const *saved, int64_t nsaved)
{
    code = jit_deepfreeze(code);
    /* a call's argument count is the constant of its SEND or CALL: green,
     * PUSHARGN's bound check is decided when specializing, and so is where
     * the arguments are */
    nargs = jit_concrete(nargs);
    TlcObject *direct[TLC_DIRECT_ARGS] = {arg0, arg1, arg2, arg3};
    TlcObject *const *argv_in = nargs > TLC_DIRECT_ARGS ? args : direct;
    TlcObject *stack[TLC_STACK_CAPACITY];
    TlcObject *callargs[TLC_MAX_CALL_ARGS];
    /* the arguments of a call with a few more than TLC_DIRECT_ARGS: when a
     * call escapes to compiled code, the array its arguments are in is
     * materialized whole (and zeroed), 64 bytes rather than 2 KB */
    TlcObject *fewargs[TLC_FEW_CALL_ARGS];
    int64_t sp = jit_concrete(nsaved);
    for (int64_t i = 0; i < sp; i++)
        stack[i] = saved[i];
#ifndef JITGEN_ANALYSIS
    int64_t backedges = 0;
#endif

    /* whether a branch may arrive at pc (tlc_join_points): merge points
     * elsewhere let the partial evaluator specialize straight-line code in
     * one piece. Computed at the end of each instruction, so that the merge
     * point stays the loop's first operation. */
    int64_t join = 1;
    for (;;) {
        jit_merge_point_join(join);
        if (pc >= code->len)
            break;
        const int64_t at = pc;
        const int op = jit_concrete(code->bytes[pc]);
        pc++;
        switch (op) {
        case TLC_OP_NOP:
            break;
        case TLC_OP_PUSH: {
            ROOM(1);
            int64_t value = OPERAND_I8();
            PUSH(tlc_int_new(value, tlc_site(op, at)));
            break;
        }
        case TLC_OP_POP:
            NEED(1);
            stack[--sp] = NULL;
            break;
        case TLC_OP_SWAP: {
            NEED(2);
            TlcObject *a = stack[sp - 1];
            stack[sp - 1] = stack[sp - 2];
            stack[sp - 2] = a;
            break;
        }
        case TLC_OP_ROLL: {
            int64_t r = OPERAND_I8();
            if (r > 1) {
                NEED(r);
                TlcObject *x = stack[sp - r];
                for (int64_t i = sp - r; i < sp - 1; i++)
                    stack[i] = stack[i + 1];
                stack[sp - 1] = x;
            } else if (r < -1) {
                NEED(-r);
                TlcObject *x = stack[sp - 1];
                for (int64_t i = sp - 1; i > sp + r; i--)
                    stack[i] = stack[i - 1];
                stack[sp + r] = x;
            }
            break;
        }
        case TLC_OP_PICK: {
            int64_t i = OPERAND_U8();
            NEED(i + 1);
            ROOM(1);
            TlcObject *x = stack[sp - 1 - i];
            PUSH(x);
            break;
        }
        case TLC_OP_PUT: {
            int64_t i = OPERAND_U8();
            NEED(i + 2);
            TlcObject *x = POP();
            stack[sp - 1 - i] = x;
            break;
        }
        case TLC_OP_ADD:
        case TLC_OP_SUB:
        case TLC_OP_MUL:
        case TLC_OP_DIV: {
            NEED(2);
            TlcObject *a = POP();
            TlcObject *b = POP();
            const TlcOps *ops = tlc_type_of(b)->ops;
            TlcObject *r = op == TLC_OP_ADD   ? ops->add(b, a, op, at)
                           : op == TLC_OP_SUB ? ops->sub(b, a, op, at)
                           : op == TLC_OP_MUL ? ops->mul(b, a, op, at)
                                              : ops->div(b, a, op, at);
            PUSH(r);
            break;
        }
        case TLC_OP_EQ:
        case TLC_OP_NE: {
            NEED(2);
            TlcObject *a = POP();
            TlcObject *b = POP();
            bool equal = tlc_type_of(b)->ops->eq(b, a);
            PUSH(tlc_int_new(equal == (op == TLC_OP_EQ), tlc_site(op, at)));
            break;
        }
        case TLC_OP_LT:
        case TLC_OP_LE:
        case TLC_OP_GT:
        case TLC_OP_GE: {
            NEED(2);
            TlcObject *a = POP();
            TlcObject *b = POP();
            bool holds = tlc_type_of(b)->ops->compare(b, a, op, at);
            PUSH(tlc_int_new(holds, tlc_site(op, at)));
            break;
        }
        case TLC_OP_BR: {
            int64_t offset = OPERAND_I8();
            pc += offset;
            TIER_LOOP(offset);
            break;
        }
        case TLC_OP_BR_COND: {
            NEED(1);
            int64_t offset = OPERAND_I8();
            TlcObject *c = POP();
            if (tlc_type_of(c)->ops->truth(c)) {
                pc += offset;
                TIER_LOOP(offset);
            }
            break;
        }
        case TLC_OP_BR_COND_STK: {
            NEED(2);
            TlcObject *off = POP();
            TlcObject *c = POP();
            if (tlc_type_of(off) != &tlc_int_type)
                tlc_raise_expected(op, at, "int offset", off);
            if (tlc_type_of(c)->ops->truth(c)) {
                int64_t offset = ((TlcInt *)off)->value;
                if (offset < -pc || offset > code->len - pc || !code->insn_start[pc + offset])
                    tlc_raise(TLC_ERR_BRANCH, op, at, "computed branch target not an instruction");
                pc = jit_promote(pc + offset);
                TIER_LOOP(offset);
            }
            break;
        }
        case TLC_OP_CALL: {
            int64_t offset = OPERAND_I8();
            if (depth > TLC_MAX_NESTED_CALLS)
                tlc_raise(TLC_ERR_RECURSION, op, at, "more than 1000 nested calls");
            TlcObject *r = CALL_FRAME(code, pc + offset, (TlcObject *)&tlc_int_zero.base, NULL,
                                      NULL, NULL, NULL, 1, depth + 1);
            if (r) {
                ROOM(1);
                PUSH(r);
            }
            break;
        }
        case TLC_OP_RETURN:
            goto done;
        case TLC_OP_PUSHARG:
            ROOM(1);
            PUSH(argv_in[0]);
            break;
        case TLC_OP_PUSHARGN: {
            int64_t n = OPERAND_I8();
            if (n < 0 || n >= nargs)
                tlc_raise_index(op, at, n, "argument");
            ROOM(1);
            PUSH(argv_in[n]);
            break;
        }
        case TLC_OP_NIL:
            ROOM(1);
            PUSH(TLC_NIL);
            break;
        case TLC_OP_CONS: {
            NEED(2);
            TlcObject *a = POP();
            TlcObject *b = POP();
            PUSH(tlc_cons_new(a, b, tlc_site(op, at)));
            break;
        }
        case TLC_OP_CAR:
        case TLC_OP_CDR: {
            NEED(1);
            TlcObject *x = POP();
            const TlcOps *ops = tlc_type_of(x)->ops;
            PUSH(op == TLC_OP_CAR ? ops->car(x, op, at) : ops->cdr(x, op, at));
            break;
        }
        case TLC_OP_NEW: {
            int64_t k = OPERAND_U8();
            ROOM(1);
            PUSH(tlc_instance_new(code->classes[k], tlc_site(op, at)));
            break;
        }
        case TLC_OP_GETATTR:
        case TLC_OP_SETATTR: {
            const char *name = code->strings[OPERAND_U8()];
            NEED(op == TLC_OP_GETATTR ? 1 : 2);
            TlcObject *value = op == TLC_OP_SETATTR ? POP() : NULL;
            TlcObject *obj = POP();
            const TlcType *type = tlc_type_of(obj);
            if (type->kind != TLC_KIND_INSTANCE)
                tlc_raise_expected(op, at, "object", obj);
            int64_t index = tlc_class_attr_index(type, name);
            if (index < 0)
                tlc_raise_attribute(op, at, name, 0);
            if (op == TLC_OP_GETATTR)
                PUSH(((TlcInstance *)obj)->attrs[index]);
            else
                ((TlcInstance *)obj)->attrs[index] = value;
            break;
        }
        case TLC_OP_SEND: {
            const char *name = code->strings[OPERAND_U8()];
            int64_t argc = OPERAND_U8();
            NEED(argc + 1);
            TlcObject *receiver = stack[sp - argc - 1];
            const TlcType *type = tlc_type_of(receiver);
            if (type->kind != TLC_KIND_INSTANCE)
                tlc_raise_expected(op, at, "object", receiver);
            int64_t entry = tlc_class_method_pc(type, name);
            if (entry < 0)
                tlc_raise_attribute(op, at, name, 1);
            if (depth > TLC_MAX_NESTED_CALLS)
                tlc_raise(TLC_ERR_RECURSION, op, at, "more than 1000 nested calls");
            TlcObject *r;
            if (argc < TLC_DIRECT_ARGS) {
                TlcObject *a[TLC_DIRECT_ARGS] = {NULL};
                for (int64_t i = 0; i <= argc; i++)
                    a[i] = take(&stack[sp - argc - 1 + i]);
                sp -= argc + 1;
                r = CALL_FRAME(code, entry, a[0], a[1], a[2], a[3], NULL, argc + 1, depth + 1);
            } else {
                TlcObject **argv = argc < TLC_FEW_CALL_ARGS ? fewargs : callargs;
                for (int64_t i = 0; i <= argc; i++)
                    argv[i] = take(&stack[sp - argc - 1 + i]);
                sp -= argc + 1;
                r = CALL_FRAME(code, entry, NULL, NULL, NULL, NULL, argv, argc + 1, depth + 1);
                for (int64_t i = 0; i <= argc; i++)
                    argv[i] = NULL;
            }
            if (r)
                PUSH(r);
            break;
        }
        case TLC_OP_PRINT:
            NEED(1);
            tlc_print(POP());
            break;
        case TLC_OP_DUMP:
            tlc_dump_begin();
            for (int64_t i = 0; i < sp; i++)
                tlc_dump_item(stack[i], i);
            tlc_dump_end();
            break;
        case TLC_OP_INVALID:
            tlc_raise(TLC_ERR_INVALID_OPCODE, op, at, "INVALID instruction executed");
        default:
            tlc_raise(TLC_ERR_INVALID_OPCODE, op, at, "unknown opcode");
        }
        join = pc < code->len && code->join[pc];
    }
done:
    return sp > 0 ? stack[sp - 1] : NULL;
}
