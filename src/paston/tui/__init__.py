"""The full-screen terminal app of ``paston play`` (Textual): :mod:`paston.tui.session`
drives the game, :mod:`paston.tui.look` draws cards and seats, :mod:`paston.tui.app` is
the screen."""
