"""The one projection of the state for one recipient: a seat, or a spectator (``None``).

Everything a client is sent about a match is built here: the view of the state
(:func:`view_for`), each event (:func:`project_event`) and the history
(:func:`history_for`). Nothing hidden leaves: no other seat's hand, no stock order, no
drawn tile but your own, until the settlement reveals the hands (R5, R22).

>>> import random
>>> from app.engine.match import Match
>>> m = Match.new(3, random.Random(1))
>>> spectator = view_for(m, None)
>>> spectator["hand"] is None, spectator["legal"], spectator["hand_sizes"], spectator["stock"]
(True, [], [5, 5, 5], 13)
>>> mine = view_for(m, m.turn)
>>> len(mine["hand"]), all(entry["kind"] == "open" for entry in mine["legal"])
(5, True)
"""

from __future__ import annotations

from typing import NamedTuple

from app.types import Json

from .describe import describe_layout
from .layout import OPENING
from .log_entries import entry_dict, entry_from_list
from .match import Match
from .places import PLACE_NAMES, PLACE_VALUE, side_name
from .round import NO_TILE, Round
from .sides import sides_seats
from .tiles import NAMES, names_of_mask

VIEW_FORMAT = 1


def project_event(event: Json, recipient: int | None) -> Json:
    """The event as ``recipient`` may see it: a drawn tile only for the drawer (R5).

    >>> ev = {"type": "move", "kind": "draw", "seat": 1, "drawn": "0|5", "must_play": True}
    >>> project_event(ev, 1)["drawn"], project_event(ev, 0)["drawn"], project_event(ev, None)["drawn"]
    ('0|5', None, None)
    """
    out = dict(event)
    if out.get("drawn") is not None and out.get("seat") != recipient:
        out["drawn"] = None
    return out


def legal_entries(match: Match, seat: int) -> list[Json]:
    """The seat's legal moves with the raw points each placement would earn (R15)."""
    rnd = match.round
    entries: list[Json] = []
    for move in match.legal_moves(seat):
        entry: Json = {"move": move.text, "kind": move.kind}
        if move.tile is not None:
            entry["tile"] = NAMES[move.tile]
            entry["place"] = None if move.place is None else PLACE_NAMES[move.place]
            entry["points"] = (
                rnd.layout.points_if_opened(move.tile)
                if move.place is None
                else rnd.layout.points_if_placed(move.tile, move.place)
            )
        entries.append(entry)
    return entries


def layout_data(rnd: Round, before: list[Json] | None = None) -> Json:
    """The public layout: tiles in order with where they joined, open places, ends, sum.

    ``before``: this round's ``tiles`` in an earlier view. Tiles are only ever added at
    the end of the layout, so those entries are reused as they are (and a patch between
    the two views compares them by identity)."""
    layout = rnd.layout
    tiles: list[Json] = []
    if before is not None and len(before) <= len(layout.tiles):
        tiles = before.copy()
    for t in layout.tiles[len(tiles) :]:
        at = layout.at[t]
        if at == OPENING:
            tiles.append({"tile": NAMES[t], "at": None, "via": None})
        else:
            tiles.append(
                {"tile": NAMES[t], "at": PLACE_NAMES[at], "via": side_name(t * 4 + layout.via[t])}
            )
    return {
        "tiles": tiles,
        "places": [
            {"place": PLACE_NAMES[p], "value": PLACE_VALUE[p]} for p in layout.open_places()
        ],
        "ends": [[tile, value] for tile, value in layout.scoring_ends()],
        "sum": layout.end_sum,
    }


def public_fields(match: Match, earlier: Json | None = None) -> Json:
    """The fields of every recipient's view that are the same for all (a spectator's
    whole view, descriptions left ``None``): :func:`view_for` is this updated with
    :func:`own_fields`. Draws are blanked here (R5); a seat's own draws are put back by
    :func:`own_view`.

    ``earlier``: the public fields of an earlier state of **the same round of the same
    match**, or ``None``. A round's log and layout only grow, so the entries already
    built there are reused (the same objects: a patch between the two views compares
    them by identity) and only the new ones are built. The engine keeps no cache: the
    caller (app/realtime/projection.py) holds the earlier fields and vouches for them.

    >>> import random
    >>> from app.engine.match import Match
    >>> m = Match.new(2, random.Random(4))
    >>> before = public_fields(m)
    >>> _ = m.play(m.turn, m.legal_moves(m.turn)[0])
    >>> after = public_fields(m, before)
    >>> after == public_fields(m), len(after["log"]), after["log"] is before["log"]
    (True, 1, False)
    """
    rnd = match.round
    if earlier is not None and len(earlier["log"]) > len(rnd.log):
        earlier = None  # not an earlier state of this round: built afresh
    log: list[Json] = []
    if earlier is not None:
        log = earlier["log"].copy()
    for i in range(len(log), len(rnd.log)):
        log.append(project_event(entry_dict(match.round_number, i, rnd.log[i]), None))
    return {
        "format": VIEW_FORMAT,
        "players": match.players,
        "target": match.target,
        "sides": sides_seats(match.players) if earlier is None else earlier["sides"],
        "you": None,
        "scores": list(match.scores),
        "round": match.round_number,
        "phase": match.phase,
        "turn": rnd.turn,
        "starter": rnd.starter,
        "hand_sizes": rnd.hand_sizes(),
        "stock": rnd.stock_size,
        "hand": None,
        "must_play": None,
        "legal": [],
        "layout": _layout_of(rnd, earlier),
        "description": None,  # filled in by view_for(..., describe=True)
        "description_uk": None,
        "log": log,
        "last_move": log[-1] if log else None,
        "settlement": match.settlement,  # hands revealed at settlement (R22)
        "winner": match.winner,
    }


def _layout_of(rnd: Round, earlier: Json | None) -> Json:
    """The public layout, from an earlier view of the same round where it can be: the
    layout only ever grows by a tile, so with as many tiles as then (a draw, a pass) it
    is that view's layout itself."""
    if earlier is None:
        return layout_data(rnd)
    before: Json = earlier["layout"]
    if len(before["tiles"]) == len(rnd.layout.tiles):
        return before
    return layout_data(rnd, before["tiles"])


def view_for(match: Match, recipient: int | None, *, describe: bool = True) -> Json:
    """The state as ``recipient`` (a seat, or ``None`` for a spectator) may see it.

    The result shares its nested parts (hands, log entries) with other views: treat it
    as read-only (serialise it, don't edit it). ``describe=False`` leaves the two layout
    descriptions out (``None``), for a caller that does not send them.

    >>> import random
    >>> from app.engine.match import Match
    >>> m = Match.new(2, random.Random(4))
    >>> view_for(m, 0, describe=False)["description"] is None
    True
    >>> isinstance(view_for(m, 0)["description"], str)
    True
    """
    view = public_fields(match)
    if describe:
        view["description"] = describe_layout(match.round.layout)
        view["description_uk"] = describe_layout(match.round.layout, "uk")
    view.update(own_fields(match, recipient))
    return view


class OwnView(NamedTuple):
    """A recipient's own view fields (:func:`own_fields`) and how many entries of the
    round's log they were built from, to build the next state's on."""

    fields: Json
    seen: int


def own_fields(match: Match, recipient: int | None) -> Json:
    """The fields of ``recipient``'s view that differ from :func:`public_fields`: the
    seat's hand, ``must_play`` and legal moves, and the round's log with its own draws
    shown (R5) when it has drawn. Empty for a spectator (or a seat not at the table).

    >>> import random
    >>> from app.engine.match import Match
    >>> m = Match.new(2, random.Random(4))
    >>> own_fields(m, None), sorted(own_fields(m, 0))
    ({}, ['hand', 'legal', 'must_play', 'you'])
    """
    return own_view(match, recipient, public_fields(match)).fields


def own_view(
    match: Match, recipient: int | None, public: Json, earlier: OwnView | None = None
) -> OwnView:
    """:func:`own_fields`, given the state's :func:`public_fields` (``public``) and,
    optionally, the recipient's own view of an earlier state of **the same round of the
    same match** (``earlier``), whose log entries are reused.

    >>> import random
    >>> from app.engine.match import Match
    >>> m = Match.new(2, random.Random(4))
    >>> first = own_view(m, 0, public_fields(m))
    >>> _ = m.play(m.turn, m.legal_moves(m.turn)[0])
    >>> own_view(m, 0, public_fields(m), first).fields == own_fields(m, 0)
    True
    """
    if recipient is None or not 0 <= recipient < match.players:
        return OwnView({}, 0)
    rnd = match.round
    you = recipient
    fields: Json = {
        "you": you,
        "hand": names_of_mask(rnd.hands[you]),  # one shared list per hand
        "must_play": NAMES[rnd.must_play] if rnd.turn == you and rnd.must_play >= 0 else None,
        "legal": legal_entries(match, you),
    }
    if earlier is not None and earlier.seen > len(rnd.log):
        earlier = None  # not an earlier state of this round
    seen, log = (0, None) if earlier is None else (earlier.seen, earlier.fields.get("log"))
    log = _own_log(match, you, public["log"], seen, log)
    if log is not None:
        fields["log"] = log
        fields["last_move"] = log[-1]
    return OwnView(fields, len(rnd.log))


def _own_log(
    match: Match, seat: int, public_log: list[Json], seen: int, log: list[Json] | None
) -> list[Json] | None:
    """The round's log as ``seat`` sees it, its own drawn tiles shown (R5), or ``None``
    when it has drawn nothing this round (the public log is its log then). ``log``: that
    log as it was after the first ``seen`` entries; only the entries after those are
    looked at (a log only grows)."""
    rnd = match.round
    if log is not None and seen == len(rnd.log):
        return log  # nothing new: the same list
    grown = None if log is None else log[:seen]
    for i in range(seen, len(rnd.log)):
        entry = rnd.log[i]
        if entry[0] == seat and entry[3] != NO_TILE:
            if grown is None:
                grown = public_log[:i]
            grown.append(entry_dict(match.round_number, i, entry))  # your own draw (R5)
        elif grown is not None:
            grown.append(public_log[i])
    return grown


def history_for(match: Match, recipient: int | None) -> list[Json]:
    """Every round of the match so far, projected for ``recipient``.

    Finished rounds carry their settlement (hands revealed, R22); the current round, if
    still being played, its moves so far.
    """
    rounds: list[Json] = []
    for record in match.history:
        moves = [
            project_event(entry_dict(record["round"], i, entry_from_list(data)), recipient)
            for i, data in enumerate(record["log"])
        ]
        rounds.append(
            {
                "round": record["round"],
                "starter": record["starter"],
                "moves": moves,
                "settlement": record["settlement"],
            }
        )
    if not match.round.is_over:
        rnd = match.round
        rounds.append(
            {
                "round": match.round_number,
                "starter": rnd.starter,
                "moves": [
                    project_event(entry_dict(match.round_number, i, e), recipient)
                    for i, e in enumerate(rnd.log)
                ],
                "settlement": None,
            }
        )
    return rounds
