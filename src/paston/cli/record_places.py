"""Where a broken record is in its file, as an editor counts lines: a broken JSON Lines
game names its line, and a JSON syntax error its line and column in the file (the reader
counts them inside the one record it parsed); JSON's names of values, not Python's.

>>> game_lines("\\n{...}\\n\\n{...}\\n", 2), game_lines('\\n{\\n "a": 1\\n}\\n', 1)
([2, 4], [2])
>>> text = "\\n{}\\n\\n{bad\\n"
>>> for_file(RecordError("not valid JSON: Expecting value: line 1 column 2 (char 1)", game=1), text, [2, 4])
'game 1: not valid JSON: Expecting value: line 4 column 2 of the file'
>>> for_file(RecordError("a record must be a JSON object, not NoneType", game=0), "\\nnull\\n", [2])
'game 0: a record must be a JSON object, not null (line 2 of the file)'
"""

from __future__ import annotations

import re

from paston.errors import RecordError

__all__ = ["for_file", "game_lines"]

_JSON_AT = re.compile(r"line (\d+) column (\d+) \(char \d+\)")
_PYTHON_TYPE = re.compile(r"\bnot (NoneType|None|True|False|list|dict|str|int|float|bool)$")
_JSON_TYPE = {
    "NoneType": "null",
    "None": "null",
    "True": "true",
    "False": "false",
    "list": "an array",
    "dict": "an object",
    "str": "a string",
    "int": "a number",
    "float": "a number",
    "bool": "true or false",
}


def game_lines(text: str, games: int) -> list[int] | None:
    """The file line where each of ``games`` games starts: every non-blank line of a JSON
    Lines file, or the first non-blank line of a file holding one record."""
    nonblank = [n for n, line in enumerate(text.split("\n"), start=1) if line.strip()]
    if games == len(nonblank):
        return nonblank
    if games == 1 and nonblank:
        return nonblank[:1]
    return None


def for_file(error: RecordError, text: str, lines: list[int] | None) -> str:
    """The error with its place in the file and JSON's names of values (``null``, not
    Python's ``NoneType``)."""
    message = _PYTHON_TYPE.sub(lambda m: f"not {_JSON_TYPE[m.group(1)]}", error.message)
    where = RecordError(message, game=error.game, deal=error.deal, action=error.action, rule=error.rule)
    out = str(where)
    if lines is None or error.game is None or error.game >= len(lines):
        return out
    start = lines[error.game]
    one_per_line = len(lines) == sum(1 for line in text.split("\n") if line.strip())
    found = _JSON_AT.search(out)
    if found is not None:
        line, column = int(found.group(1)), int(found.group(2))
        if line == 1 and not one_per_line:  # one record: the reader parsed it without its indent
            first = text.split("\n")[start - 1]
            column += len(first) - len(first.lstrip())
        return (
            out[: found.start()] + f"line {start + line - 1} column {column} of the file" + out[found.end() :]
        )
    return f"{out} (line {start} of the file)" if one_per_line else out
