-- Peer of bench/general/megamorphic.tlc: one call site that sees twelve
-- classes (metatables), acc = obj:apply(acc) mod 1000003 N times over a
-- list (cons pairs) of twelve objects visited in turn.
-- Usage: lua5.4|luajit megamorphic.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local applies = {
  function(self, x) return x + self.k end,
  function(self, x) return x * 2 end,
  function(self, x) return x * 3 + self.k end,
  function(self, x) return idiv(x, 2) end,
  function(self, x) return x - self.k end,
  function(self, x) return x + idiv(x, 3) end,
  function(self, x) return self.k - x end,
  function(self, x) return x * self.k end,
  function(self, x) return x + 100 end,
  function(self, x) return idiv(x, 7) * 5 end,
  function(self, x) return x + self.k * self.k end,
  function(self, x) self.n = self.n + 1; return x + self.n end,
}

local n = math.floor(tonumber(arg[1] or "0"))
local M = 1000003
local head = nil
for j = 12, 1, -1 do
  local c = { apply = applies[j] }
  c.__index = c
  local o = setmetatable({ k = j + 2 }, c)
  if j == 12 then o.n = 0 end
  head = { o, head }
end

local cur, acc, i = head, 1, n
while i > 0 do
  if cur == nil then cur = head end
  local y = cur[1]:apply(acc)
  acc = y - idiv(y, M) * M
  cur = cur[2]
  i = i - 1
end
print(string.format("%d", acc))
