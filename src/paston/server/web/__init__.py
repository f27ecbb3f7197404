"""The HTTP and WebSocket faces of the server and their limits, above every other room.

- :mod:`.app` — the ASGI application: the JSON API, the table WebSocket, the client's pages;
- :mod:`.http` — what every HTTP answer shares: the error shape, headers, the static files;
- :mod:`.websocket` — the live table WebSocket (``/ws/tables/{id}``);
- :mod:`.lobby` — the open tables a page at a time, and their changes as server-sent events;
- :mod:`.limits` — abuse limits: who a client is, table creation rates and caps;
- :mod:`.badinput` — bad input from clients logged in one short, rate-limited line;
- :mod:`.learn` — the scoring facts of the Learn to play page (``GET /api/scores``);
- :mod:`.replayjobs` — replays of posted records built in a worker, a few at a time.
"""
