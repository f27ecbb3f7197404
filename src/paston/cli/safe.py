"""Text from people and records made safe to print: one helper, :func:`shown`.

A name comes from whoever typed it (``--name``, ``--players``, a web player saved in a
record), so it may hold anything. The command's consoles never read markup
(:func:`paston.cli.common.out_console`), so brackets print as they are; :func:`shown`
replaces what could still rewrite the terminal: control characters (escape sequences,
carriage returns, newlines), the bidirectional overrides and isolates that reorder the
rest of a line, line and paragraph separators, and lone surrogates that cannot be
encoded. Each becomes U+FFFD (``�``), so the reader sees that something was there.

>>> shown("A[/b]"), shown("[bold red]x"), shown("Ana\\x1b[2J"), shown("a\\u202eb")
('A[/b]', '[bold red]x', 'Ana�[2J', 'a�b')
>>> shown("Ана Պողոս 太郎")
'Ана Պողոս 太郎'

Help text is different: Typer renders it as Rich markup, so :func:`for_help` escapes
its brackets.

>>> for_help("pip install 'paston[cluster]'")
"pip install 'paston\\\\[cluster]'"
"""

from __future__ import annotations

import re

from rich.markup import escape

REPLACEMENT = "\ufffd"
"""What each unsafe character becomes."""

# Cc (C0, DEL, C1), Cs (surrogates), Zl and Zp, and the bidirectional controls
_UNSAFE = re.compile(
    "[\x00-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def unsafe(ch: str) -> bool:
    """Whether the character ``ch`` could rewrite the terminal or the line around it.

    >>> unsafe("\\n"), unsafe("\\x9b"), unsafe("\\u2067"), unsafe("["), unsafe("é")
    (True, True, True, False, False)
    """
    return _UNSAFE.fullmatch(ch) is not None


def shown(text: object, *, keep_newlines: bool = False) -> str:
    """``text`` (a string, or anything with a ``str``) with every unsafe character
    replaced by U+FFFD; ``keep_newlines`` keeps ``\\n`` (for the command's own lines).

    >>> shown("two\\nlines"), shown("two\\nlines", keep_newlines=True), shown(7)
    ('two�lines', 'two\\nlines', '7')
    """
    value = str(text)
    if keep_newlines:
        return "\n".join(_UNSAFE.sub(REPLACEMENT, part) for part in value.split("\n"))
    return _UNSAFE.sub(REPLACEMENT, value)


def for_help(text: str) -> str:
    """Help text for Typer's Rich renderer: brackets escaped, so ``[cluster]`` stays."""
    return escape(text)


__all__ = ["REPLACEMENT", "for_help", "shown", "unsafe"]
