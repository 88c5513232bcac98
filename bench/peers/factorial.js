// Peer of examples/factorial.tlc and bench/c/factorial.c for node (V8):
// n! (1 for n <= 0). JavaScript numbers are doubles: the product is exact up
// to 18!, rounded from 19! on and Infinity from 171! on, where the C
// baseline wraps at 64 bits (0 for n >= 66). Exact 64-bit wrapping would
// need BigInt.asIntN(64, ...) on every step, which allocates.
// Usage: node factorial.js N
"use strict";
const n = Number(process.argv[2] || "0");
let acc = 1;
for (let i = n; i > 0; i--) {
  acc = acc * i;
}
console.log(String(acc));
