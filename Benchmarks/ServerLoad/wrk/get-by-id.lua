-- GET /todos/:id for ids spread over the seeded rows (SERVER_LOAD_ROWS, default 10000).
local rows = tonumber(os.getenv("SERVER_LOAD_ROWS") or "10000")
request = function()
  return wrk.format("GET", "/todos/" .. math.random(1, rows))
end
