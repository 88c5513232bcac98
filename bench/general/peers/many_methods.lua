-- Peer of bench/general/many_methods.tlc: a loop calling twenty small
-- methods of one object in turn, x = o:mJ(x) for J = 0..19.
-- Usage: lua5.4|luajit many_methods.lua N

-- Floor division that LuaJIT (no // operator) and Lua 5.4 agree on;
-- exact while the values stay far below 2^53.
local function idiv(a, b) return math.floor(a / b) end

local C = {}
C.__index = C
function C:m0(x) return x + 1 end
function C:m1(x) return x + self.a end
function C:m2(x) return x * 3 end
function C:m3(x) return idiv(x, 2) end
function C:m4(x) return x - 7 end
function C:m5(x) self.c = self.c + 1; return x end
function C:m6(x) return x + self.c end
function C:m7(x) return x * 2 end
function C:m8(x) return x + 100 end
function C:m9(x) return idiv(x, 3) end
function C:m10(x) return x - idiv(x, self.m) * self.m end
function C:m11(x) self.a = idiv(x, 100000); return x end
function C:m12(x) return x + 5 end
function C:m13(x) return x * 5 end
function C:m14(x) return x - self.a end
function C:m15(x) return idiv(x, 4) end
function C:m16(x) return x + 12 end
function C:m17(x) return x * 7 end
function C:m18(x) return x + self.c end
function C:m19(x) return x - idiv(x, self.m) * self.m end

local n = math.floor(tonumber(arg[1] or "0"))
local o = setmetatable({ a = 0, c = 0, m = 1000003 }, C)
local i, x = n, 1
while i > 0 do
  x = o:m0(x); x = o:m1(x); x = o:m2(x); x = o:m3(x); x = o:m4(x)
  x = o:m5(x); x = o:m6(x); x = o:m7(x); x = o:m8(x); x = o:m9(x)
  x = o:m10(x); x = o:m11(x); x = o:m12(x); x = o:m13(x); x = o:m14(x)
  x = o:m15(x); x = o:m16(x); x = o:m17(x); x = o:m18(x); x = o:m19(x)
  i = i - 1
end
print(string.format("%d", o.a))
print(string.format("%d", o.c))
print(string.format("%d", x))
