"""A club night's movements, arrivals and rankings: pure Python, typed, no Flask or database.

- `movements`: who sits where, round by round (Mitchell, round robin), and a seating's checks;
- `arrival`: a pair that arrives in a night of an even number of pairs;
- `rankings`: every pair's place, from the games of the rounds.
"""

from .arrival import ARRIVAL_SEARCH, with_arrival
from .movements import (
    Direction,
    Movement,
    MovementError,
    Round,
    Seat,
    SeatingProblem,
    meetings,
    mitchell,
    most_rounds,
    movement,
    round_robin,
    seating_problems,
    sitting_out,
    tables_for,
)
from .rankings import DEFAULT_RANKING, Game, Ranking, Score, Standing, standings

__all__ = [
    "ARRIVAL_SEARCH",
    "DEFAULT_RANKING",
    "Direction",
    "Game",
    "Movement",
    "MovementError",
    "Ranking",
    "Round",
    "Score",
    "Seat",
    "SeatingProblem",
    "Standing",
    "meetings",
    "mitchell",
    "most_rounds",
    "movement",
    "round_robin",
    "seating_problems",
    "sitting_out",
    "standings",
    "tables_for",
    "with_arrival",
]
