"""Exact double-dummy solving of Paston play positions.

:class:`Solver` wraps the compiled core (C99): declarer against one or two
cooperating defenders, the "makes 6?" query, and max^n with the real scores of R7.
:mod:`paston.solver.reference` is the small pure-Python oracle it is tested against.

>>> from paston.solver import Position, Solver
>>> pos = Position.from_text(hands=["AS 7H", "KS 8H", "QS 9H"], trump="spades", declarer=0, leader=0)
>>> solver = Solver(memory_mb=1)
>>> solver.solve(pos).value, {str(c): v for c, v in solver.solve(pos).card_values.items()}
(1, {'AS': 1, '7H': 1})
"""

from paston.solver.api import MAXN_MIN_MEMORY_MB, MaxnSolution, Solution, Solver, default_solver
from paston.solver.position import Position, PositionError

__all__ = [
    "MAXN_MIN_MEMORY_MB",
    "MaxnSolution",
    "Position",
    "PositionError",
    "Solution",
    "Solver",
    "default_solver",
]
