-- Peer of bench/general/bintrees.tlc: the benchmarks game's binary-trees
-- with nodes as objects (tables with a metatable) built by a maker object
-- and checked by a method; lists printed as TLC prints them.
-- Usage: lua5.4|luajit bintrees.lua N
local Node = {}
Node.__index = Node
function Node:check()
  local l = self.left
  if l then return l:check() + self.right:check() + 1 end
  return 1
end

local Maker = {}
Maker.__index = Maker
function Maker:make(d)
  local node = setmetatable({}, Node)
  if d > 0 then
    node.left = self:make(d - 1)
    node.right = self:make(d - 1)
  end
  return node
end

local n = math.floor(tonumber(arg[1] or "0"))
local mk = setmetatable({}, Maker)
local max = n
if max < 6 then max = 6 end
print(string.format("(%d %d)", max + 1, mk:make(max + 1):check()))
local ll = mk:make(max)
for d = 4, max, 2 do
  local it = 1
  for _ = 1, max - d + 4 do it = it * 2 end
  local c = 0
  for _ = 1, it do c = c + mk:make(d):check() end
  print(string.format("(%d %d %d)", it, d, c))
end
local c = ll:check()
print(string.format("(%d %d)", max, c))
print(string.format("%d", c))
