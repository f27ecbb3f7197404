"""The full-screen terminal app of ``paston play`` (Textual).

- :mod:`paston.tui.session` — the game in progress: the match, the people, the computer
  players, the record saved; no drawing;
- :mod:`paston.tui.words` — the words in the player's language, from the web client's
  translations;
- :mod:`paston.tui.look` — cards in colour, seats' roles, the ladder, a deal's end;
- :mod:`paston.tui.draw` — the table's texts (status line, opponents, trick, score, keys);
- :mod:`paston.tui.widgets` — a choice, a dialog, how the app ends;
- :mod:`paston.tui.table_app` — the screen and its keys.
"""
