/* Constants and globals for the bitcode reader (docs/frontend.md,
 * "Constants and globals"): scalar constants and constant expressions fold to
 * bits (addresses are native addresses), globals resolve to the running
 * binary's symbols, and private constants without a symbol (string literals,
 * static tables) are copied into the module's arena using the data layout. */
#include <stdio.h>
#include <string.h>

#include "bitcode_reader_internal.h"

const char *rd_offset_symbol(Reader *r, const char *symbol, int64_t offset)
{
    if (!symbol || offset == 0)
        return symbol;
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%+lld", (long long)offset);
    size_t len = strlen(symbol);
    char *s = jg_arena_alloc(&r->m->arena, len + (size_t)n + 1);
    memcpy(s, symbol, len);
    memcpy(s + len, buf, (size_t)n + 1);
    return s;
}

bool rd_gep_step(Reader *r, LLVMTypeRef *ty, unsigned i, LLVMValueRef idx, LLVMValueRef where,
                 uint64_t *scale, uint64_t *offset)
{
    if (i == 1) { /* the first index steps over whole source elements */
        *scale = rd_alloc_size(r, *ty, where);
        return true;
    }
    switch (LLVMGetTypeKind(*ty)) {
    case LLVMStructTypeKind: {
        if (!LLVMIsAConstantInt(idx))
            rd_fail_at(r, where, "non-constant struct field index in getelementptr");
        unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
        if (field >= LLVMCountStructElementTypes(*ty))
            rd_fail_at(r, where, "struct field index %u out of range in getelementptr", field);
        *offset += LLVMOffsetOfElement(r->td, *ty, field);
        *ty = LLVMStructGetTypeAtIndex(*ty, field);
        return false;
    }
    case LLVMArrayTypeKind:
        *ty = LLVMGetElementType(*ty);
        *scale = rd_alloc_size(r, *ty, where);
        return true;
    default:
        rd_fail_at(r, where, "unsupported getelementptr into a vector or scalar type");
    }
}

/* A GEP index as a signed 64-bit number (GEP indices are sign-extended). */
static int64_t index_value(Reader *r, LLVMValueRef idx, LLVMValueRef where)
{
    if (!LLVMIsAConstantInt(idx))
        rd_fail_at(r, where, "non-constant index in a constant getelementptr");
    if (LLVMGetIntTypeWidth(LLVMTypeOf(idx)) > 64)
        rd_fail_at(r, where, "getelementptr index wider than 64 bits");
    return LLVMConstIntGetSExtValue(idx);
}

uint64_t rd_const_gep_offset(Reader *r, LLVMValueRef gep, LLVMValueRef where)
{
    LLVMTypeRef ty = LLVMGetGEPSourceElementType(gep);
    uint64_t offset = 0;
    unsigned n = (unsigned)LLVMGetNumOperands(gep);
    for (unsigned i = 1; i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(gep, i);
        uint64_t scale = 0;
        if (rd_gep_step(r, &ty, i, idx, where, &scale, &offset))
            offset += (uint64_t)index_value(r, idx, where) * scale; /* wraps like the machine */
    }
    return offset;
}

/* Masks the bits of an integer-typed result to its width. */
static uint64_t fit_to_type(Reader *r, LLVMValueRef c, uint64_t bits, LLVMValueRef where)
{
    JgType t = rd_type(r, LLVMTypeOf(c), where, "a constant expression");
    return jg_type_is_int(t) ? jg_truncate_bits(t, bits) : bits;
}

static ConstVal const_expr(Reader *r, LLVMValueRef c, LLVMValueRef where)
{
    LLVMOpcode op = LLVMGetConstOpcode(c);
    ConstVal v = {0};
    switch (op) {
    case LLVMGetElementPtr: {
        ConstVal base = rd_const_eval(r, LLVMGetOperand(c, 0), where);
        uint64_t off = rd_const_gep_offset(r, c, where);
        v.bits = base.bits + off;
        v.symbol = rd_offset_symbol(r, base.symbol, (int64_t)off);
        return v;
    }
    case LLVMBitCast:
    case LLVMIntToPtr:
    case LLVMPtrToInt:
    case LLVMTrunc:
    case LLVMZExt:
        v = rd_const_eval(r, LLVMGetOperand(c, 0), where);
        v.bits = fit_to_type(r, c, v.bits, where);
        if (op == LLVMPtrToInt || op == LLVMTrunc)
            v.symbol = NULL;
        return v;
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
    case LLVMXor: {
        uint64_t a = rd_const_eval(r, LLVMGetOperand(c, 0), where).bits;
        uint64_t b = rd_const_eval(r, LLVMGetOperand(c, 1), where).bits;
        v.bits = op == LLVMAdd ? a + b : op == LLVMSub ? a - b : op == LLVMMul ? a * b : a ^ b;
        v.bits = fit_to_type(r, c, v.bits, where);
        return v;
    }
    default:
        rd_fail_at(r, where, "unsupported constant expression (LLVM opcode %d)", (int)op);
    }
}

static ConstVal const_float(Reader *r, LLVMValueRef c, LLVMValueRef where)
{
    LLVMBool loses = 0;
    double d = LLVMConstRealGetDouble(c, &loses);
    ConstVal v = {0};
    switch (LLVMGetTypeKind(LLVMTypeOf(c))) {
    case LLVMDoubleTypeKind:
        memcpy(&v.bits, &d, sizeof d);
        return v;
    case LLVMFloatTypeKind: {
        float f = (float)d; /* exact: the constant is a float */
        uint32_t u;
        memcpy(&u, &f, sizeof f);
        v.bits = u;
        return v;
    }
    default:
        rd_type(r, LLVMTypeOf(c), where, "a floating-point constant"); /* fails */
        rd_fail_at(r, where, "unsupported floating-point constant");
    }
}

ConstVal rd_const_eval(Reader *r, LLVMValueRef c, LLVMValueRef where)
{
    ConstVal v = {0};
    if (LLVMIsAConstantInt(c)) {
        unsigned width = LLVMGetIntTypeWidth(LLVMTypeOf(c));
        if (width > 64)
            rd_fail_at(r, where, "unsupported %u-bit integer constant", width);
        v.bits = LLVMConstIntGetZExtValue(c);
        return v;
    }
    if (LLVMIsAConstantFP(c))
        return const_float(r, c, where);
    if (LLVMIsAConstantPointerNull(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantAggregateZero(c))
        return v; /* undef and poison read as 0 */
    if (LLVMIsAFunction(c)) {
        FnInfo *fi = rd_fn_info(r, c);
        if (!fi)
            rd_fail_at(r, where, "address of the intrinsic or hint '%s' taken", rd_name(r, c));
        v.bits = (uint64_t)(uintptr_t)fi->address;
        v.symbol = fi->name;
        return v;
    }
    if (LLVMIsAGlobalVariable(c)) {
        v.bits = (uint64_t)(uintptr_t)rd_global_address(r, c);
        uint64_t gi;
        pm_get(&r->globs, c, &gi);
        v.symbol = ((GlobInfo *)(uintptr_t)gi)->name;
        return v;
    }
    if (LLVMIsAGlobalValue(c))
        rd_fail_at(r, where, "unsupported global alias or ifunc '%s'", rd_name(r, c));
    if (LLVMIsAConstantExpr(c))
        return const_expr(r, c, where);
    rd_fail_at(r, where, "unsupported constant (block address, token or aggregate)");
}

/* ---- copying private constants ---- */

static void write_const(Reader *r, uint8_t *dst, uint64_t room, LLVMValueRef c, LLVMTypeRef ty);

static void write_elements(Reader *r, uint8_t *dst, uint64_t room, LLVMValueRef c, LLVMTypeRef elem,
                           uint64_t n, bool operands)
{
    uint64_t stride = rd_alloc_size(r, elem, NULL);
    for (uint64_t i = 0; i < n; i++) {
        LLVMValueRef e =
            operands ? LLVMGetOperand(c, (unsigned)i) : LLVMGetAggregateElement(c, (unsigned)i);
        if (!e || i * stride > room)
            rd_fail_at(r, NULL, "malformed array initializer");
        write_const(r, dst + i * stride, room - i * stride, e, elem);
    }
}

static void write_struct(Reader *r, uint8_t *dst, uint64_t room, LLVMValueRef c, LLVMTypeRef ty)
{
    unsigned n = LLVMCountStructElementTypes(ty);
    if ((unsigned)LLVMGetNumOperands(c) != n)
        rd_fail_at(r, NULL, "malformed struct initializer");
    for (unsigned i = 0; i < n; i++) {
        uint64_t off = LLVMOffsetOfElement(r->td, ty, i);
        if (off > room)
            rd_fail_at(r, NULL, "malformed struct initializer");
        write_const(r, dst + off, room - off, LLVMGetOperand(c, i),
                    LLVMStructGetTypeAtIndex(ty, i));
    }
}

/* Strings: the raw bytes; other arrays of scalars element by element. */
static void write_data(Reader *r, uint8_t *dst, uint64_t room, LLVMValueRef c, LLVMTypeRef ty)
{
    if (LLVMGetTypeKind(ty) != LLVMArrayTypeKind)
        rd_fail_at(r, NULL, "unsupported vector constant in an initializer");
    uint64_t n = LLVMGetArrayLength2(ty);
    if (LLVMIsConstantString(c)) {
        size_t len = 0;
        const char *bytes = LLVMGetAsString(c, &len);
        if (len > room || len != n)
            rd_fail_at(r, NULL, "malformed string initializer");
        memcpy(dst, bytes, len);
        return;
    }
    write_elements(r, dst, room, c, LLVMGetElementType(ty), n, false);
}

/* Serializes constant `c` of type `ty` into `dst` (zero-filled, `room`
 * bytes) with the data layout's sizes, offsets and padding. */
static void write_const(Reader *r, uint8_t *dst, uint64_t room, LLVMValueRef c, LLVMTypeRef ty)
{
    if (LLVMIsAConstantAggregateZero(c) || LLVMIsAUndefValue(c) || LLVMIsAConstantPointerNull(c))
        return;
    if (LLVMIsAConstantDataSequential(c)) {
        write_data(r, dst, room, c, ty);
        return;
    }
    if (LLVMIsAConstantArray(c)) {
        write_elements(r, dst, room, c, LLVMGetElementType(ty), LLVMGetArrayLength2(ty), true);
        return;
    }
    if (LLVMIsAConstantStruct(c)) {
        write_struct(r, dst, room, c, ty);
        return;
    }
    if (LLVMIsAConstantVector(c))
        rd_fail_at(r, NULL, "unsupported vector constant in an initializer");
    JgType t = rd_type(r, ty, NULL, "an initializer");
    uint64_t size = LLVMStoreSizeOfType(r->td, ty);
    if (t == JG_VOID || size > 8 || size > room)
        rd_fail_at(r, NULL, "malformed scalar initializer");
    ConstVal v = rd_const_eval(r, c, NULL);
    memcpy(dst, &v.bits, size);             /* little-endian: checked when parsing */
    if (v.symbol && size == sizeof(void *)) /* an address, for graph images */
        JG_VEC_PUSH(&r->m->arena, r->m->address_words, dst);
}

static GlobInfo *glob_info(Reader *r, LLVMValueRef gv)
{
    uint64_t v;
    if (pm_get(&r->globs, gv, &v))
        return (GlobInfo *)(uintptr_t)v;
    GlobInfo *gi = jg_arena_alloc(&r->scratch, sizeof *gi);
    gi->gv = gv;
    pm_put(&r->globs, gv, (uint64_t)(uintptr_t)gi);
    JG_VEC_PUSH(&r->scratch, r->globlist, gi);
    return gi;
}

/* The module's own copy of a private constant. The address is set before
 * the contents are written, so cycles through other copies terminate. */
static void *copy_global(Reader *r, GlobInfo *gi, uint64_t size, uint32_t *align_out)
{
    LLVMValueRef init = LLVMGetInitializer(gi->gv);
    if (!LLVMIsGlobalConstant(gi->gv))
        rd_fail(r,
                "internal global '%s' is not constant and has no native symbol (make it "
                "non-static or do not touch it from translated code)",
                gi->name);
    if (!init)
        rd_fail(r, "internal constant '%s' has no initializer", gi->name);
    uint64_t align = LLVMGetAlignment(gi->gv);
    if (align < 16)
        align = 16; /* the arena's own alignment */
    uint8_t *raw = jg_arena_alloc(&r->m->arena, size + align);
    uint8_t *mem = (uint8_t *)(((uintptr_t)raw + align - 1) & ~(uintptr_t)(align - 1));
    *align_out = (uint32_t)align;
    gi->address = mem;
    gi->state = GLOBAL_IN_PROGRESS;
    const char *saved = r->cur_global;
    r->cur_global = gi->name;
    write_const(r, mem, size, init, LLVMGlobalGetValueType(gi->gv));
    r->cur_global = saved;
    return mem;
}

void *rd_global_address(Reader *r, LLVMValueRef gv)
{
    GlobInfo *gi = glob_info(r, gv);
    if (gi->state != GLOBAL_NEW)
        return gi->address;
    gi->name = rd_name(r, gv);
    if (LLVMIsThreadLocal(gv))
        rd_fail(r, "unsupported thread-local global '%s'", gi->name);
    LLVMTypeRef ty = LLVMGlobalGetValueType(gv);
    uint64_t size = LLVMTypeIsSized(ty) ? LLVMABISizeOfType(r->td, ty) : 0;
    JgGlobal rec = {.name = gi->name, .size = size, .constant = LLVMIsGlobalConstant(gv)};
    bool local =
        LLVMGetLinkage(gv) == LLVMInternalLinkage || LLVMGetLinkage(gv) == LLVMPrivateLinkage;
    if (local) { /* no symbol a name lookup could find: the module's own copy */
        rec.address = copy_global(r, gi, size, &rec.align);
        rec.copied = true;
    } else if ((rec.address = r->resolve(r->resolve_ctx, gi->name)) != NULL) {
        gi->address = rec.address;
    } else {
        rd_fail(r,
                "unresolved symbol '%s': global has no native address (is the binary linked "
                "with -rdynamic?)",
                gi->name);
    }
    gi->state = GLOBAL_DONE;
    JG_VEC_PUSH(&r->m->arena, r->m->globals, rec);
    return gi->address;
}
