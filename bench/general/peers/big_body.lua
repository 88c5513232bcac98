-- Peer of bench/general/big_body.tlc (generated with it by
-- tools/gen_big_body.py): the same steps in one long loop body.
-- Usage: lua5.4|luajit big_body.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end
local M = 1000003
local function mod(x) return x - idiv(x, M) * M end

local function run(n)
  local a, b, c, d = 1, 2, 3, 4
  local i = 0
  while i < n do
    if c > b then c = c - b else c = c + 21 end
    c = mod(c - b)
    c = mod(c + d * 17)
    d = mod(d * 97 + b)
    a = mod(a - b)
    b = mod(b * 2 + c)
    c = mod(c + b * 55)
    b = mod(b + idiv(c, 81))
    c = mod(c + i * 33)
    a = mod(a + i * 75)
    c = mod(c - b)
    b = mod(b + d * 21)
    a = mod(a + idiv(d, 50))
    c = mod(c * 68 + d)
    c = mod(c + idiv(a, 87))
    d = mod(d + idiv(b, 9))
    b = mod(b * 9 + d)
    c = mod(c + i * 94)
    b = mod(b - d)
    a = mod(a - b)
    c = mod(c - d)
    a = mod(a + idiv(d, 20))
    c = mod(c * 3 + b)
    if d > b then d = d - b else d = d + 81 end
    if b > a then b = b - a else b = b + 32 end
    c = mod(c - b)
    a = mod(a + idiv(b, 38))
    b = mod(b + c * 80)
    i = i + 1
  end
  return a, b, c, d
end

local a, b, c, d = run(math.floor(tonumber(arg[1] or "0")))
print(string.format("%d", a))
print(string.format("%d", b))
print(string.format("%d", c))
print(string.format("%d", d))
