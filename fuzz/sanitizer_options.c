/* The sanitizers' defaults of every fuzz target (the environment's
 * ASAN_OPTIONS and UBSAN_OPTIONS still override them). */

/* No fake stacks for use-after-return detection: the collector finds TLC
 * objects by scanning the threads' real stacks, and would free objects only
 * a fake stack refers to (the ASan build's tests run so too: Makefile). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_stack_use_after_return=0";
}

const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "print_stacktrace=1";
}
