"""A club night's movements, arrivals and rankings: pure Python, typed, no Flask or database.

- `movements`: who sits where, round by round (Mitchell, round robin), and a seating's checks;
- `arrival`: a pair that arrives in a night of an even number of pairs;
- `record`: a round as it was played (who sat where, sat out, had left);
- `rankings`: every pair's place, from the games of the rounds;
- `seasons`: a club's season, its players and pairs ranked across its nights by the club's rule.
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
from .rankings import (
    DEFAULT_RANKING,
    Counting,
    Game,
    Ranking,
    Score,
    Standing,
    countings,
    default_counting,
    finished,
    standings,
)
from .record import Presence, as_played, presence, recorded_before
from .seasons import (
    Measure,
    Outcome,
    Rule,
    Season,
    SeasonError,
    SeasonStanding,
    night_figures,
    outcomes,
    rank,
)

__all__ = [
    "ARRIVAL_SEARCH",
    "DEFAULT_RANKING",
    "Counting",
    "Direction",
    "Game",
    "Measure",
    "Movement",
    "MovementError",
    "Outcome",
    "Presence",
    "Ranking",
    "Round",
    "Rule",
    "Score",
    "Season",
    "SeasonError",
    "SeasonStanding",
    "Seat",
    "SeatingProblem",
    "Standing",
    "as_played",
    "countings",
    "default_counting",
    "finished",
    "meetings",
    "mitchell",
    "most_rounds",
    "movement",
    "night_figures",
    "outcomes",
    "presence",
    "rank",
    "recorded_before",
    "round_robin",
    "seating_problems",
    "sitting_out",
    "standings",
    "tables_for",
    "with_arrival",
]
