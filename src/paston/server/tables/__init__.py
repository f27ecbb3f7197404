"""The live tables: each table's seats, deals, seeds and pause, the computer players and
hints at it, its messages to its clients, and its rows in the database. Imports the store
and the background work, never the web faces.

- :mod:`.manager` — ``TableManager``: one sequential executor per table over the action log;
- :mod:`.table` — ``Table``: one live table, its seats, its match, who is connected;
- :mod:`.seating` — seats, display names, seat tokens, the seat specifications of a new table;
- :mod:`.decks` — fair decks: the server's deal secrets and the seed rounds;
- :mod:`.seeds` — collecting the seats' seeds for the next deal;
- :mod:`.pause` — the finished deal on show until each person presses Next;
- :mod:`.commands` — the command ids a table remembers, so a command is applied once;
- :mod:`.seat_bots` — computer players and stand-ins at a table: when they act;
- :mod:`.hints` — hints at practice tables, computed in the bot pool;
- :mod:`.tablestore` — ``TableStore``: tables in the database, rebuilt from their rows;
- :mod:`.cache` — which finished games stay in memory;
- :mod:`.retire` — idle open tables retired from memory and the lobby;
- :mod:`.protocol` — the client messages of the live table, checked strictly;
- :mod:`.connection` — one client of a table and its outbox;
- :mod:`.messages` — each audience's next message (``state`` or ``update``), encoded once;
- :mod:`.serialize` — per-audience views as JSON.
"""
