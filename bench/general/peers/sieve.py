# Peer of bench/general/sieve.tlc: the sieve of Eratosthenes on a chain of
# cells (objects linked by `next`), multiples marked by walking p cells at
# a time from p's cell.
# Usage: pypy3 sieve.py N
import sys


class Cell(object):
    def __init__(self, nxt):
        self.mark = False
        self.next = nxt


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
first = None
for k in range(n, 1, -1):
    first = Cell(first)
cell, p, count, s = first, 2, 0, 0
while cell is not None:
    if not cell.mark:
        count += 1
        s += p
        if p * p <= n:
            m = cell
            while m is not None:
                k = p
                while k > 0 and m is not None:
                    m = m.next
                    k -= 1
                if m is not None:
                    m.mark = True
    cell = cell.next
    p += 1
print(count)
print(s)
