/* The table libjitgen-llvm.so exports (llvmgen.h, "the backend library"):
 * the only way into the backend for a host that opens it at run time. */
#include "internal.h"

#include "frontend/fatal.h"
#include "frontend/module.h"

/* The session, warmed up on request: a host that creates it on a thread of
 * its own while it does other work wants the first compilation to find
 * LLVM's optimizer and code generator initialized. */
static JgLlvm *create(const JgLlvmOptions *options, bool warm_up, char *err, size_t errsize)
{
    JgLlvm *llvm = jg_llvm_new(options, err, errsize);
    if (llvm && warm_up && !lg_warm_up(llvm, err, errsize)) {
        jg_llvm_free(llvm);
        return NULL;
    }
    return llvm;
}

static const JgBackend backend = {
    .abi = JG_BACKEND_ABI,
    .size = sizeof(JgBackend),
    .create = create,
    .destroy = jg_llvm_free,
    .compile = jg_llvm_compile,
    .compile_to = jg_llvm_compile_to,
    .call = jg_llvm_call,
    .can_start_at = jg_llvm_can_start_at,
    .call_at = jg_llvm_call_at,
    .stats = jg_llvm_stats,
    .frontend_init = jg_frontend_init,
    .read_bitcode = jg_module_read_bitcode,
    .set_fatal_handler = jg_set_fatal_handler,
    .entry = jg_llvm_entry,
    .set_portal_red = jg_llvm_set_portal_red,
    .set_lazy_threshold = jg_llvm_set_lazy_threshold,
};

__attribute__((visibility("default"))) const JgBackend *jg_llvm_backend(void)
{
    return &backend;
}
