-- A DBA's own sysbench workload, as suites/traffic.suite.ts measures it: a key-value store read and written by key.
-- One event is one transaction: read a key, then write it back changed (autocommit, as the application does).

sysbench.cmdline.options = {
  keys = { 'Keys in the store', 10000 },
}

local function create(con)
  con:query('DROP TABLE IF EXISTS kv')
  con:query('CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(64) NOT NULL)')
  local batch = {}
  for k = 1, sysbench.opt.keys do
    batch[#batch + 1] = string.format("(%d, 'value-%d')", k, k)
    if #batch == 1000 or k == sysbench.opt.keys then
      con:query('INSERT INTO kv (k, v) VALUES ' .. table.concat(batch, ','))
      batch = {}
    end
  end
end

function prepare()
  local drv = sysbench.sql.driver()
  local con = drv:connect()
  create(con)
  con:disconnect()
end

function cleanup()
  local con = sysbench.sql.driver():connect()
  con:query('DROP TABLE IF EXISTS kv')
  con:disconnect()
end

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function thread_done()
  con:disconnect()
end

function event()
  local k = sysbench.rand.uniform(1, sysbench.opt.keys)
  con:query('SELECT v FROM kv WHERE k = ' .. k)
  con:query(string.format("UPDATE kv SET v = 'value-%d-%d' WHERE k = %d", k, sysbench.rand.uniform(1, 1000000), k))
end
