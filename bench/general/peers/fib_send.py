# Peer of bench/general/fib_send.tlc: doubly recursive Fibonacci through
# method calls on one object that counts its calls.
# Usage: pypy3 fib_send.py N
import sys

sys.setrecursionlimit(10000)


class Fib(object):
    def __init__(self):
        self.calls = 0

    def fib(self, n):
        self.calls += 1
        if n < 2:
            return n
        return self.fib(n - 1) + self.fib(n - 2)


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
o = Fib()
r = o.fib(n)
print(o.calls)
print(r)
