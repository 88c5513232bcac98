# Peer of bench/general/pythagoras.tlc: Pythagorean triples a <= b < c <= N
# by three nested loops, c advancing while c*c < a*a + b*b.
# Usage: pypy3 pythagoras.py N
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
count, psum, a = 0, 0, 1
while a <= n:
    b, c = a, a
    while b <= n:
        s = a * a + b * b
        while c * c < s:
            c += 1
        if c > n:
            break
        if c * c == s:
            count += 1
            psum += a + b + c
        b += 1
    a += 1
print(psum)
print(count)
