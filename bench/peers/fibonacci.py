# Peer of examples/fibonacci.tlc and bench/c/fibonacci.c for PyPy: fib(n)
# (fib(0) = 0, fib(1) = 1; 0 for n <= 0) with 64-bit wrapping addition: the
# same semantics as the C baseline. Python integers have arbitrary precision;
# under PyPy, __pypy__.intop.int_add adds machine words with wrap-around
# (masking with & 0xFFFFFFFFFFFFFFFF instead would leave machine words and
# run on big integers); elsewhere the sum is masked and sign-corrected.
# Usage: pypy3 fibonacci.py N
import sys

try:
    from __pypy__.intop import int_add
except ImportError:
    def int_add(a, b):
        r = (a + b) & 0xFFFFFFFFFFFFFFFF
        return r - (1 << 64) if r >= 1 << 63 else r


def fibonacci(n):
    a, b = 0, 1
    i = n
    while i > 0:
        a, b = b, int_add(a, b)
        i -= 1
    return a


print(fibonacci(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
