# Peer of bench/general/big_body.tlc (generated with it by
# tools/gen_big_body.py): the same steps in one long loop body.
# Usage: pypy3 big_body.py N
import sys

M = 1000003


def run(n):
    a, b, c, d = 1, 2, 3, 4
    i = 0
    while i < n:
        if c > b:
            c = c - b
        else:
            c = c + 21
        c = (c - b) % M
        c = (c + d * 17) % M
        d = (d * 97 + b) % M
        a = (a - b) % M
        b = (b * 2 + c) % M
        c = (c + b * 55) % M
        b = (b + c // 81) % M
        c = (c + i * 33) % M
        a = (a + i * 75) % M
        c = (c - b) % M
        b = (b + d * 21) % M
        a = (a + d // 50) % M
        c = (c * 68 + d) % M
        c = (c + a // 87) % M
        d = (d + b // 9) % M
        b = (b * 9 + d) % M
        c = (c + i * 94) % M
        b = (b - d) % M
        a = (a - b) % M
        c = (c - d) % M
        a = (a + d // 20) % M
        c = (c * 3 + b) % M
        if d > b:
            d = d - b
        else:
            d = d + 81
        if b > a:
            b = b - a
        else:
            b = b + 32
        c = (c - b) % M
        a = (a + b // 38) % M
        b = (b + c * 80) % M
        i += 1
    return a, b, c, d


a, b, c, d = run(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
print(a)
print(b)
print(c)
print(d)
