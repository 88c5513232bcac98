# Peer of bench/general/many_methods.tlc: a loop calling twenty small
# methods of one object in turn, x = o.mJ(x) for J = 0..19.
# Usage: pypy3 many_methods.py N
import sys


class C(object):
    def __init__(self):
        self.a = 0
        self.c = 0
        self.m = 1000003

    def m0(self, x): return x + 1
    def m1(self, x): return x + self.a
    def m2(self, x): return x * 3
    def m3(self, x): return x // 2
    def m4(self, x): return x - 7

    def m5(self, x):
        self.c += 1
        return x

    def m6(self, x): return x + self.c
    def m7(self, x): return x * 2
    def m8(self, x): return x + 100
    def m9(self, x): return x // 3
    def m10(self, x): return x - (x // self.m) * self.m

    def m11(self, x):
        self.a = x // 100000
        return x

    def m12(self, x): return x + 5
    def m13(self, x): return x * 5
    def m14(self, x): return x - self.a
    def m15(self, x): return x // 4
    def m16(self, x): return x + 12
    def m17(self, x): return x * 7
    def m18(self, x): return x + self.c
    def m19(self, x): return x - (x // self.m) * self.m


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
o = C()
i, x = n, 1
while i > 0:
    x = o.m0(x); x = o.m1(x); x = o.m2(x); x = o.m3(x); x = o.m4(x)
    x = o.m5(x); x = o.m6(x); x = o.m7(x); x = o.m8(x); x = o.m9(x)
    x = o.m10(x); x = o.m11(x); x = o.m12(x); x = o.m13(x); x = o.m14(x)
    x = o.m15(x); x = o.m16(x); x = o.m17(x); x = o.m18(x); x = o.m19(x)
    i -= 1
print(o.a)
print(o.c)
print(x)
