-- Peer of bench/unseen/state_machine.tlc: a five-state machine driven
-- through twelve tiny methods of one object.
-- Usage: lua5.4|luajit state_machine.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local C = {}
C.__index = C
function C:gx() return self.x end
function C:gy() return self.y end
function C:gs() return self.st end
function C:sx(v) self.x = v end
function C:sy(v) self.y = v end
function C:ss(v) self.st = v end
function C:inc() self.x = self.x + 1 end
function C:dbl() self.x = self.x * 2 end
function C:half() self.x = idiv(self.x, 2) end
function C:addy() self.x = self.x + self.y end
function C:mix() self.y = (self.y * 5 + self.x) % 1009 end
function C:tick() self.cnt = self.cnt + 1 end

local n = math.floor(tonumber(arg[1] or "0"))
local M = 1000003
local o = setmetatable({ x = 1, y = 3, st = 0, cnt = 0 }, C)
local chk, i = 0, 0
while i < n do
  local s = o:gs()
  chk = (chk * 7 + s) % M
  if s == 0 then
    o:inc(); o:addy()
    if o:gx() > 1000 then o:ss(1) else o:ss(2) end
  elseif s == 1 then
    o:half(); o:mix(); o:ss(3)
  elseif s == 2 then
    o:dbl(); o:tick(); o:ss(o:gx() % 4)
  elseif s == 3 then
    o:sy(o:gy() + 1)
    if o:gy() % 2 == 0 then o:ss(0) else o:ss(4) end
  else
    o:sx(o:gx() % 997); o:tick(); o:ss(0)
  end
  i = i + 1
end
print(string.format("%d", o:gx()))
print(string.format("%d", o:gy()))
print(string.format("%d", o.cnt))
print(string.format("%d", chk))
