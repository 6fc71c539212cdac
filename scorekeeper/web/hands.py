"""Hands: record one, preview its score, read its breakdown, correct or delete it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.form import BaseForm
from wtforms.meta import DefaultMeta
from wtforms.validators import InputRequired, Length, Optional

from .. import rules
from ..rules.fields import EntryField, FieldKind, FieldRef, entry_of, held, refs, value_of
from ..rules.hands import Ending
from . import caching, door
from .converters import Within, whole_number
from .csrf import form_view
from .i18n import Translator, say
from .models import TOKEN_LENGTH, Game, Hand
from .rulebook import cite
from .services import (
    HandChanged,
    HandRefused,
    HandSaved,
    HandTaken,
    SystemKey,
    correct_hand,
    delete_hand,
    engine_game,
    engine_hand,
    kept_replay,
    last_position,
    new_token,
    record_hand,
    restore_hand,
    system_for,
    system_key,
    system_of,
    with_hands,
)

bp = Blueprint("hands", __name__, url_prefix="/games/<game_id>/hands")

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


@dataclass(frozen=True)
class Row:
    """One line of the hand form: a field shown for every side side by side."""

    ref: FieldRef
    label: str
    kind: str  # "points", "counter", "pick" (a count picked in one tap) or "check"
    rule_topic: str
    counter: str | None = None  # the card counter's prefix, `melded` for `melded_cards`
    group: str = "main"  # "main", or folded away as rare: "more-sets" or "penalties"

    @property
    def field(self) -> str:
        """The control's name within a side's part of the form: `melded_points`, `set_samba`."""
        return self.ref.name


ROW_KINDS = {FieldKind.FLAG: "check", FieldKind.POINTS: "points"}
COMMON_SETS = frozenset(
    {rules.SetKind.NATURAL_CANASTA, rules.SetKind.MIXED_CANASTA, rules.SetKind.SAMBA}
)
"""The sets of most hands; a system's others fold under "More sets", but for those its book asks
for and the one it is named after (black-samba's black samba)."""
PICKED = frozenset({"red_threes"})
"""Counts small enough to pick in one tap (0 to the red threes in the deck), not count up..."""
PICK_MOST = 6
"""...when the numbers to pick from fit on one line of a phone: up to three decks' red threes."""
PENALTY_FIELDS = frozenset({"red_threes_in_hand", "players_holding_red_threes", "penalties"})
"""What a side pays for, rare at the table: folded under "Penalties"."""


def label_of(ref: FieldRef) -> str:
    """A field's label as the form shows it: in the page's language, capitalised."""
    text = say(ref.label)
    return text[:1].upper() + text[1:]


def row_label(ref: FieldRef, system: rules.RuleSystem) -> str:
    """A row's label, with what one of it costs where the field says so (−750 each)."""
    cost = ref.entry_field.cost(system) if ref.key is None else None
    label = label_of(ref)
    return label if cost is None else f"{label} ({say(cost)})"


def _group(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PENALTY_FIELDS:
        return "penalties"
    booked = {kind for kinds, _count in system.book for kind in kinds}
    named_after = ref.key is not None and ref.key.value == system.id.replace("-", "_")
    if (
        isinstance(ref.key, rules.SetKind)
        and ref.key not in COMMON_SETS | booked
        and not named_after
    ):
        return "more-sets"
    return "main"


def _kind(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PICKED and rules.Deck(system.decks, 0).red_threes <= PICK_MOST:
        return "pick"
    return ROW_KINDS.get(ref.entry_field.kind, "counter")


def rows_for(system: rules.RuleSystem, players: int | None = None) -> list[Row]:
    """The form's lines for a system (its fields, sets and penalties), check boxes last;
    `players` (the most on a side) leaves out what means nothing at that table."""
    rows = [
        Row(
            ref,
            row_label(ref, system),
            _kind(ref, system),
            ref.entry_field.topic,
            ref.name.removesuffix("_points") if ref.entry_field.cards else None,
            _group(ref, system),
        )
        for ref in refs(system, players=players)
        if not ref.entry_field.by_ending
    ]
    return sorted(rows, key=lambda row: row.kind == "check")


def ending_value(ending: Ending) -> str:
    """How the form's radio names an ending: `out-0` for the first side going out, `stock`."""
    return "stock" if ending.side is None else f"out-{ending.side}"


def ending_of(value: object, sides: int) -> Ending | None:
    """The ending a radio value names, among those of a hand of `sides` sides; None if none."""
    return next((e for e in Ending.every(sides) if ending_value(e) == value), None)


def ending_label(ending: Ending, game: Game) -> str:
    """An ending in words: who went out, or that the stock ran out."""
    if ending.side is None:
        return _("The stock ran out")
    return _("%(side)s went out", side=game.sides[ending.side].name)


def _count(label: str = "") -> IntegerField:
    return IntegerField(
        label,
        default=0,
        validators=[Optional(), Within(0, 9999)],
        render_kw=NUMBER,
    )


class SubForm(Form):
    """A part of the hand form: WTForms' own messages in the page's language, as in FlaskForm."""

    class Meta(DefaultMeta):
        def get_translations(self, form: BaseForm) -> Translator:
            if current_app.config.get("WTF_I18N_ENABLED", True):
                return translations
            return super().get_translations(form)


class CardsForm(SubForm):
    """The card counter: how many of each card group, turned into points."""


for _card in rules.Card:
    setattr(CardsForm, _card.value, _count())


def _control(field: EntryField, kind: str, red_threes: int) -> Field:
    """The form control for one field of a side's entry."""
    if kind == "pick":
        return RadioField(
            choices=[SelectChoice(n, str(n)) for n in range(red_threes + 1)], coerce=int, default=0
        )
    if field.kind is FieldKind.FLAG:
        return BooleanField()
    if field.kind is FieldKind.POINTS:
        # Empty until typed (no 0 to delete first), read as 0; a first meld stays unnoted.
        shown = NUMBER if field.optional else {**NUMBER, "placeholder": "0"}
        return IntegerField(validators=[Optional(), Within(0, field.most)], render_kw=shown)
    return IntegerField(default=0, validators=[Optional(), Within(0, field.most)], render_kw=NUMBER)


def entry_form_class(system: rules.RuleSystem, red_threes: int) -> type[Form]:
    """A side's part of the hand form: a control per row, and a card counter where it helps;
    `red_threes`: how many the table's deck holds, the most a side can pick."""

    class EntryForm(SubForm):
        pass

    for row in rows_for(system):
        setattr(EntryForm, row.field, _control(row.ref.entry_field, row.kind, red_threes))
        if row.counter is not None:
            setattr(EntryForm, f"{row.counter}_cards", FormField(CardsForm))
    return EntryForm


class HandFields(FlaskForm):
    """The hand form's fields, read by name; `hand_form` makes them for one game."""

    ending: RadioField
    token: HiddenField
    version: HiddenField
    after: HiddenField
    sides: FieldList[FormField[Form]]


def hand_form(game: Game, formdata: Any = None, data: Any = None) -> HandFields:
    """The form for one hand of this game; `data` fills it from a recorded hand."""
    endings = tuple(
        (ending_value(ending), ending_label(ending, game))
        for ending in Ending.every(len(game.sides))
    )
    red_threes = system_of(game).deck(sum(len(side.players) for side in game.sides)).red_threes
    form_class = _hand_form_class(system_key(game), endings, red_threes)
    if formdata is not None:
        return form_class(formdata=formdata)
    return form_class(
        formdata=None, data=data or {"token": new_token(), "after": str(last_position(game.id))}
    )


@lru_cache(maxsize=64)
def _hand_form_class(
    key: SystemKey, endings: tuple[tuple[str, str], ...], red_threes: int
) -> type[HandFields]:
    """The hand form of one system, for sides whose endings read `endings` (value, label) and
    a deck of `red_threes`: made once, since making a form class costs more than filling one in."""
    side_count = len(endings) - 1  # each side going out, and the stock running out

    class HandForm(HandFields):
        ending = RadioField(
            _l("How did the hand end?"),
            choices=[SelectChoice(value, label) for value, label in endings],
            validators=[InputRequired(_l("Choose who went out, or that the stock ran out."))],
        )
        token = HiddenField(
            validators=[
                Length(
                    max=TOKEN_LENGTH,
                    message=_l("This form was not made here: open the hand form again."),
                )
            ]
        )
        version = HiddenField()
        after = HiddenField()  # the last hand's number when a new hand's form was opened
        sides = FieldList(
            FormField(entry_form_class(system_for(key), red_threes)),
            min_entries=side_count,
            max_entries=side_count,
        )

    return HandForm


def hand_from_form(form: HandFields, system: rules.RuleSystem) -> rules.Hand:
    """The hand the form describes, for the rules engine (a form that passed validation)."""
    ending = ending_of(form.ending.data, len(form.sides)) or Ending.STOCK
    rows = rows_for(system)
    entries = []
    for index, side in enumerate(form.sides):
        values: dict[str, Any] = {"went_out": ending.side == index}
        for row in rows:
            field, data = row.ref.entry_field, side.form[row.field].data
            if row.ref.key is not None:
                values.setdefault(field.name, {})[row.ref.key] = int(data or 0)
            elif field.kind is FieldKind.FLAG:
                values[field.name] = bool(data)
            else:
                values[field.name] = data if field.optional else int(data or 0)
        entries.append(entry_of(values))
    return rules.Hand(tuple(entries), ending.ended_by)


def form_data(hand: Hand) -> dict[str, Any]:
    """A recorded hand as data for its correction form."""
    engine = engine_hand(hand)
    sides = [{ref.name: value_of(e, ref) for ref in held(e)} for e in engine.entries]
    return {
        "ending": ending_value(engine.ending),
        "version": str(hand.version),
        "sides": sides,
        "token": hand.token,
    }


def cited(violation: rules.Violation, game_id: str) -> Markup:
    """A broken rule in words, with a link to its paragraph in this game's rules."""
    return Markup("{} ({})").format(say(violation.message), cite(violation.rule, game_id))


def place_violations(
    form: HandFields, violations: list[rules.Violation], game_id: str
) -> list[Markup]:
    """Put each violation's message next to the field it is about; return the rest."""
    loose = []
    for violation in violations:
        message = cited(violation, game_id)
        field = None
        ref = violation.field
        if violation.side is not None and ref is not None:
            entry = form.sides[violation.side].form
            field = form.ending if ref.field == "went_out" else entry._fields.get(ref.name)
        if field is None:
            loose.append(message)
        else:
            field.errors = [*field.errors, message]
    return loose


def adjust(formdata: MultiDict[str, str], system: rules.RuleSystem) -> MultiDict[str, str]:
    """Without JavaScript the − / + and Count buttons post the form: apply them here."""
    data = formdata.copy()
    bump = data.pop("bump", None)
    if bump and ":" in bump:
        name, step = bump.rsplit(":", 1)
        try:
            value = int(data.get(name) or 0) + int(step)
        except ValueError:
            value = None
        if value is not None:
            data[name] = str(max(0, value))
    count = data.pop("count", None)
    if count:
        prefix = count  # e.g. sides-0-melded
        try:
            counts = {
                card: int(data.get(f"{prefix}_cards-{card.value}") or 0) for card in rules.Card
            }
            data[f"{prefix}_points"] = str(rules.card_points(counts))
        except ValueError:
            pass
    return data


def sent_number(value: str | None) -> int | None:
    """A version or hand number as a form sends it: None when missing; 400 when not one."""
    if not value:
        return None
    number = whole_number(value, least=0)
    if number is None:
        abort(400)
    return number


def number_of(game: Game, hand: Hand) -> int | None:
    """A hand's number as the scoreboard shows it (None once deleted)."""
    live = with_hands(game).live_hands
    return live.index(hand) + 1 if hand in live else None


def _game() -> tuple[Game, rules.RuleSystem]:
    """The game with its sides; its hands are loaded only by the pages that show them."""
    game = door.game()
    return game, system_of(game)


def _preview(game: Game, hand: rules.Hand, replacing: int | None) -> rules.HandResult:
    """The hand scored as the next one, or in place of live hand number `replacing` + 1."""
    if replacing is None:
        return rules.extend(engine_game(game, []), kept_replay(game), hand).hands[-1]
    hands = [engine_hand(h) for h in with_hands(game).live_hands]
    hands[replacing] = hand
    return rules.replay(engine_game(game, hands)).hands[replacing]


@dataclass(frozen=True)
class SummarySide:
    """One side in the summary under the hand form: its score of the hand, once known, and
    its total with it."""

    name: str
    hand: int | None
    total: int


def problem_places(form: HandFields, rows: Sequence[Row], loose: Sequence[str]) -> list[str]:
    """Where each problem of the form is, in the order of the page: the id of the control's
    place for those next to one, `problems` (the top of the page) for the others."""
    places = [f"cell-{form.ending.id}"] * len(form.ending.errors)
    for row in rows:
        for side in form.sides:
            field = side.form[row.field]
            places += [f"cell-{field.id}"] * len(field.errors)
    return ["problems"] * len(loose) + places


def opened(form: HandFields, rows: Sequence[Row]) -> set[str]:
    """The folded groups of rows that hold something: a value or a problem."""
    return {
        row.group
        for row in rows
        for side in form.sides
        if side.form[row.field].data or side.form[row.field].errors
    }


def _form_page(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    status: int = 200,
    **shown: Any,
) -> tuple[str, int]:
    """The hand form as this visitor gets it: drawn afresh (a posted form), with its tokens."""
    return _page(_drawn_form(game, system, form, **shown), form.token.data), status


def _page(drawn: caching.Drawn, token: str | None) -> str:
    """The page around a drawn hand form: the visitor's CSRF token and the form's one-time
    token are written here, never into what is kept (`caching.part`)."""
    return render_template("hand_form.html", drawn=drawn, token=token)


def _drawn_form(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    hand: Hand | None = None,
    loose: Sequence[str] | None = None,
    preview: rules.HandResult | None = None,
    theirs: rules.HandResult | None = None,
    taken: bool = False,
    refused: bool = False,
) -> caching.Drawn:
    """The hand form, the same for every visitor; `refused`: a Save that did not save (a
    preview's problems are not)."""
    result = kept_replay(game)
    if hand is None:
        number, minimums, totals = result.next_hand, result.next_minimums, result.totals
    else:
        # Counted by place, not looked up: a hand deleted meanwhile is shown where it was, with
        # the totals and minimums before that place.
        before = sum(1 for h in with_hands(game).live_hands if h.position < hand.position)
        number = before + 1
        if before < len(result.hands):
            scored = result.hands[before].sides
            minimums = tuple(side.min_opening_meld for side in scored)
            totals = tuple(side.total - side.hand_score for side in scored)
        else:
            minimums, totals = result.next_minimums, result.totals
    if preview is not None:
        summary = [
            SummarySide(side.name, score.hand_score, score.total)
            for side, score in zip(game.sides, preview.sides, strict=True)
        ]
    else:
        summary = [
            SummarySide(side.name, None, total)
            for side, total in zip(game.sides, totals, strict=True)
        ]
    rows = rows_for(system, max(len(side.players) for side in game.sides))
    loose = loose or []
    title = (
        _("Correct hand %(number)s", number=number)
        if hand is not None
        else _("Hand %(number)s", number=number)
    )
    body = render_template(
        "_hand_form.html",
        game=game,
        system=system,
        form=form,
        rows=rows,
        opened=opened(form, rows),
        hand=hand,
        number=number,
        title=title,
        minimums=minimums,
        loose=loose,
        preview=preview,
        summary=summary,
        problems=problem_places(form, rows, loose),
        theirs=theirs,
        taken=taken,
        refused=refused,
    )
    return caching.Drawn(title, Markup(body))


def _handle(game: Game, system: rules.RuleSystem, hand: Hand | None) -> tuple[str, int] | Response:
    """The shared flow of recording and correcting: buttons, preview, checks, save."""
    if request.method == "GET":
        data = form_data(hand) if hand is not None else None
        return _form_page(game, system, hand_form(game, data=data), hand=hand)
    action = request.form.get("action", "save")
    posted = adjust(request.form, system)
    form = hand_form(game, formdata=posted)
    if "bump" in request.form or "count" in request.form:
        return _form_page(game, system, form, hand=hand)
    if not form.validate():
        # A hidden field: its message has no place of its own.
        loose: Sequence[str] = list(form.token.errors)
        saving = action != "preview"
        return _form_page(game, system, form, hand=hand, loose=loose, refused=saving, status=422)
    engine = hand_from_form(form, system)
    index = with_hands(game).live_hands.index(hand) if hand is not None else None
    if action == "preview":
        # Also what the page's script asks for as you type: the scores of the hand, and each
        # problem next to what it is about.
        result = _preview(game, engine, index)
        loose = place_violations(form, list(result.violations), game.id)
        return _form_page(game, system, form, hand=hand, loose=loose, preview=result)
    if hand is None:
        return _record(game, system, form, engine)
    game_id = game.id
    try:
        saved = correct_hand(game_id, hand.id, engine, sent_number(form.version.data) or 0)
    except HandRefused as refused:
        loose = place_violations(form, refused.violations, game.id)
        result = _preview(game, engine, index)
        return _form_page(
            game, system, form, hand=hand, loose=loose, preview=result, refused=True, status=422
        )
    except HandChanged as changed:
        current = changed.current
        form.version.data = str(current.version)
        loose = [
            _(
                "Someone changed this hand while you were correcting it. Their version is "
                "shown below, yours is in the form: save again to keep yours."
            )
        ]
        if current.deleted_at is not None:
            return _deleted_meanwhile(game, system, form, hand)
        theirs = _preview(game, engine_hand(current), index)
        return _form_page(
            game, system, form, hand=hand, loose=loose, theirs=theirs, refused=True, status=409
        )
    # game_id, not game.id: after the commit, reading the game would load all of it again.
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{saved.id}"))


def _deleted_meanwhile(
    game: Game, system: rules.RuleSystem, form: HandFields, hand: Hand
) -> tuple[str, int]:
    """The correction of a hand someone deleted meanwhile, not saved: what was typed stays."""
    loose = [_("Someone deleted this hand while you were correcting it.")]
    return _form_page(game, system, form, hand=hand, loose=loose, refused=True, status=409)


def _record(
    game: Game, system: rules.RuleSystem, form: HandFields, engine: rules.Hand
) -> tuple[str, int] | Response:
    """Save a new hand; a repeat of a saved form is answered as the first time was."""
    game_id = game.id  # after the commit, reading game.id would load the whole game again
    try:
        _hand_id, number = record_hand(
            game_id, engine, form.token.data or new_token(), sent_number(form.after.data)
        )
    except HandRefused as refused:
        loose: Sequence[str] = place_violations(form, refused.violations, game.id)
        result = _preview(game, engine, None)
        return _form_page(game, system, form, loose=loose, preview=result, refused=True, status=422)
    except HandTaken as taken:
        # Saving again from this page saves the typed hand after the one recorded meanwhile.
        form.after.data = str(last_position(game.id))
        live = with_hands(game).live_hands
        first = next((live.index(h) for h in taken.recorded if h in live), len(live) - 1)
        theirs = kept_replay(game).hands[first] if live else None
        loose = [
            _(
                "Someone else saved hand %(number)s meanwhile: theirs is shown below, yours "
                "is still in the form.",
                number=first + 1,
            )
        ]
        return _form_page(
            game, system, form, loose=loose, theirs=theirs, taken=True, refused=True, status=409
        )
    except HandSaved as already:
        saved = already.saved
        number = number_of(game, saved)
        scored = kept_replay(game).hands[number - 1] if number is not None else None
        page = render_template(
            "hand_saved.html", game=game, hand=saved, number=number, scored=scored
        )
        return page, 409
    # The notice rides on the address, so a repeated Save gets the very same answer, and a
    # page that saves in the background can show it too. The scoreboard opens at its top: the
    # new totals, then who deals next and "Record hand N+1".
    return redirect(url_for("games.scoreboard", game_id=game_id, saved=number))


@bp.route("/new", methods=["GET", "POST"])
@form_view
def new() -> str | tuple[str, int] | Response:
    if request.method == "GET":
        if door.over():
            return redirect(url_for("games.scoreboard", game_id=door.game_id()))
        return _page(caching.part(_blank_form), new_token())
    # A form sent again after it ended the game is still answered as the first time was.
    return _handle(*_game(), None)


def _blank_form() -> caching.Drawn:
    """A new hand's form as every visitor gets it (its one-time token is the visitor's)."""
    game, system = _game()
    return _drawn_form(game, system, hand_form(game))


def _hand(game: Game, hand_id: int) -> Hand:
    """One of the game's hands, deleted or not (the pages of a hand show the game's others)."""
    hand = next((h for h in with_hands(game).hands if h.id == hand_id), None)
    if hand is None:
        abort(404)
    return hand


@bp.route("/<id:hand_id>/edit", methods=["GET", "POST"])
@form_view
def edit(hand_id: int) -> tuple[str, int] | Response:
    game, system = _game()
    hand = _hand(game, hand_id)
    if hand.deleted_at is None:
        return _handle(game, system, hand)
    if request.method == "GET":
        return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
    # Its form was open on another phone: whatever was pressed, nothing is saved or scored.
    form = hand_form(game, formdata=adjust(request.form, system))
    return _deleted_meanwhile(game, system, form, hand)


@bp.get("/<id:hand_id>")
def show(hand_id: int) -> str:
    """A hand's breakdown: every line of every side's score, with its rule."""
    game, system = _game()
    hand = _hand(game, hand_id)
    number = number_of(game, hand)
    scored = kept_replay(game).hands[number - 1] if number is not None else None
    return render_template(
        "hand.html", game=game, system=system, hand=hand, number=number, scored=scored
    )


@bp.route("/<id:hand_id>/delete", methods=["GET", "POST"])
def delete(hand_id: int) -> Response | tuple[str, int] | str:
    """Asks once (a page, no script needed), then takes the hand out of the game."""
    game, _system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    number = number_of(game, hand)
    if number is None:
        return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
    if request.method == "GET":
        return render_template("hand_delete.html", game=game, hand=hand, number=number)
    try:
        delete_hand(game.id, hand.id, sent_number(request.form.get("version")) or 0)
    except HandChanged:
        return redirect(url_for("hands.show", game_id=game_id, hand_id=hand_id, changed=1))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/<id:hand_id>/restore")
def restore(hand_id: int) -> Response | tuple[str, int]:
    """Bring a deleted hand back in its place, unless that would break a rule."""
    game, system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    try:
        restore_hand(game.id, hand.id)
    except HandChanged:
        return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))
    except HandRefused as refused:
        loose = [cited(v, game.id) for v in refused.violations]
        page = render_template(
            "hand.html", game=game, system=system, hand=hand, number=None, scored=None, loose=loose
        )
        return page, 422
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))
