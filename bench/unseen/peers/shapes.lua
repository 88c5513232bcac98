-- Peer of bench/unseen/shapes.tlc: a list (cons pairs {car, cdr}) of 15
-- shapes of five classes; every pass adds each shape's area to a total,
-- counts the areas above 100 and bumps one dimension of each shape.
-- Usage: lua5.4|luajit shapes.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local function class(area, bump)
  local c = { area = area, bump = bump }
  c.__index = c
  return c
end
local function inc(x, l) x = x + 1; if x >= l then return 1 end; return x end
local Square = class(function(o) return o.s * o.s end,
                     function(o) o.s = inc(o.s, 41) end)
local Rect = class(function(o) return o.w * o.h end,
                   function(o) o.w = inc(o.w, 31) end)
local Tri = class(function(o) return idiv(o.b * o.h, 2) end,
                  function(o) o.h = inc(o.h, 26) end)
local Circle = class(function(o) return idiv(o.r * o.r * 355, 113) end,
                     function(o) o.r = inc(o.r, 16) end)
local Trap = class(function(o) return idiv((o.a + o.b) * o.h, 2) end,
                   function(o) o.a = inc(o.a, 11) end)

local n = math.floor(tonumber(arg[1] or "0"))
local l = nil
for j = 14, 0, -1 do
  local k, d = j % 5, j + 1
  local o
  if k == 0 then o = setmetatable({ s = d }, Square)
  elseif k == 1 then o = setmetatable({ w = d, h = d + 2 }, Rect)
  elseif k == 2 then o = setmetatable({ b = d + 1, h = d }, Tri)
  elseif k == 3 then o = setmetatable({ r = d }, Circle)
  else o = setmetatable({ a = d, b = d + 3, h = 6 }, Trap) end
  l = { o, l }
end
local total, big = 0, 0
while n > 0 do
  local p = l
  while p do
    local o = p[1]
    local a = o:area()
    if a > 100 then big = big + 1 end
    total = total + a
    o:bump()
    p = p[2]
  end
  n = n - 1
end
print(string.format("%d", total))
print(string.format("%d", big))
