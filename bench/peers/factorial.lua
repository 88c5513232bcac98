-- Peer of examples/factorial.tlc and bench/c/factorial.c for LuaJIT:
-- n! with 64-bit wrapping multiplication (0 for n >= 66, 1 for n <= 0).
-- Integers are LuaJIT int64_t cdata (the 0LL literal), whose arithmetic
-- wraps like C's: the same semantics as the C baseline.
-- Usage: luajit factorial.lua N   (prints the result as a decimal int64).
local n = tonumber(arg[1] or "0")
local acc = 1LL
for i = n, 1, -1 do
  acc = acc * i
end
print((tostring(acc):gsub("LL$", "")))
