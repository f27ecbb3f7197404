"""The program's side of the server's protocol: what a terminal, a bot or a researcher's
agent needs to sit at a table of a running ``paston serve`` (docs/guide/protocol.md).

- :mod:`paston.client.remote_view` — a seat's view rebuilt from the JSON the server sends, the
  same :class:`~paston.views.DealView` the engine gives a computer player.
"""
