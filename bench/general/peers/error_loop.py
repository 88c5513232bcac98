# Peer of bench/general/error_loop.tlc: a loop summing o.share(i) = k // i
# for i = N down to 0, printing the sum half way; share(0) divides by zero,
# which ends the program with a message on stderr and status 1, as TLC's
# ZeroDivisionError does.
# Usage: pypy3 error_loop.py N
import sys


class O(object):
    def __init__(self):
        self.k = 1000000000

    def share(self, i):
        return self.k // i


def main(n):
    o = O()
    print(n)
    s, i = 0, n
    while i >= 0:
        if i == n // 2:
            print(s)
        s += o.share(i)
        i -= 1
    print(s)


try:
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
except ZeroDivisionError:
    sys.stdout.flush()
    sys.stderr.write("ZeroDivisionError: division by zero\n")
    sys.exit(1)
