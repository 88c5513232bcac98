-- Peer of bench/general/conslist.tlc: per round, a cons list (pairs
-- {car, cdr}) of 100 numbers built from its end, reversed, summed with the
-- head kept, and indexed at 50.
-- Usage: lua5.4|luajit conslist.lua N
local function nth(l, k)
  while k > 0 do l = l[2]; k = k - 1 end
  return l[1]
end

local n = math.floor(tonumber(arg[1] or "0"))
local total, r = 0, n
while r > 0 do
  local l = nil
  for k = 100, 1, -1 do l = { r + k, l } end
  local rev, p = nil, l
  while p do rev = { p[1], rev }; p = p[2] end
  local s = 0
  p = rev
  while p do s = s + p[1]; p = p[2] end
  total = total + s + nth(rev, 50)
  r = r - 1
end
print(string.format("%d", total))
