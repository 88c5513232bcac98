# Peer of bench/general/conslist.tlc: per round, a cons list (pairs
# (car, cdr)) of 100 numbers built from its end, reversed, summed with the
# head kept, and indexed at 50.
# Usage: pypy3 conslist.py N
import sys


def nth(l, k):
    while k > 0:
        l = l[1]
        k -= 1
    return l[0]


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
total, r = 0, n
while r > 0:
    l = None
    for k in range(100, 0, -1):
        l = (r + k, l)
    rev, p = None, l
    while p is not None:
        rev = (p[0], rev)
        p = p[1]
    s = 0
    p = rev
    while p is not None:
        s += p[0]
        p = p[1]
    total += s + nth(rev, 50)
    r -= 1
print(total)
