-- Peer of bench/general/queens.tlc: N-queens by backtracking through
-- method calls, the queens placed so far in a cons list (pairs).
-- Usage: lua5.4|luajit queens.lua N
local Solver = {}
Solver.__index = Solver

function Solver:safe(c, placed)
  local p, d = placed, 1
  while p do
    local q = p[1]
    if q == c or q == c + d or q == c - d then return false end
    p = p[2]
    d = d + 1
  end
  return true
end

function Solver:solve(row, placed)
  if row == self.n then return 1 end
  local count = 0
  for c = 0, self.n - 1 do
    if self:safe(c, placed) then count = count + self:solve(row + 1, { c, placed }) end
  end
  return count
end

local n = math.floor(tonumber(arg[1] or "0"))
local s = setmetatable({ n = n }, Solver)
print(string.format("%d", s:solve(0, nil)))
