/* The verifier: everything the interpreter relies on, checked before running. */
#ifndef TLC_VERIFY_H
#define TLC_VERIFY_H

#include "program.h"

/* Checks a program (whatever produced it): code length limits; a linear
 * decode from pc 0 meets only known opcodes whose operands are not cut off by
 * the end; pool indices (NEW, GETATTR, SETATTR, SEND) in range; PICK/PUT
 * depths in 0..127; static branch and CALL targets in [0, code_len] and on an
 * instruction start (code_len itself allowed); method entry points on an
 * instruction start or code_len; names are identifiers of 1..255 chars;
 * attribute names unique within a class, method names unique within a class.
 * Returns true, or false with one message in `diag` naming the pc or pool
 * entry. */
bool tlc_verify(const TlcProgram *prog, TlcDiag *diag);

/* For a verified program: a malloc'd array of code_len + 1 flags, flag[pc]
 * non-zero iff pc starts an instruction in the linear decode or pc ==
 * code_len. NULL when out of memory. */
uint8_t *tlc_insn_starts(const TlcProgram *prog);
/* code_len + 1 flags: where a path other than the one running straight on
 * may arrive (a branch's or a call's target; every instruction when the
 * program branches to computed targets), for jit_merge_point_join; NULL
 * when out of memory. `starts` is tlc_insn_starts'. */
uint8_t *tlc_join_points(const TlcProgram *prog, const uint8_t *starts);

#endif
