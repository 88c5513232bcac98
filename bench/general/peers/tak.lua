-- Peer of bench/general/tak.tlc: the Takeuchi function through method calls
-- on one object that counts its calls; tak(N, 2N // 3, N // 3).
-- Usage: lua5.4|luajit tak.lua N
-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local Tak = {}
Tak.__index = Tak
function Tak:tak(x, y, z)
  self.calls = self.calls + 1
  if y < x then
    return self:tak(self:tak(x - 1, y, z), self:tak(y - 1, z, x), self:tak(z - 1, x, y))
  end
  return z
end

local n = math.floor(tonumber(arg[1] or "0"))
local o = setmetatable({ calls = 0 }, Tak)
local r = o:tak(n, idiv(2 * n, 3), idiv(n, 3))
print(string.format("%d", o.calls))
print(string.format("%d", r))
