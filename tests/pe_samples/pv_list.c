/* A list grown around a loop controlled by the red `n`: every iteration
 * allocates a node whose next field is the previous head, and the list
 * escapes after the loop. The state at the loop header cannot keep a list of
 * unbounded length virtual; whatever the partial evaluator keeps virtual and
 * whatever it allocates, the list built must be the native one, each node
 * allocated once. */
#include <stddef.h>

#include "pv_support.h"

JIT_PORTAL int64_t pv_list(PvReal *real, int64_t n)
{
    PvObj *head = NULL;
    for (int64_t i = 0; i < n; i++) {
        PvObj *node = pv_alloc(sizeof *node);
        node->a = i;
        node->b = i * i;
        node->next = head;
        head = node;
    }
    real->first = head;
    return n;
}
