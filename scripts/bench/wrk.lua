-- wrk script for the Switchyard HTTP benchmark.
-- Usage: wrk -t2 -c64 -d10s -s wrk.lua http://127.0.0.1:PORT -- MODE SESSIONS_FILE THREADS
--   MODE: healthz | hello (GET /: the peer's hello world) | state | transition | transitionMinimal | deeplink |
--         busy (every connection on the first session: a push and a pop in one transition, valid in any order)
--   SESSIONS_FILE: lines "<session id> <todos coordinator node id>" (scripts/bench/sessions.py)
-- Every mode builds its requests in request() from precomputed strings, so wrk's own cost is the same for all
-- endpoints and their ratios compare the server only. Sessions are split between wrk threads, and each thread walks
-- its sessions round-robin: with hundreds of sessions per thread and at most 32 requests in flight per thread, two
-- requests for one session are never in flight together, so the push/pop alternation stays valid (every transition
-- is a committed change; non-2xx answers are counted and reported). wrk may build a request it never sends (a
-- connection set up again): the session's next pop then answers 409 once and the alternation is right again.

local next_thread = 0

function setup(thread)
  next_thread = next_thread + 1
  thread:set("thread_index", next_thread)
end

local requests = {}
local pushed = {}
local position = 0
local mode

function init(args)
  mode = args[1]
  local file = args[2]
  local threads = tonumber(args[3]) or 1
  local index = thread_index or 1
  local line_number = 0
  local headers = { ["Content-Type"] = "application/json" }
  for line in io.lines(file) do
    local session, node = line:match("^(%S+)%s+(%S+)")
    if session then
      line_number = line_number + 1
      if mode == "busy" then
        -- One session for every thread and connection: each request commits one version of it.
        if line_number == 1 then
          requests[1] = { get = wrk.format("POST", "/api/sessions/" .. session .. "/transitions", headers,
            '{"coordinator":"' .. node .. '","steps":[{"action":"push","route":"todo","input":"hello-world"},' ..
            '{"action":"pop"}]}') }
          pushed[1] = false
        end
      elseif (line_number - 1) % threads == index - 1 then
        local base = "/api/sessions/" .. session
        local entry = {}
        if mode == "healthz" then
          entry.get = wrk.format("GET", "/healthz")
        elseif mode == "hello" then
          entry.get = wrk.format("GET", "/")
        elseif mode == "state" then
          entry.get = wrk.format("GET", base)
        elseif mode == "transition" or mode == "transitionMinimal" then
          local post = headers
          if mode == "transitionMinimal" then
            post = { ["Content-Type"] = "application/json", ["Prefer"] = "return=minimal" }
          end
          entry.push = wrk.format("POST", base .. "/transitions", post,
            '{"coordinator":"' .. node .. '","steps":[{"action":"push","route":"todo","input":"hello-world"}]}')
          entry.pop = wrk.format("POST", base .. "/transitions", post,
            '{"coordinator":"' .. node .. '","steps":[{"action":"pop"}]}')
        elseif mode == "deeplink" then
          entry.get = wrk.format("POST", base .. "/deeplinks", headers, '{"url":"stinsenapp://todo/buy-milk"}')
        else
          error("unknown mode " .. tostring(mode))
        end
        requests[#requests + 1] = entry
        pushed[#requests] = false
      end
    end
  end
  if #requests == 0 then error("no sessions in " .. tostring(file)) end
end

function request()
  position = position % #requests + 1
  local entry = requests[position]
  if entry.get then return entry.get end
  local was_pushed = pushed[position]
  pushed[position] = not was_pushed
  if was_pushed then return entry.pop end
  return entry.push
end

function done(summary, latency, requests)
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests":%d,"duration_us":%d,"rps":%.1f,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}}\n',
    summary.requests, summary.duration, summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout))
end
