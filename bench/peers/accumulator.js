// Peer of examples/accumulator.tlc and bench/c/accumulator.c for node (V8):
// an object with a `value` field whose class, chosen at run time from the
// sign of n, gives its `accumulate` method; every call is a method call
// obj.accumulate(i).
//   n >= 0: Add   (value = value + x) for x = n, n-1, ..., 1;
//   n < 0:  Count (value = value + 1), |n| times.
// JavaScript numbers are doubles: exact while the value stays below 2^53
// (n(n+1)/2 for n up to about 1.3e8), rounded beyond, where the C baseline
// wraps at 64 bits.
// Usage: node accumulator.js N
"use strict";
class Add {
  constructor() { this.value = 0; }
  accumulate(x) { this.value = this.value + x; }
}
class Count {
  constructor() { this.value = 0; }
  accumulate(x) { this.value = this.value + 1; }
}
const n = Number(process.argv[2] || "0");
let obj, i;
if (n < 0) {
  obj = new Count();
  i = -n;
} else {
  obj = new Add();
  i = n;
}
while (i > 0) {
  obj.accumulate(i);
  i = i - 1;
}
console.log(String(obj.value));
