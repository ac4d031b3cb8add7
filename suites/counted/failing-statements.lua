-- auditbench's own traffic for the counted suite: per transaction, one point select on the OLTP tables and one
-- statement the server refuses (unknown table, errno 1146), the kind of failing traffic SQL_ERROR_LOG records.
-- The tables are sbtest1 of the suite's OLTP load; nothing here prepares or changes them.

function thread_init()
  drv = sysbench.sql.driver()
  con = drv:connect()
end

function thread_done()
  con:disconnect()
end

function event()
  con:query("SELECT c FROM sbtest1 WHERE id = " .. sysbench.rand.uniform(1, 10000))
  -- The error is the point: caught here so sysbench does not count it as its own failure.
  pcall(con.query, con, "SELECT c FROM auditbench_missing_table WHERE id = 1")
end
