# Peer of bench/general/bintrees.tlc: the benchmarks game's binary-trees
# with nodes as objects built by a maker object and checked by a method;
# lists printed as TLC prints them.
# Usage: pypy3 bintrees.py N
import sys


class Node(object):
    def __init__(self):
        self.left = None
        self.right = None

    def check(self):
        l = self.left
        if l is not None:
            return l.check() + self.right.check() + 1
        return 1


class Maker(object):
    def make(self, d):
        node = Node()
        if d > 0:
            node.left = self.make(d - 1)
            node.right = self.make(d - 1)
        return node


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
mk = Maker()
mx = max(n, 6)
print("(%d %d)" % (mx + 1, mk.make(mx + 1).check()))
ll = mk.make(mx)
for d in range(4, mx + 1, 2):
    it = 1
    for _ in range(mx - d + 4):
        it *= 2
    c = 0
    for _ in range(it):
        c += mk.make(d).check()
    print("(%d %d %d)" % (it, d, c))
c = ll.check()
print("(%d %d)" % (mx, c))
print(c)
