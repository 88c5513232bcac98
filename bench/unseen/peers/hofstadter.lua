-- Peer of bench/unseen/hofstadter.tlc: Hofstadter's Female and Male
-- sequences by mutual recursion between two objects, summed for
-- i = 0 .. N-1, with a call counter in each object.
-- Usage: lua5.4|luajit hofstadter.lua N
local F = {}
F.__index = F
function F:val(n)
  self.calls = self.calls + 1
  if n == 0 then return 1 end
  return n - self.other:val(self:val(n - 1))
end
local M = {}
M.__index = M
function M:val(n)
  self.calls = self.calls + 1
  if n == 0 then return 0 end
  return n - self.other:val(self:val(n - 1))
end

local n = math.floor(tonumber(arg[1] or "0"))
local f = setmetatable({ calls = 0 }, F)
local m = setmetatable({ calls = 0 }, M)
f.other = m
m.other = f
local sf, sm, i = 0, 0, 0
while i < n do
  sf = sf + f:val(i)
  sm = sm + m:val(i)
  i = i + 1
end
print(string.format("%d", sf))
print(string.format("%d", sm))
print(string.format("%d", f.calls + m.calls))
