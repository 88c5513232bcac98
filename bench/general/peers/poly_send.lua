-- Peer of bench/general/poly_send.tlc: a dispatch loop over a list (cons
-- pairs) of eight objects of four classes, acc = obj:step(acc) N times.
-- Usage: lua5.4|luajit poly_send.lua N
-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local function class(step)
  local c = { step = step }
  c.__index = c
  return c
end
local Add = class(function(self, x) return x + self.k end)
local Mul = class(function(self, x) return x * self.k end)
local Mod = class(function(self, x) return x - idiv(x, self.k) * self.k end)
local Half = class(function(self, x) return idiv(x, 2) + self.k end)

local function new(c, k) return setmetatable({ k = k }, c) end

local n = math.floor(tonumber(arg[1] or "0"))
local m = 1000003
local objs = { new(Add, 7), new(Mul, 3), new(Add, 11), new(Mod, m),
               new(Half, 1), new(Mul, 5), new(Add, 13), new(Mod, m) }
local head = nil
for j = #objs, 1, -1 do head = { objs[j], head } end

local cur, acc, i = head, 0, n
while i > 0 do
  if cur == nil then cur = head end
  acc = cur[1]:step(acc)
  cur = cur[2]
  i = i - 1
end
print(string.format("%d", acc))
