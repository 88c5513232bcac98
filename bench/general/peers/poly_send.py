# Peer of bench/general/poly_send.tlc: a dispatch loop over a list (cons
# pairs) of eight objects of four classes, acc = obj.step(acc) N times.
# Usage: pypy3 poly_send.py N
import sys


class Add(object):
    def __init__(self, k):
        self.k = k

    def step(self, x):
        return x + self.k


class Mul(object):
    def __init__(self, k):
        self.k = k

    def step(self, x):
        return x * self.k


class Mod(object):
    def __init__(self, k):
        self.k = k

    def step(self, x):
        return x - (x // self.k) * self.k


class Half(object):
    def __init__(self, k):
        self.k = k

    def step(self, x):
        return x // 2 + self.k


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
m = 1000003
objs = [Add(7), Mul(3), Add(11), Mod(m), Half(1), Mul(5), Add(13), Mod(m)]
head = None
for o in reversed(objs):
    head = (o, head)
cur, acc, i = head, 0, n
while i > 0:
    if cur is None:
        cur = head
    acc = cur[0].step(acc)
    cur = cur[1]
    i -= 1
print(acc)
