-- Peer of bench/unseen/queue_stack.tlc: a queue (head, tail, size) and a
-- stack (top, size) of linked nodes {value, next}; values move from the
-- queue to the stack and both feed a checksum.
-- Usage: lua5.4|luajit queue_stack.lua N
local Q = {}
Q.__index = Q
function Q:enq(v)
  local n = { value = v, next = nil }
  if self.tail then self.tail.next = n else self.head = n end
  self.tail = n
  self.size = self.size + 1
end
function Q:deq()
  local h = self.head
  self.head = h.next
  if h.next == nil then self.tail = nil end
  self.size = self.size - 1
  return h.value
end
local S = {}
S.__index = S
function S:push(v)
  self.top = { value = v, next = self.top }
  self.size = self.size + 1
end
function S:pop()
  local t = self.top
  self.top = t.next
  self.size = self.size - 1
  return t.value
end

local n = math.floor(tonumber(arg[1] or "0"))
local M = 1000003
local q = setmetatable({ size = 0 }, Q)
local s = setmetatable({ size = 0 }, S)
local chk, i = 0, 0
while i < n do
  q:enq((i * 31) % 1009)
  if i % 3 == 2 then
    s:push(q:deq())
    chk = (chk * 31 + q:deq()) % M
  end
  if i % 5 == 4 then
    chk = (chk + s:pop() * 7) % M
  end
  i = i + 1
end
print(string.format("%d", q.size))
print(string.format("%d", s.size))
while q.size > 0 do chk = (chk * 31 + q:deq()) % M end
while s.size > 0 do chk = (chk + s:pop() * 7) % M end
print(string.format("%d", chk))
