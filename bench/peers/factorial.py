# Peer of examples/factorial.tlc and bench/c/factorial.c for PyPy: n! with
# 64-bit wrapping multiplication (0 for n >= 66, 1 for n <= 0): the same
# semantics as the C baseline. Python integers have arbitrary precision; under
# PyPy, __pypy__.intop.int_mul multiplies machine words with wrap-around
# (masking with & 0xFFFFFFFFFFFFFFFF instead would leave machine words and
# run on big integers); elsewhere the product is masked and sign-corrected.
# Usage: pypy3 factorial.py N   (prints the result as a decimal int64).
import sys

try:
    from __pypy__.intop import int_mul
except ImportError:
    def int_mul(a, b):
        r = (a * b) & 0xFFFFFFFFFFFFFFFF
        return r - (1 << 64) if r >= 1 << 63 else r


def factorial(n):
    acc = 1
    i = n
    while i > 0:
        acc = int_mul(acc, i)
        i -= 1
    return acc


print(factorial(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
