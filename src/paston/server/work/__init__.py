"""Background work: jobs given everything they need, done in worker processes (or threads)
away from the event loop. Nothing here knows a live table; it imports only the store.

- :mod:`.botjobs` — one computer player's decision (or a hint) as a self-contained job;
- :mod:`.botpool` — where computer players think: worker processes, or threads;
- :mod:`.deal_analysis` — each finished deal's analysis, computed in workers and stored;
- :mod:`.replay_story` — a game's replay as the engine tells it, every deal with all hands.
"""
