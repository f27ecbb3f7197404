"""The Paston web server: tables, seats, live play over WebSockets, storage.

The action log in the database is the truth: every accepted action is committed
before it is broadcast, and a restarted server rebuilds every table from it.

The server is in rooms, each importing only the rooms below it (checked by
``tests/test_architecture.py``):

- :mod:`paston.server.table_error` — ``TableError``, the one error every room answers with;
- :mod:`paston.server.store` — the database: its models, the action log, the migrations;
- :mod:`paston.server.work` — work given all it needs and done away from the event loop
  (computer players' decisions, deal analyses, replay stories), knowing no live table;
- :mod:`paston.server.tables` — the live tables: seats, decks and seeds, the pause, the
  computer players and hints at a table, the tables kept in the database;
- :mod:`paston.server.web` — the HTTP and WebSocket faces and their limits;
- :mod:`paston.server.cluster` — many workers as one server (over tables, store and the
  web's faces; only :mod:`paston.server.web.app` imports it).

The browser client's files are in ``paston/server/static``.
"""
