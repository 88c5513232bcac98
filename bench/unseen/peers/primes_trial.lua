-- Peer of bench/unseen/primes_trial.tlc: the primes below N by trial
-- division, counted, and tallied by their last digit (1, 3, 7, 9).
-- Usage: lua5.4|luajit primes_trial.lua N
local n = math.floor(tonumber(arg[1] or "0"))
local c1, c3, c7, c9, cnt = 0, 0, 0, 0, 0
local k = 2
while k < n do
  local prime
  if k < 4 then
    prime = true
  elseif k % 2 == 0 then
    prime = false
  else
    prime = true
    local d = 3
    while d * d <= k do
      if k % d == 0 then prime = false; break end
      d = d + 2
    end
  end
  if prime then
    cnt = cnt + 1
    local r = k % 10
    if r == 1 then c1 = c1 + 1
    elseif r == 3 then c3 = c3 + 1
    elseif r == 7 then c7 = c7 + 1
    elseif r == 9 then c9 = c9 + 1 end
  end
  k = k + 1
end
print(string.format("%d", c1))
print(string.format("%d", c3))
print(string.format("%d", c7))
print(string.format("%d", c9))
print(string.format("%d", cnt))
