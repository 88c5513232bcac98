# Peer of examples/accumulator.tlc and bench/c/accumulator.c for PyPy: an
# object with a `value` attribute whose class, chosen at run time from the
# sign of n, gives its `accumulate` method; every call is a method call
# obj.accumulate(i).
#   n >= 0: Add   (value = value + x) for x = n, n-1, ..., 1;
#   n < 0:  Count (value = value + 1), |n| times.
# 64-bit wrapping addition as in the C baseline: __pypy__.intop.int_add under
# PyPy (machine words), masked and sign-corrected elsewhere.
# Usage: pypy3 accumulator.py N
import sys

try:
    from __pypy__.intop import int_add, int_sub
except ImportError:
    def wrap(r):
        r &= 0xFFFFFFFFFFFFFFFF
        return r - (1 << 64) if r >= 1 << 63 else r

    def int_add(a, b):
        return wrap(a + b)

    def int_sub(a, b):
        return wrap(a - b)


class Add(object):
    def __init__(self):
        self.value = 0

    def accumulate(self, x):
        self.value = int_add(self.value, x)


class Count(object):
    def __init__(self):
        self.value = 0

    def accumulate(self, x):
        self.value = int_add(self.value, 1)


def accumulator(n):
    if n < 0:
        obj, i = Count(), int_sub(0, n)
    else:
        obj, i = Add(), n
    while i > 0:
        obj.accumulate(i)
        i -= 1
    return obj.value


print(accumulator(int(sys.argv[1]) if len(sys.argv) > 1 else 0))
