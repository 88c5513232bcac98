-- Peer of examples/fibonacci.tlc and bench/c/fibonacci.c for LuaJIT:
-- fib(n) (fib(0) = 0, fib(1) = 1; 0 for n <= 0) with 64-bit wrapping
-- addition. The pair lives in an int64_t[2] FFI array, whose arithmetic
-- wraps like C's: the same semantics as the C baseline. (Two int64_t cdata
-- locals, a, b = b, a + b, are boxed on every iteration: 30x slower.)
-- Usage: luajit fibonacci.lua N   (prints the result as a decimal int64).
local ffi = require("ffi")
local n = tonumber(arg[1] or "0")
local v = ffi.new("int64_t[2]", 0, 1)
for _ = n, 1, -1 do
  local s = v[0] + v[1]
  v[0] = v[1]
  v[1] = s
end
print((tostring(v[0]):gsub("LL$", "")))
