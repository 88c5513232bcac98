-- Peer of bench/general/collatz.tlc: the first start below N with the
-- longest Collatz chain, and its number of terms.
-- Usage: lua5.4|luajit collatz.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local n = math.floor(tonumber(arg[1] or "0"))
local best, bl, s = 0, 0, 1
while s < n do
  local x, len = s, 1
  while x ~= 1 do
    if x == idiv(x, 2) * 2 then x = idiv(x, 2) else x = 3 * x + 1 end
    len = len + 1
  end
  if len > bl then best, bl = s, len end
  s = s + 1
end
print(string.format("%d", best))
print(string.format("%d", bl))
