"""Several ``paston serve`` workers as one server, coordinated through Redis.

Each table has one owner at a time: the worker holding its lease in Redis
(:mod:`.leases`) and its fencing token in the database (:mod:`.fencing`, checked when
each action is committed: :class:`paston.server.store.actionlog.ActionLog`). A worker accepts any
connection: for a table it does not own it is a gateway, tunnelling the WebSocket's
frames to the owner and the owner's messages back (:mod:`.tunnel`), over Redis pub/sub
(:mod:`.bus`); HTTP requests about a table are forwarded the same way (:mod:`.forward`).
:mod:`.node` ties them together: claiming, renewing and giving up leases, and taking
over the tables of a worker that died. Without a Redis URL none of this runs.
"""
