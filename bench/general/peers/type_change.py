# Peer of bench/general/type_change.tlc: one variable that is an integer for
# 40 iterations, then a cons list (pairs (car, cdr)) for 40, then an integer
# again; y + x adds integers or concatenates lists, as TLC's ADD does.
# Usage: pypy3 type_change.py N
import sys


def add(b, a):
    """TLC's ADD: integers add; lists concatenate (b's cells copied, a shared)."""
    if isinstance(b, int):
        return b + a
    items = []
    while b is not None:
        items.append(b[0])
        b = b[1]
    for v in reversed(items):
        a = (v, a)
    return a


def nth(l, k):
    while k > 0:
        l = l[1]
        k -= 1
    return l[0]


def show(v):
    if isinstance(v, int):
        return str(v)
    parts = []
    while v is not None:
        parts.append(str(v[0]))
        v = v[1]
    return "(" + " ".join(parts) + ")"


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
x, i = 0, 0
while i < n:
    q = i % 120
    if q == 40:
        x = (x, None)
    elif q == 80:
        x = nth(x, 0) + nth(x, 40)
    y = (i, None) if 40 <= q < 80 else i
    x = add(y, x)
    i += 1
print(show(x))
