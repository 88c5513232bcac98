# Peer of bench/general/megamorphic.tlc: one call site that sees twelve
# classes, acc = obj.apply(acc) mod 1000003 N times over a list (cons pairs)
# of twelve objects visited in turn.
# Usage: pypy3 megamorphic.py N
import sys


class C0(object):
    def apply(self, x): return x + self.k


class C1(object):
    def apply(self, x): return x * 2


class C2(object):
    def apply(self, x): return x * 3 + self.k


class C3(object):
    def apply(self, x): return x // 2


class C4(object):
    def apply(self, x): return x - self.k


class C5(object):
    def apply(self, x): return x + x // 3


class C6(object):
    def apply(self, x): return self.k - x


class C7(object):
    def apply(self, x): return x * self.k


class C8(object):
    def apply(self, x): return x + 100


class C9(object):
    def apply(self, x): return (x // 7) * 5


class C10(object):
    def apply(self, x): return x + self.k * self.k


class C11(object):
    def apply(self, x):
        self.n += 1
        return x + self.n


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
M = 1000003
classes = [C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11]
head = None
for j in range(11, -1, -1):
    o = classes[j]()
    o.k = j + 3
    if j == 11:
        o.n = 0
    head = (o, head)
cur, acc, i = head, 1, n
while i > 0:
    if cur is None:
        cur = head
    y = cur[0].apply(acc)
    acc = y % M
    cur = cur[1]
    i -= 1
print(acc)
