-- Peer of bench/general/error_loop.tlc: a loop summing o:share(i) = k // i
-- for i = N down to 0, printing the sum half way; share(0) divides by zero,
-- which ends the program with a message on stderr and status 1, as TLC's
-- ZeroDivisionError does.
-- Usage: lua5.4|luajit error_loop.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53; 0 is an error.
local function idiv(a, b)
  if b == 0 then
    io.stdout:flush()
    io.stderr:write("ZeroDivisionError: division by zero\n")
    os.exit(1)
  end
  return math.floor(a / b)
end

local O = {}
O.__index = O
function O:share(i) return idiv(self.k, i) end

local n = math.floor(tonumber(arg[1] or "0"))
local o = setmetatable({ k = 1000000000 }, O)
print(string.format("%d", n))
local s, i = 0, n
local half = idiv(n, 2)
while i >= 0 do
  if i == half then print(string.format("%d", s)) end
  s = s + o:share(i)
  i = i - 1
end
print(string.format("%d", s))
