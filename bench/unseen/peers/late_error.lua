-- Peer of bench/unseen/late_error.tlc: a list (pairs {car, cdr}) of N
-- numbers walked one step too far by a loop calling a:add(p); add(nil)
-- takes the car of nil, which ends the program with a message on stderr
-- and status 1, as TLC's TypeError does.
-- Usage: lua5.4|luajit late_error.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local A = {}
A.__index = A
function A:add(p)
  if p == nil then
    io.stdout:flush()
    io.stderr:write("TypeError: CAR of nil\n")
    os.exit(1)
  end
  self.total = self.total + p[1] * self.w
  self.w = self.w + 1
  if self.w > 7 then self.w = 1 end
end

local n = math.floor(tonumber(arg[1] or "0"))
local a = setmetatable({ total = 0, w = 1 }, A)
print(string.format("%d", n))
local l = nil
for k = n, 1, -1 do l = { ((k - 1) * (k - 1)) % 1000, l } end
local p, i = l, 0
local half = idiv(n, 2)
while i <= n do
  if i == half then print(string.format("%d", a.total)) end
  a:add(p)
  p = p[2]
  i = i + 1
end
print(string.format("%d", a.total))
