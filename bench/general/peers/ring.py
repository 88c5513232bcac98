# Peer of bench/general/ring.tlc: a ring of 1000 objects linked by `next`,
# walked N steps: sum += node.value; node.value += 1; node = node.next.
# Usage: pypy3 ring.py N
import sys


class Node(object):
    def __init__(self, value):
        self.value = value
        self.next = None


n = int(sys.argv[1]) if len(sys.argv) > 1 else 0
first = Node(0)
prev = first
for j in range(1, 1000):
    node = Node((j * j) % 101)
    prev.next = node
    prev = node
prev.next = first

node, s, i = first, 0, n
while i > 0:
    v = node.value
    s += v
    node.value = v + 1
    node = node.next
    i -= 1
print(first.value)
print(s)
