-- Peer of bench/general/type_change.tlc: one variable that is a number for
-- 40 iterations, then a cons list (pairs {car, cdr}) for 40, then a number
-- again; y + x adds numbers or concatenates lists, as TLC's ADD does.
-- Usage: lua5.4|luajit type_change.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

-- TLC's ADD: numbers add; lists concatenate (b's cells copied, a shared).
local function add(b, a)
  if type(b) == "number" then return b + a end
  if b == nil then return a end
  local head = { b[1], nil }
  local last = head
  b = b[2]
  while b do
    local c = { b[1], nil }
    last[2] = c
    last = c
    b = b[2]
  end
  last[2] = a
  return head
end

local function nth(l, k)
  while k > 0 do l = l[2]; k = k - 1 end
  return l[1]
end

local function show(v)
  if type(v) == "number" then return string.format("%d", v) end
  local parts = {}
  while v do parts[#parts + 1] = string.format("%d", v[1]); v = v[2] end
  return "(" .. table.concat(parts, " ") .. ")"
end

local n = math.floor(tonumber(arg[1] or "0"))
local x, i = 0, 0
while i < n do
  local q = i - idiv(i, 120) * 120
  if q == 40 then
    x = { x, nil }
  elseif q == 80 then
    x = nth(x, 0) + nth(x, 40)
  end
  local y
  if q >= 40 and q < 80 then y = { i, nil } else y = i end
  x = add(y, x)
  i = i + 1
end
print(show(x))
