/* Private to the bitcode reader (bitcode_reader*.c) and module.c: the state
 * of one jg_module_read_bitcode call, shared by its phases (see
 * docs/frontend.md, "Reading bitcode"). */
#ifndef JITGEN_BITCODE_READER_INTERNAL_H
#define JITGEN_BITCODE_READER_INTERNAL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include "module_internal.h"

/* ---- the reader ---- */

/* A function the graphs refer to. */
typedef struct FnInfo {
    LLVMValueRef fn;
    const char *name; /* in the module arena */
    uint32_t flags;   /* JgGraphFlags */
    bool body;        /* its body is translated into a graph */
    JgGraph *g;
    void *address; /* what a reference to it evaluates to (native, or the graph as a token) */
} FnInfo;

enum { GLOBAL_NEW, GLOBAL_IN_PROGRESS, GLOBAL_DONE };

/* A global variable the graphs (or the initializers of other globals) refer to. */
typedef struct GlobInfo {
    LLVMValueRef gv;
    const char *name; /* in the module arena */
    int state;
    void *address;
} GlobInfo;

/* Intrinsic ids the reader knows (0 where LLVM has no such intrinsic). */
typedef struct IntrinsicIds {
    unsigned lifetime_start, lifetime_end, dbg_declare, dbg_value, dbg_label, dbg_assign;
    unsigned assume, noalias_decl, expect, expect_prob;
    unsigned memcpy, memcpy_inline, memmove, memset, memset_inline;
    unsigned smax, smin, umax, umin, abs, fmuladd;
} IntrinsicIds;

typedef struct Reader {
    JgModule *m;
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    LLVMTargetDataRef td;
    JgSymbolResolver resolve;
    void *resolve_ctx;
    JgArena scratch;    /* freed when reading ends */
    JgArena fn_scratch; /* per function body, freed after each */
    char *err;
    size_t errsize;
    jmp_buf on_error;
    char diag[256];     /* the first error LLVM reported */
    PtrMap annotations; /* function -> JgGraphFlags from @llvm.global.annotations */
    PtrMap fns;         /* function -> FnInfo * */
    PtrMap globs;       /* global -> GlobInfo * */
    PtrMap visited;     /* aggregate constants already scanned */
    JG_VEC(FnInfo *) fnlist;
    JG_VEC(GlobInfo *) globlist;
    IntrinsicIds ids;
    unsigned attr_byval, attr_sret, attr_inalloca, attr_preallocated, attr_noreturn;
    const char *cur_fn;     /* the function being translated, for messages */
    unsigned cur_fn_line;   /* its first line */
    const char *cur_global; /* the global being copied, for messages */
} Reader;

/* Reports an error and unwinds to jg_module_read_bitcode. */
_Noreturn void rd_fail(Reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, prefixed "FUNC:LINE: " with the line of `inst` (or the
 * function's first line when `inst` has none), or "global NAME: " while a
 * global's initializer is being copied. */
_Noreturn void rd_fail_at(Reader *r, LLVMValueRef inst, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The name of an LLVM value (not NUL-terminated in general: copied). */
const char *rd_name(Reader *r, LLVMValueRef v);
/* The flow-graph type of an LLVM type, or fails naming `where` and `what`. */
JgType rd_type(Reader *r, LLVMTypeRef t, LLVMValueRef where, const char *what);
/* Whether `fn` is a hint or an intrinsic (translated into ops, never called). */
bool rd_is_special(Reader *r, LLVMValueRef fn);
FnInfo *rd_fn_info(Reader *r, LLVMValueRef fn);
/* ABI size of a sized type in bytes. */
uint64_t rd_alloc_size(Reader *r, LLVMTypeRef t, LLVMValueRef where);

/* ---- constants (bitcode_reader_const.c) ---- */

typedef struct ConstVal {
    uint64_t bits;
    const char *symbol; /* the named function or global the address points into */
} ConstVal;

/* Evaluates a scalar constant: integers, floats, null/undef/poison,
 * addresses of functions and globals, constant expressions over them.
 * `where` names the instruction for messages (NULL: none). */
ConstVal rd_const_eval(Reader *r, LLVMValueRef c, LLVMValueRef where);
/* The native address of a global, resolving (or copying) it on first use. */
void *rd_global_address(Reader *r, LLVMValueRef gv);
/* "name+offset" for an address derived from a symbol. */
const char *rd_offset_symbol(Reader *r, const char *symbol, int64_t offset);
/* One index of a GEP (operand i >= 1) over the indexed type *ty: a struct
 * field adds its offset to *offset and returns false; otherwise returns
 * true with the index's scale in *scale. Advances *ty. */
bool rd_gep_step(Reader *r, LLVMTypeRef *ty, unsigned i, LLVMValueRef idx, LLVMValueRef where,
                 uint64_t *scale, uint64_t *offset);
/* Byte offset of a GEP whose indices are all constants. */
uint64_t rd_const_gep_offset(Reader *r, LLVMValueRef gep, LLVMValueRef where);

/* ---- function bodies (bitcode_reader_func.c) ---- */

/* Translates the body of `fi` into its graph (block-local SSA). */
void rd_translate_function(Reader *r, FnInfo *fi);
/* Whether a call is dropped entirely (lifetime, debug, assume, ...). */
bool rd_is_dropped_call(Reader *r, LLVMValueRef inst);
/* The hint opcode of a call to a hint function, or JG_OP__COUNT. */
JgOpcode rd_hint_opcode(const char *name, JgType *type);

#endif
