-- Times every transaction of another sysbench script and, when each thread ends, prints its latencies as counts in
-- log-spaced buckets per 200 ms slot of wall-clock time. sysbench 1.0.20 prints one percentile per report line and
-- one histogram per run (both arms mixed); these counts can be pooled per arm segment instead
-- (src/workload/latency-lines.ts parses them, src/stats/latency-segments.ts pools them).
--
-- The script it wraps comes from the environment, since sysbench refuses options a script does not declare:
--   AUDITBENCH_LATENCY_INNER=oltp_read_write sysbench latency-wrapper.lua --threads=4 ... run
-- A name without a slash is a built-in test (found on package.path like oltp_common); anything else is a file.
--
-- Line format (one per thread and slot that saw transactions):
--   auditbench-latency <thread> <slot start, ms since the epoch> <bucket>:<count> ...
-- Bucket b holds latencies in [1 us * 2^(b/8), 1 us * 2^((b+1)/8)); bucket 0 also holds anything shorter.

local ffi = require("ffi")
ffi.cdef [[
  typedef long time_t;
  typedef struct { time_t tv_sec; long tv_nsec; } auditbench_timespec;
  int clock_gettime(int clock_id, auditbench_timespec *tp);
]]

local CLOCK_REALTIME = 0
local CLOCK_MONOTONIC = 1
local SLOT_MS = 200
local BUCKETS_PER_DOUBLING = 8
local BASE_MS = 0.001

local inner = os.getenv("AUDITBENCH_LATENCY_INNER")
if inner == nil or inner == "" then
  error("latency-wrapper.lua: set AUDITBENCH_LATENCY_INNER to the sysbench test or script to time")
end
if string.find(inner, "/", 1, true) then
  -- sysbench looks for a script's modules beside it; beside the wrapper they are not.
  local dir = string.match(inner, "^(.*)/[^/]*$")
  package.path = dir .. "/?.lua;" .. package.path
  dofile(inner)
else
  require(inner)
end

local now = ffi.new("auditbench_timespec")
local function clock_ms(clock)
  ffi.C.clock_gettime(clock, now)
  return tonumber(now.tv_sec) * 1000 + tonumber(now.tv_nsec) / 1e6
end

local scale = BUCKETS_PER_DOUBLING / math.log(2)
local function bucket_of(ms)
  if ms <= BASE_MS then return 0 end
  return math.floor(math.log(ms / BASE_MS) * scale)
end

-- slots[slot index] = { [bucket] = count }; one table per thread (each sysbench thread has its own Lua state).
local slots = {}
-- A transaction restarted after a deadlock (sysbench.error.RESTART_EVENT) is one transaction: it is timed from its
-- first attempt, as sysbench times it.
local pending_start = nil

local inner_event = event
-- Nothing to time (no global event()): run the script untouched; the missing lines say latency is unavailable.
if type(inner_event) ~= "function" then return end

function event(...)
  if pending_start == nil then pending_start = clock_ms(CLOCK_MONOTONIC) end
  local results = { inner_event(...) }
  local latency_ms = clock_ms(CLOCK_MONOTONIC) - pending_start
  pending_start = nil
  local slot = math.floor(clock_ms(CLOCK_REALTIME) / SLOT_MS)
  local counts = slots[slot]
  if counts == nil then
    counts = {}
    slots[slot] = counts
  end
  local b = bucket_of(latency_ms)
  counts[b] = (counts[b] or 0) + 1
  return unpack(results)
end

local inner_thread_done = thread_done

function thread_done(thread_id)
  if inner_thread_done then inner_thread_done(thread_id) end
  local order = {}
  for slot in pairs(slots) do order[#order + 1] = slot end
  table.sort(order)
  local lines = {}
  for _, slot in ipairs(order) do
    local parts = { "auditbench-latency", tostring(thread_id), string.format("%.0f", slot * SLOT_MS) }
    for b, count in pairs(slots[slot]) do parts[#parts + 1] = b .. ":" .. count end
    lines[#lines + 1] = table.concat(parts, " ")
  end
  -- One write per thread: glibc locks the stream per call, so threads' lines do not interleave.
  if #lines > 0 then
    io.write(table.concat(lines, "\n") .. "\n")
    io.flush()
  end
end
