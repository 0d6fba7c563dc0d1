-- GET /todos with a filter, a sort and a page of 20.
wrk.path = "/todos?done=false&limit=20"
