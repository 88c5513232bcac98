// Peer of examples/fibonacci.tlc and bench/c/fibonacci.c for node (V8):
// fib(n) (fib(0) = 0, fib(1) = 1; 0 for n <= 0). JavaScript numbers are
// doubles: exact up to fib(78), rounded beyond and Infinity from fib(1477)
// on, where the C baseline wraps at 64 bits.
// Usage: node fibonacci.js N
"use strict";
const n = Number(process.argv[2] || "0");
let a = 0, b = 1;
for (let i = n; i > 0; i--) {
  const s = a + b;
  a = b;
  b = s;
}
console.log(String(a));
