# Peer of bench/general/tak.tlc: the Takeuchi function through method calls
# on one object that counts its calls; tak(N, 2N // 3, N // 3).
# Usage: pypy3 tak.py N
import sys

sys.setrecursionlimit(10000)


class Tak(object):
    def __init__(self):
        self.calls = 0

    def tak(self, x, y, z):
        self.calls += 1
        if y < x:
            return self.tak(self.tak(x - 1, y, z), self.tak(y - 1, z, x), self.tak(z - 1, x, y))
        return z


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
o = Tak()
r = o.tak(n, (2 * n) // 3, n // 3)
print(o.calls)
print(r)
