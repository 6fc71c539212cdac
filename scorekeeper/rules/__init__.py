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
from .house import (
    HOUSE_RULES,
    HOUSE_RULES_BY_KEY,
    HouseRuleError,
    HouseRuleKey,
    HouseRuleKind,
    HouseRuleProblem,
    HouseRules,
    house_differences,
    read_house_rule,
    read_house_rules,
    with_house_rules,
)
from .replay import GameResult, HandResult, SideScore, game_end, replay
from .scoring import Line, score_entry
from .systems import (
    CARD_POINTS,
    OPTIONS,
    SYSTEMS,
    Card,
    Deck,
    Penalty,
    RedThreesPlus,
    RuleSystem,
    SetKind,
    UnknownOption,
    UnknownSystem,
    card_points,
    get_system,
)
from .words import Rule, Text

__all__ = [
    "CARD_POINTS",
    "HOUSE_RULES",
    "HOUSE_RULES_BY_KEY",
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
    "HouseRuleError",
    "HouseRuleKey",
    "HouseRuleKind",
    "HouseRuleProblem",
    "HouseRules",
    "Line",
    "Penalty",
    "RedThreesPlus",
    "Rule",
    "RuleSystem",
    "SetKind",
    "Side",
    "SideScore",
    "Text",
    "UnknownOption",
    "UnknownSystem",
    "Violation",
    "card_points",
    "check_game_data",
    "check_hand",
    "check_table",
    "game_data",
    "game_end",
    "get_system",
    "house_differences",
    "read_game",
    "read_house_rule",
    "read_house_rules",
    "read_system",
    "replay",
    "result_data",
    "score_entry",
    "with_house_rules",
]
