-- POST /todos with a small JSON body.
wrk.path = "/todos"
wrk.method = "POST"
wrk.body = '{"title":"load test todo","done":false}'
wrk.headers["Content-Type"] = "application/json"
