/* Activation areas: memory for the ALLOCAs of a secondary that must
 * outlive the secondary (escape.c decides which). The interpreter's stack
 * arrays live as long as its frames, which may span several methods; a
 * secondary's own frame dies when it returns to the dispatcher. So each
 * secondary with such ALLOCAs gets an area index when compiled, and every
 * activation of the primary keeps a table of areas, one per index, grown
 * on demand with dynamic allocas in the primary's frame (freed when the
 * primary returns, scanned by a conservative collector meanwhile):
 *   secondary entry:  if (k >= ia.nareas || !ia.areas[k]) {
 *                         request (k, bytes, blockid); return NEED_AREA; }
 *                     area = ia.areas[k]
 *   primary, on NEED_AREA: grow the table if needed, areas[k] =
 *                     alloca(bytes), dispatch the requested block id again.
 * An area is allocated once per activation and method, however often the
 * method runs. */
#include "internal.h"

static LLVMValueRef tail_addr(LgMethod *m, uint64_t field)
{
    return lg_ia_addr(m, lg_tail(m) + field);
}

static LLVMValueRef load_u32(LgMethod *m, uint64_t field, const char *name)
{
    return LLVMBuildLoad2(m->b, m->llvm->t_i32, tail_addr(m, field), name);
}

static LLVMValueRef u32(LgMethod *m, uint64_t v)
{
    return LLVMConstInt(m->llvm->t_i32, v, 0);
}

void lg_init_tail(LgMethod *m)
{
    LLVMBuildStore(m->b, LLVMConstPointerNull(m->llvm->t_ptr), tail_addr(m, LG_TAIL_AREAS));
    LLVMBuildStore(m->b, u32(m, 0), tail_addr(m, LG_TAIL_NAREAS));
}

/* A bigger table: max(k + 1, 2n, 8) entries, zeroed, the old ones copied. */
static LLVMValueRef grow_table(LgMethod *m, LLVMValueRef k, LLVMValueRef n, LLVMValueRef old)
{
    JgLlvm *llvm = m->llvm;
    LLVMBuilderRef b = m->b;
    LLVMValueRef want = LLVMBuildAdd(b, k, u32(m, 1), "");
    LLVMValueRef twice = LLVMBuildShl(b, n, u32(m, 1), "");
    want = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, twice, want, ""), twice, want, "");
    want = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, want, u32(m, 8), ""), u32(m, 8), want,
                           "entries");
    LLVMValueRef table = LLVMBuildArrayAlloca(b, llvm->t_ptr, want, "areas");
    LLVMValueRef eight = LLVMConstInt(llvm->t_i64, 8, 0);
    LLVMValueRef bytes = LLVMBuildMul(b, LLVMBuildZExt(b, want, llvm->t_i64, ""), eight, "");
    LLVMBuildMemSet(b, table, LLVMConstInt(llvm->t_i8, 0, 0), bytes, 8);
    LLVMValueRef old_bytes = LLVMBuildMul(b, LLVMBuildZExt(b, n, llvm->t_i64, ""), eight, "");
    LLVMBuildMemCpy(b, table, 8, old, 8, old_bytes);
    LLVMBuildStore(b, table, tail_addr(m, LG_TAIL_AREAS));
    LLVMBuildStore(b, want, tail_addr(m, LG_TAIL_NAREAS));
    return table;
}

LLVMBasicBlockRef lg_build_grant(LgMethod *m)
{
    JgLlvm *llvm = m->llvm;
    LLVMContextRef c = llvm->ctx;
    LLVMBasicBlockRef grant = LLVMAppendBasicBlockInContext(c, m->fn, "grant.area");
    LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c, m->fn, "grant.grow");
    LLVMBasicBlockRef give = LLVMAppendBasicBlockInContext(c, m->fn, "grant.give");
    LLVMPositionBuilderAtEnd(m->b, grant);
    LLVMValueRef k = load_u32(m, LG_TAIL_REQ_INDEX, "k");
    LLVMValueRef n = load_u32(m, LG_TAIL_NAREAS, "n");
    LLVMValueRef old = LLVMBuildLoad2(m->b, llvm->t_ptr, tail_addr(m, LG_TAIL_AREAS), "table");
    LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, k, n, ""), give, grow);
    LLVMPositionBuilderAtEnd(m->b, grow);
    LLVMValueRef grown = grow_table(m, k, n, old);
    LLVMBuildBr(m->b, give);
    LLVMPositionBuilderAtEnd(m->b, give);
    LLVMValueRef table = LLVMBuildPhi(m->b, llvm->t_ptr, "table");
    LLVMAddIncoming(table, &old, &grant, 1);
    LLVMAddIncoming(table, &grown, &grow, 1);
    LLVMValueRef area =
        LLVMBuildArrayAlloca(m->b, llvm->t_i8, load_u32(m, LG_TAIL_REQ_BYTES, ""), "area");
    LLVMSetAlignment(area, 16);
    LLVMValueRef index = LLVMBuildZExt(m->b, k, llvm->t_i64, "");
    LLVMBuildStore(m->b, area, LLVMBuildGEP2(m->b, llvm->t_ptr, table, &index, 1, ""));
    lg_emit_exit(m, load_u32(m, LG_TAIL_REQ_ID, "blockid"));
    return grant;
}

/* The secondary's request: which area, how big, and where to go once it
 * exists. */
static LLVMBasicBlockRef request(LgMethod *m, LLVMValueRef id)
{
    LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(m->llvm->ctx, m->fn, "need.area");
    LLVMPositionBuilderAtEnd(m->b, bb);
    LLVMBuildStore(m->b, u32(m, m->area_index), tail_addr(m, LG_TAIL_REQ_INDEX));
    LLVMBuildStore(m->b, u32(m, m->area_bytes), tail_addr(m, LG_TAIL_REQ_BYTES));
    LLVMBuildStore(m->b, id, tail_addr(m, LG_TAIL_REQ_ID));
    LLVMBuildRet(m->b, u32(m, JG_BLOCKID_NEED_AREA));
    return bb;
}

LLVMValueRef lg_area_entry(LgMethod *m, LLVMValueRef id)
{
    JgLlvm *llvm = m->llvm;
    LLVMBasicBlockRef look = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "area.look");
    LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(llvm->ctx, m->fn, "area.ok");
    LLVMBasicBlockRef need = request(m, id);
    LLVMPositionBuilderAtEnd(m->b, m->entry);
    LLVMValueRef n = load_u32(m, LG_TAIL_NAREAS, "n");
    LLVMValueRef table = LLVMBuildLoad2(m->b, llvm->t_ptr, tail_addr(m, LG_TAIL_AREAS), "table");
    LLVMValueRef k = u32(m, m->area_index);
    LLVMValueRef term =
        LLVMBuildCondBr(m->b, LLVMBuildICmp(m->b, LLVMIntULT, k, n, ""), look, need);
    LLVMPositionBuilderAtEnd(m->b, look);
    LLVMValueRef index = LLVMConstInt(llvm->t_i64, m->area_index, 0);
    LLVMValueRef slot = LLVMBuildGEP2(m->b, llvm->t_ptr, table, &index, 1, "");
    m->area = LLVMBuildLoad2(m->b, llvm->t_ptr, slot, "area");
    LLVMValueRef missing = LLVMBuildIsNull(m->b, m->area, "");
    LLVMBuildCondBr(m->b, missing, need, ok);
    LLVMPositionBuilderAtEnd(m->b, ok);
    return term;
}
