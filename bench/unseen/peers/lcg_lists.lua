-- Peer of bench/unseen/lcg_lists.tlc: five rounds of a cons list (pairs
-- {car, cdr}) of N Park-Miller random numbers, built, reversed, scanned
-- against a threshold, filtered (multiples of 3) and indexed.
-- Usage: lua5.4|luajit lcg_lists.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53 (here below 2^46).
local function idiv(a, b) return math.floor(a / b) end

local function nth(l, k)
  while k > 0 do l = l[2]; k = k - 1 end
  return l[1]
end

local n = math.floor(tonumber(arg[1] or "0"))
local M, m, a, t = 1000003, 2147483647, 16807, 1073741824
local x, chk, hi, lo = 42, 0, 0, 0
for _ = 1, 5 do
  local l = nil
  for _ = 1, n do
    x = (x * a) % m
    l = { x, l }
  end
  local rev, p = nil, l
  while p do rev = { p[1], rev }; p = p[2] end
  local f, c = nil, 0
  p = rev
  while p do
    local v = p[1]
    if v > t then hi = hi + 1 else lo = lo + v % 1000 end
    if v % 3 == 0 then f = { v, f }; c = c + 1 end
    p = p[2]
  end
  if c > 0 then chk = (chk * 31 + nth(f, idiv(c, 2))) % M end
end
print(string.format("%d", hi))
print(string.format("%d", lo))
print(string.format("%d", chk))
