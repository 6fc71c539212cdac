"""The rules engine: the five Samba systems, scoring, checks and game replay.

Standard library only: it knows nothing of the web or the database.
"""

from .checks import Violation, check_hand, check_table
from .gamefile import (
    GameFileError,
    check_game_data,
    game_data,
    read_game,
    read_system,
    result_data,
)
from .hands import EndedBy, Entry, Game, Hand, Side
from .replay import (
    GameResult,
    HandResult,
    Seat,
    SideScore,
    before_first_hand,
    extend,
    game_end,
    replay,
    seating,
)
from .scoring import Line, score_entry
from .systems import (
    CARD_POINTS,
    OPTIONS,
    SYSTEMS,
    Card,
    Deck,
    HouseRules,
    Penalty,
    RedThreesPlus,
    RuleSystem,
    SetKind,
    UnknownOption,
    UnknownSystem,
    card_points,
    get_system,
    with_house_rules,
)
from .words import Rule, Text

__all__ = [
    "CARD_POINTS",
    "OPTIONS",
    "SYSTEMS",
    "Card",
    "Deck",
    "EndedBy",
    "Entry",
    "Game",
    "GameFileError",
    "GameResult",
    "Hand",
    "HandResult",
    "HouseRules",
    "Line",
    "Penalty",
    "RedThreesPlus",
    "Rule",
    "RuleSystem",
    "Seat",
    "SetKind",
    "Side",
    "SideScore",
    "Text",
    "UnknownOption",
    "UnknownSystem",
    "Violation",
    "before_first_hand",
    "card_points",
    "check_game_data",
    "check_hand",
    "check_table",
    "extend",
    "game_data",
    "game_end",
    "get_system",
    "read_game",
    "read_system",
    "replay",
    "result_data",
    "score_entry",
    "seating",
    "with_house_rules",
]
