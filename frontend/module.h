/* A module: the flow graphs of every function reachable from a portal, read
 * from the interpreter's embedded bitcode, each tied to the native address of
 * the same function in the running binary. */
#ifndef JITGEN_MODULE_H
#define JITGEN_MODULE_H

#include <stddef.h>

#include "ir.h"

/* A global variable the graphs refer to. */
typedef struct JgGlobal {
    const char *name;
    void *address;  /* native address (or a private copy, see `copied`) */
    uint64_t size;  /* bytes */
    bool constant;  /* declared constant in the bitcode: loads from it fold */
    bool copied;    /* internal constant (no native symbol): the module owns a copy */
    uint32_t align; /* copied: the copy's alignment in bytes */
} JgGlobal;

typedef struct JgModule {
    JgArena arena;
    JG_VEC(JgGraph *) graphs; /* every translated function and declaration */
    JG_VEC(JgGlobal) globals; /* every global referenced by a graph */
    JgGraph *portal;          /* the function annotated JIT_PORTAL, if any */
    /* pointer-sized words inside copied globals that hold addresses (of
     * symbols, tokens or other copies): relocated by graph images */
    JG_VEC(uint8_t *) address_words;
    void *index; /* lookup tables (private) */
} JgModule;

/* Resolves a symbol of the running binary; NULL when absent. The default
 * (jg_resolve_self) uses dlsym on the process itself, which needs the
 * binary linked with -rdynamic. */
typedef void *(*JgSymbolResolver)(void *ctx, const char *name);
void *jg_resolve_self(void *ctx, const char *name);

/* Reads bitcode and translates every function reachable from `root` (the
 * portal's name; NULL: the function annotated JIT_PORTAL) into a graph.
 * Functions annotated JIT_DONT_LOOK_INSIDE or JIT_ELIDABLE, and functions
 * with no body, become declarations (JG_FLAG_EXTERNAL) that are called
 * natively; their bodies are not translated. Every function and non-private
 * global must resolve to a native address; private constants (string
 * literals) are copied. Errors (an unsupported instruction, an unresolved
 * symbol) name the function and the source line; returns NULL and writes
 * the message to `err`. */
JgModule *jg_module_read_bitcode(const void *bitcode, size_t len, const char *root,
                                 JgSymbolResolver resolve, void *ctx, char *err, size_t errsize);

void jg_module_free(JgModule *m);

/* Sets the LLVM options the reader needs; jg_module_read_bitcode calls it,
 * and a program that starts LLVM on other threads calls it first. */
void jg_frontend_init(void);

JgGraph *jg_module_graph_by_name(const JgModule *m, const char *name);
/* The graph whose native address is `address`, or NULL. */
JgGraph *jg_module_graph_by_native(const JgModule *m, const void *address);
/* The global whose memory contains `address`, or NULL. */
const JgGlobal *jg_module_global_at(const JgModule *m, const void *address);

#endif
