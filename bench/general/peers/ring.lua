-- Peer of bench/general/ring.tlc: a ring of 1000 tables linked by `next`,
-- walked N steps: sum += node.value; node.value += 1; node = node.next.
-- Usage: lua5.4|luajit ring.lua N
local n = math.floor(tonumber(arg[1] or "0"))
local first = { value = 0 }
local prev = first
for j = 1, 999 do
  local node = { value = (j * j) % 101 }
  prev.next = node
  prev = node
end
prev.next = first

local node, sum, i = first, 0, n
while i > 0 do
  local v = node.value
  sum = sum + v
  node.value = v + 1
  node = node.next
  i = i - 1
end
print(string.format("%d", first.value))
print(string.format("%d", sum))
