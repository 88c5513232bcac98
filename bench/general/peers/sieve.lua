-- Peer of bench/general/sieve.tlc: the sieve of Eratosthenes on a chain of
-- cells (tables linked by `next`), multiples marked by walking p cells at a
-- time from p's cell.
-- Usage: lua5.4|luajit sieve.lua N
local n = math.floor(tonumber(arg[1] or "0"))
local first = nil
for k = n, 2, -1 do first = { mark = false, next = first } end

local cell, p, count, sum = first, 2, 0, 0
while cell do
  if not cell.mark then
    count = count + 1
    sum = sum + p
    if p * p <= n then
      local m = cell
      while m do
        local k = p
        while k > 0 and m do m = m.next; k = k - 1 end
        if m then m.mark = true end
      end
    end
  end
  cell = cell.next
  p = p + 1
end
print(string.format("%d", count))
print(string.format("%d", sum))
