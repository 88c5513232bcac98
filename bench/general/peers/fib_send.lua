-- Peer of bench/general/fib_send.tlc: doubly recursive Fibonacci through
-- method calls on one object that counts its calls.
-- Usage: lua5.4|luajit fib_send.lua N
local Fib = {}
Fib.__index = Fib
function Fib:fib(n)
  self.calls = self.calls + 1
  if n < 2 then return n end
  return self:fib(n - 1) + self:fib(n - 2)
end

local n = math.floor(tonumber(arg[1] or "0"))
local o = setmetatable({ calls = 0 }, Fib)
local r = o:fib(n)
print(string.format("%d", o.calls))
print(string.format("%d", r))
