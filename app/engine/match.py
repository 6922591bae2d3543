"""A match: sides and scores, consecutive rounds, settlement, the target (R2–R4, R22–R25).

>>> import random
>>> m = Match.new(2, random.Random(7))
>>> m.players, m.side_count, m.scores, m.round_number, m.over
(2, 2, [0, 0], 1, False)
>>> while not m.round_over:
...     seat = m.turn
...     _ = m.play(seat, m.legal_moves(seat)[0])
>>> m.settlement["result"] in ("domino", "blocked")
True
>>> Match.from_dict(m.to_dict()).to_dict() == m.to_dict()
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from app.types import Json

from .errors import IllegalMove, MatchOver, NotationError, NotYourTurn, RoundOver
from .layout import OPENING
from .log_entries import entry_dict, entry_from_list, entry_list
from .moves import Move
from .places import PLACE_NAMES
from .round import NO_TILE, RandomSource, Round
from .sides import side_count, side_of
from .tiles import NAMES, mask_of, names_of_mask, parse_tile

TARGET: Final = 61  # R4
FORMAT: Final = 1  # serialisation format version


class Match:
    """A match between 2, 3 or 4 players (R2) to ``target`` displayed points (R4).

    ``scores`` are displayed points per side (R3). ``round`` is the current round (after
    it ends it stays there, settled, until :meth:`next_round`). ``history`` holds every
    finished round: its starter, its moves and its settlement.
    """

    __slots__ = (
        "history",
        "laid",
        "logged",
        "over",
        "players",
        "round",
        "round_number",
        "scores",
        "settlement",
        "target",
        "winner",
    )

    def __init__(
        self,
        players: int,
        first_round: Round,
        scores: Sequence[int] | None = None,
        target: int = TARGET,
    ) -> None:
        if players not in (2, 3, 4):
            raise ValueError("R2: a match is played by 2, 3 or 4 players")
        self.players = players
        self.target = target
        sides = side_count(players)
        self.scores: list[int] = list(scores) if scores is not None else [0] * sides
        if len(self.scores) != sides:
            raise ValueError(f"R2: {players} players make {sides} sides")
        self.round = first_round
        self.round_number = 1
        self.history: list[Json] = []
        self.settlement: Json | None = None
        self.over = False
        self.winner: int | None = None
        #: the current round's log as :meth:`to_dict` writes it, for the round it was
        #: written for (a round's log only grows: each entry is converted once)
        self.logged: tuple[Round, list[list[Any]]] | None = None
        #: the current round's layout and stock as :meth:`to_dict` writes them, for the
        #: round they were written for (the layout only grows; the stock is the tail of
        #: one list that only shrinks from its front)
        self.laid: tuple[Round, list[str], list[str]] | None = None

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(cls, players: int, rng: RandomSource, target: int = TARGET) -> Match:
        """A new match: first deal (R5, R6), starter by a neutral lot (R7)."""
        return cls(players, Round.deal(players, rng), target=target)

    @classmethod
    def from_deal(
        cls,
        hands: Sequence[Sequence[str]],
        stock: Sequence[str],
        starter: int,
        scores: Sequence[int] | None = None,
        target: int = TARGET,
    ) -> Match:
        """A match whose first round has an explicit deal (fixtures, tests)."""
        return cls(len(hands), Round.from_deal(hands, stock, starter), scores, target)

    # -- queries -----------------------------------------------------------------------
    @property
    def side_count(self) -> int:
        return side_count(self.players)

    def side_of(self, seat: int) -> int:
        return side_of(seat, self.players)

    @property
    def round_over(self) -> bool:
        """The current round has ended and been settled (R21, R22)."""
        return self.round.is_over

    @property
    def turn(self) -> int | None:
        """The seat to move, or ``None`` between rounds and after the match."""
        return self.round.turn

    @property
    def phase(self) -> str:
        """``playing``, ``round_over`` (waiting for the next deal) or ``match_over``."""
        if self.over:
            return "match_over"
        return "round_over" if self.round.is_over else "playing"

    def legal_moves(self, seat: int) -> list[Move]:
        """The legal moves of ``seat`` (``[]`` unless it is that seat's turn)."""
        if seat != self.round.turn:
            return []
        return self.round.legal_moves()

    # -- playing -----------------------------------------------------------------------
    def check(self, seat: int, move: Move | str) -> Move:
        """The parsed move if ``seat`` may play it now; raises otherwise (changes nothing)."""
        if not isinstance(move, Move):
            move = Move.parse(move)
        if self.over:
            raise MatchOver("R24", "the match is over")
        if self.round.is_over:
            raise RoundOver("R21", "the round is over; wait for the next deal")
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalMove("R2", f"there is no seat {seat!r} at this table")
        if seat != self.round.turn:
            raise NotYourTurn("R8", f"it is not your turn: seat {self.round.turn} is to play")
        self.round.check(move)
        return move

    def play(self, seat: int, move: Move | str) -> Json:
        """Play a move for ``seat``; returns the full event (project it before sending!).

        Raises :class:`IllegalMove` or :class:`NotationError`; then nothing has changed.
        """
        move = self.check(seat, move)
        points = self.round.play_unchecked(move)
        self.scores[self.side_of(seat)] += points // 5  # R3, R15
        event = entry_dict(self.round_number, len(self.round.log) - 1, self.round.log[-1])
        event["scores"] = list(self.scores)
        event["round_end"] = self._settle() if self.round.is_over else None
        return event

    def _settle(self) -> Json:
        """R22 settlement, then the R24/R25 target check."""
        rnd = self.round
        pips = rnd.pips()
        deductions = rnd.deductions()
        for seat, lost in enumerate(deductions):
            self.scores[self.side_of(seat)] -= lost  # each hand on its own; no floor
        top = max(self.scores)
        if top >= self.target and self.scores.count(top) == 1:  # R24; a tie plays on (R25)
            self.over = True
            self.winner = self.scores.index(top)
        self.settlement = {
            "round": self.round_number,
            "result": rnd.result,
            "finisher": rnd.finisher,
            "hands": [[NAMES[t] for t in rnd.hand(s)] for s in range(self.players)],
            "pips": pips,
            "deductions": deductions,
            "scores": list(self.scores),
            "match_over": self.over,
            "winner": self.winner,
        }
        self.history.append(
            {
                "round": self.round_number,
                "starter": rnd.starter,
                "log": self._log_lists(rnd),
                "settlement": self.settlement,
            }
        )
        return self.settlement

    def _next_starter(self, rng: RandomSource | None, starter: int | None) -> int:
        if self.over:
            raise MatchOver("R24", "the match is over")
        if not self.round.is_over:
            raise IllegalMove("R21", "the round is still being played")
        if self.round.result == "domino":
            finisher = self.round.finisher
            assert finisher is not None
            if starter is not None and starter != finisher:
                raise IllegalMove("R23", f"seat {finisher} finished the round and starts the next")
            return finisher  # R23
        if starter is not None:
            return starter  # the lot's result, given (R23, R7)
        if rng is None:
            raise ValueError("R23: after a blocked round the starter comes from a lot")
        return rng.randrange(self.players)  # R7

    def next_round(self, rng: RandomSource) -> Json:
        """Deal the next round (R5, R6); starter by R23. Returns the round-start event."""
        starter = self._next_starter(rng, None)
        self._begin(Round.deal(self.players, rng, starter))
        return self.round_start_event()

    def next_round_from_deal(
        self, hands: Sequence[Sequence[str]], stock: Sequence[str], starter: int | None = None
    ) -> Json:
        """The next round with an explicit deal; ``starter`` only after a blocked round."""
        if len(hands) != self.players:
            raise ValueError(f"R6: expected {self.players} hands")
        start = self._next_starter(None, starter)
        self._begin(Round.from_deal(hands, stock, start))
        return self.round_start_event()

    def resign(self, seat: int) -> Json:
        """``seat`` resigns (a table's decision, not a rule of play): the match is over at
        once, nobody is to move, no round is settled. Without partnerships (R2) the other
        seat with the highest score wins, level scores going to the first clockwise.

        >>> import random
        >>> m = Match.new(3, random.Random(1))
        >>> m.scores = [10, 7, 7]
        >>> m.resign(0), m.over, m.phase, m.round.turn, m.legal_moves(1)
        ({'type': 'resigned', 'seat': 0, 'winner': 1}, True, 'match_over', None, [])
        >>> m.resign(1)
        Traceback (most recent call last):
        ...
        app.engine.errors.MatchOver: R24: the match is over
        """
        if self.over:
            raise MatchOver("R24", "the match is over")
        if self.side_count != self.players or not 0 <= seat < self.players:
            raise ValueError("only a seat of a game without partnerships resigns")
        others = [(seat + k) % self.players for k in range(1, self.players)]
        winner = max(others, key=lambda s: (self.scores[s], -others.index(s)))
        self.over = True
        self.winner = winner
        self.round.turn = None
        return {"type": "resigned", "seat": seat, "winner": winner}

    def _begin(self, rnd: Round) -> None:
        self.round = rnd
        self.round_number += 1
        self.settlement = None

    def round_start_event(self) -> Json:
        """The public event announcing a round (no tiles: hands come through views)."""
        return {"type": "round_start", "round": self.round_number, "starter": self.round.starter}

    # -- serialisation -----------------------------------------------------------------
    def to_dict(self) -> Json:
        """The whole state as JSON-compatible data (holds hidden tiles: server-side only)."""
        rnd = self.round
        laid, stock = self._layout_and_stock(rnd)
        return {
            "format": FORMAT,
            "players": self.players,
            "target": self.target,
            "scores": list(self.scores),
            "round_number": self.round_number,
            "over": self.over,
            "winner": self.winner,
            "settlement": self.settlement,
            "history": list(self.history),  # records are never mutated once appended
            "round": {
                "starter": rnd.starter,
                "turn": rnd.turn,
                "hands": [names_of_mask(h) for h in rnd.hands],
                "stock": stock,
                "layout": laid,
                "must_play": None if rnd.must_play == NO_TILE else NAMES[rnd.must_play],
                "awards": list(rnd.awards),
                "log": self._log_lists(rnd),
                "result": rnd.result,
                "finisher": rnd.finisher,
            },
        }

    def _layout_and_stock(self, rnd: Round) -> tuple[list[str], list[str]]:
        """``rnd``'s layout (``"tile"`` for the opening tile, else ``"tile@place"``) and
        undrawn stock, in order, as :meth:`to_dict` writes them (new lists; each tile's
        text is made once per round)."""
        if self.laid is None or self.laid[0] is not rnd:
            self.laid = (rnd, [], [NAMES[t] for t in rnd.stock_tiles()])
        layout = rnd.layout
        done, stock = self.laid[1], self.laid[2]
        for t in layout.tiles[len(done) :]:
            at = layout.at[t]
            done.append(NAMES[t] if at == OPENING else f"{NAMES[t]}@{PLACE_NAMES[at]}")
        return done.copy(), stock[len(stock) - rnd.stock_size :]

    def _log_lists(self, rnd: Round) -> list[list[Any]]:
        """``rnd``'s log as lists (a new list; its entries are shared, never mutated)."""
        if self.logged is None or self.logged[0] is not rnd or len(self.logged[1]) > len(rnd.log):
            self.logged = (rnd, [])
        done = self.logged[1]
        done.extend(entry_list(e) for e in rnd.log[len(done) :])
        return done.copy()

    @classmethod
    def from_dict(cls, data: Json) -> Match:
        """Rebuild a match from :meth:`to_dict` data. Raises ``ValueError`` if malformed."""
        try:
            if data["format"] != FORMAT:
                raise ValueError(f"unknown state format {data['format']!r}")
            r = data["round"]
            players = int(data["players"])
            rnd = Round(
                players,
                [mask_of([parse_tile(t) for t in hand]) for hand in r["hands"]],
                [parse_tile(t) for t in r["stock"]],
                int(r["starter"]),
            )
            rnd.turn = r["turn"]
            for text in r["layout"]:
                move = Move.parse(text)
                assert move.tile is not None
                if move.kind == "open":
                    rnd.layout.open_with(move.tile)
                else:
                    assert move.place is not None
                    rnd.layout.place(move.tile, move.place)
            rnd.must_play = NO_TILE if r["must_play"] is None else parse_tile(r["must_play"])
            rnd.awards = [int(a) for a in r["awards"]]
            rnd.log = [entry_from_list(e) for e in r["log"]]
            rnd.result = r["result"]
            rnd.finisher = r["finisher"]
            match = cls(players, rnd, data["scores"], int(data["target"]))
            match.round_number = int(data["round_number"])
            match.over = bool(data["over"])
            match.winner = data["winner"]
            match.settlement = data["settlement"]
            match.history = list(data["history"])
        except (KeyError, TypeError, AssertionError, NotationError) as exc:
            raise ValueError(f"malformed match state: {exc!r}") from exc
        if not rnd.tiles_accounted():
            raise ValueError("malformed match state: the 28 tiles are not all accounted for (R1)")
        return match

    def copy(self) -> Match:
        return Match.from_dict(self.to_dict())


__all__ = ["FORMAT", "TARGET", "Match"]
