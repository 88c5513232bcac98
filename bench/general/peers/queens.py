# Peer of bench/general/queens.tlc: N-queens by backtracking through
# method calls, the queens placed so far in a cons list (pairs).
# Usage: pypy3 queens.py N
import sys


class Solver(object):
    def __init__(self, n):
        self.n = n

    def safe(self, c, placed):
        p, d = placed, 1
        while p is not None:
            q = p[0]
            if q == c or q == c + d or q == c - d:
                return False
            p = p[1]
            d += 1
        return True

    def solve(self, row, placed):
        if row == self.n:
            return 1
        count = 0
        for c in range(self.n):
            if self.safe(c, placed):
                count += self.solve(row + 1, (c, placed))
        return count


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
print(Solver(n).solve(0, None))
