# Peer of bench/general/collatz.tlc: the first start below N with the
# longest Collatz chain, and its number of terms.
# Usage: pypy3 collatz.py N
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
best, bl, s = 0, 0, 1
while s < n:
    x, ln = s, 1
    while x != 1:
        if x == (x // 2) * 2:
            x = x // 2
        else:
            x = 3 * x + 1
        ln += 1
    if ln > bl:
        best, bl = s, ln
    s += 1
print(best)
print(bl)
