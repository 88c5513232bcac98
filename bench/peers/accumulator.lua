-- Peer of examples/accumulator.tlc and bench/c/accumulator.c for LuaJIT: an
-- object with a `value` field whose class (metatable), chosen at run time
-- from the sign of n, gives its `accumulate` method; every call goes
-- through the method lookup obj:accumulate(i).
--   n >= 0: add   (value = value + x) for x = n, n-1, ..., 1;
--   n < 0:  count (value = value + 1), |n| times.
-- Numbers are Lua numbers (doubles): exact while the value stays below 2^53
-- (n(n+1)/2 for n up to about 1.3e8), rounded beyond, where the C baseline
-- wraps at 64 bits.
-- Usage: luajit accumulator.lua N
local Add = {}
Add.__index = Add
function Add:accumulate(x) self.value = self.value + x end

local Count = {}
Count.__index = Count
function Count:accumulate(_) self.value = self.value + 1 end

local n = tonumber(arg[1] or "0")
local obj, i
if n < 0 then
  obj, i = setmetatable({}, Count), -n
else
  obj, i = setmetatable({}, Add), n
end
obj.value = 0
while i > 0 do
  obj:accumulate(i)
  i = i - 1
end
print(string.format("%.0f", obj.value))
