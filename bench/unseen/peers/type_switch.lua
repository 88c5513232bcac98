-- Peer of bench/unseen/type_switch.tlc: one variable that holds a number,
-- nil, a cons list (pairs {car, cdr}) and an object in turn, switching
-- every three iterations; TLC's truthiness and EQ are written out.
-- Usage: lua5.4|luajit type_switch.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local Obj = {}   -- the metatable marks objects; lists are plain pairs

-- TLC's EQ: integers by value, nil and objects by identity, cons cells
-- structurally.
local function eq(a, b)
  if type(a) == "number" or type(b) == "number" then
    return type(a) == "number" and type(b) == "number" and a == b
  end
  if a == nil or b == nil then return a == b end
  local ao, bo = getmetatable(a) == Obj, getmetatable(b) == Obj
  if ao or bo then return a == b end
  return eq(a[1], b[1]) and eq(a[2], b[2])
end

local function truthy(v)
  if type(v) == "number" then return v ~= 0 end
  return v ~= nil
end

local function show(v)
  if v == nil then return "nil" end
  if type(v) == "number" then return string.format("%d", v) end
  if getmetatable(v) == Obj then return "<object>" end
  local parts = {}
  while v do parts[#parts + 1] = show(v[1]); v = v[2] end
  return "(" .. table.concat(parts, " ") .. ")"
end

local n = math.floor(tonumber(arg[1] or "0"))
local M = 1000003
local o = setmetatable({ v = 0 }, Obj)
local x, chk, eqs, i = 0, 0, 0, 0
while i < n do
  local prev = x
  local q = idiv(i, 3)
  local p = q % 4
  if p == 0 then x = (i * 7) % 1000
  elseif p == 1 then x = nil
  elseif p == 2 then x = { q, { q + 1, nil } }
  else o.v = i % 13; x = o end
  if truthy(x) then chk = chk + 1 end
  if eq(x, prev) then eqs = eqs + 1 end
  local k
  if p == 0 then k = x
  elseif p == 1 then k = 2
  elseif p == 2 then k = x[2][1]
  else k = x.v end
  chk = (chk * 3 + k) % M
  i = i + 1
end
print(string.format("%d", eqs))
print(show(x))
print(string.format("%d", chk))
