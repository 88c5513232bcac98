-- Peer of bench/general/pythagoras.tlc: Pythagorean triples a <= b < c <= N
-- by three nested loops, c advancing while c*c < a*a + b*b.
-- Usage: lua5.4|luajit pythagoras.lua N
local n = math.floor(tonumber(arg[1] or "0"))
local count, psum, a = 0, 0, 1
while a <= n do
  local b, c = a, a
  while b <= n do
    local s = a * a + b * b
    while c * c < s do c = c + 1 end
    if c > n then break end
    if c * c == s then
      count = count + 1
      psum = psum + a + b + c
    end
    b = b + 1
  end
  a = a + 1
end
print(string.format("%d", psum))
print(string.format("%d", count))
