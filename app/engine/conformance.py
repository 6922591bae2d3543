"""Check rules-conformance fixtures (format: ``shared/conformance/README.md``).

``python -m app.engine.conformance PATH...`` checks every fixture file and every ``*.json``
in the given folders, prints one line per failing fixture (fixture, step, difference) and
ends with ``N passed, M failed``; it exits 0 only when every fixture passes. A malformed
fixture is a failure with a message, never a traceback.

>>> run_fixture({"name": "x", "kind": "board", "rules": ["R8"],
...              "steps": [{"move": "1|4", "expect": {"points": 5, "sum": 5}}]})
>>> print(run_fixture({"name": "x", "kind": "chess", "rules": []}))
unknown kind 'chess'
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.types import Json

from .errors import IllegalMove, NotationError
from .layout import Layout
from .match import Match
from .moves import Move


class FixtureFailure(Exception):
    """One difference between a fixture and the engine."""


def _expect_equal(step: str, key: str, want: object, got: object) -> None:
    if want != got:
        raise FixtureFailure(f"{step}: {key}: expected {want!r}, got {got!r}")


def _same_multiset(step: str, key: str, want: Sequence[Any], got: Sequence[Any]) -> None:
    w = Counter(json.dumps(x, sort_keys=True) for x in want)
    g = Counter(json.dumps(x, sort_keys=True) for x in got)
    if w != g:
        raise FixtureFailure(
            f"{step}: {key}: expected {sorted(want, key=str)!r}, got {sorted(got, key=str)!r}"
        )


def _board_move(layout: Layout, move: Move) -> int:
    if move.kind == "open":
        assert move.tile is not None
        layout.check_opening(move.tile)
        return layout.open_with(move.tile)
    if move.kind == "place":
        assert move.tile is not None and move.place is not None
        layout.check_placement(move.tile, move.place)
        return layout.place(move.tile, move.place)
    raise IllegalMove("R9", "a board fixture has no hands: only placements")


def _run_board(fixture: Json) -> None:
    layout = Layout()
    for i, step in enumerate(fixture["steps"], 1):
        where = f"step {i} ({step.get('move')!r})"
        move = Move.parse(step["move"])
        if step.get("illegal"):
            before = (layout.tiles.copy(), layout.open_places(), layout.end_sum)
            try:
                _board_move(layout, move)
            except IllegalMove:
                after = (layout.tiles.copy(), layout.open_places(), layout.end_sum)
                if before != after:
                    raise FixtureFailure(f"{where}: the refused move changed the layout") from None
                continue
            raise FixtureFailure(f"{where}: expected the move to be refused, it was accepted")
        try:
            points = _board_move(layout, move)
        except IllegalMove as exc:
            raise FixtureFailure(f"{where}: refused: {exc}") from None
        expect = step.get("expect", {})
        if "points" in expect:
            _expect_equal(where, "points", expect["points"], points)
        if "sum" in expect:
            _expect_equal(where, "sum", expect["sum"], layout.end_sum)
        if "contributions" in expect:
            got = [[tile, value] for tile, value in layout.scoring_ends()]
            _same_multiset(where, "contributions", expect["contributions"], got)
        if "places" in expect:
            from .places import format_place

            _same_multiset(
                where, "places", expect["places"], [format_place(p) for p in layout.open_places()]
            )


def _check_state(match: Match, where: str, check: Json) -> None:
    rnd = match.round
    known = {"turn", "legal", "stock", "hand_sizes", "scores"}
    unknown = set(check) - known
    if unknown:
        raise FixtureFailure(f"{where}: unknown check keys {sorted(unknown)}")
    if "turn" in check:
        _expect_equal(where, "turn", check["turn"], match.turn)
    if "legal" in check:
        seat = match.turn
        got = [] if seat is None else [m.text for m in match.legal_moves(seat)]
        _same_multiset(where, "legal", check["legal"], got)
    if "stock" in check:
        _expect_equal(where, "stock", check["stock"], rnd.stock_size)
    if "hand_sizes" in check:
        _expect_equal(where, "hand_sizes", check["hand_sizes"], rnd.hand_sizes())
    if "scores" in check:
        _expect_equal(where, "scores", check["scores"], match.scores)


def _run_actions(match: Match, actions: Sequence[Json], label: str) -> None:
    for i, action in enumerate(actions, 1):
        if "check" in action:
            _check_state(match, f"{label}action {i} (check)", action["check"])
            continue
        where = f"{label}action {i} (seat {action.get('seat')} {action.get('move')!r})"
        seat = action["seat"]
        if action.get("illegal"):
            before = match.to_dict()
            try:
                match.play(seat, action["move"])
            except (IllegalMove, NotationError):
                if match.to_dict() != before:
                    raise FixtureFailure(f"{where}: the refused move changed the state") from None
                continue
            raise FixtureFailure(f"{where}: expected the move to be refused, it was accepted")
        try:
            event = match.play(seat, action["move"])
        except IllegalMove as exc:
            raise FixtureFailure(f"{where}: refused: {exc}") from None
        expect = action.get("expect", {})
        for key in ("points", "drawn", "scores"):
            if key in expect:
                _expect_equal(where, key, expect[key], event[key])
        unknown = set(expect) - {"points", "drawn", "scores"}
        if unknown:
            raise FixtureFailure(f"{where}: unknown expect keys {sorted(unknown)}")


def _check_end(match: Match, end: Json, label: str) -> None:
    where = f"{label}end"
    if not match.round_over:
        raise FixtureFailure(f"{where}: the round is not over (seat {match.turn} to move)")
    settlement = match.settlement
    assert settlement is not None
    for key in ("result", "finisher", "pips", "deductions", "scores"):
        if key in end:
            _expect_equal(where, key, end[key], settlement[key])
    if "match" in end:
        want = end["match"]
        if "over" in want:
            _expect_equal(where, "match over", want["over"], match.over)
        if "winner" in want:
            _expect_equal(where, "match winner", want["winner"], match.winner)


def _run_round(fixture: Json) -> None:
    match = Match.from_deal(
        fixture["hands"], fixture["stock"], fixture["starter"], fixture.get("scores")
    )
    if len(fixture["hands"]) != fixture["players"]:
        raise FixtureFailure(f"players is {fixture['players']} but {len(fixture['hands'])} hands")
    _run_actions(match, fixture["actions"], "")
    if "end" in fixture:
        _check_end(match, fixture["end"], "")


def _run_match(fixture: Json) -> None:
    players = fixture["players"]
    match: Match | None = None
    for r, spec in enumerate(fixture["rounds"], 1):
        label = f"round {r}: "
        if len(spec["hands"]) != players:
            raise FixtureFailure(f"{label}players is {players} but {len(spec['hands'])} hands")
        if match is None:
            match = Match.from_deal(
                spec["hands"], spec["stock"], spec["starter"], fixture.get("scores")
            )
        else:
            previous = match.round
            try:
                match.next_round_from_deal(spec["hands"], spec["stock"], spec.get("starter"))
            except (IllegalMove, ValueError) as exc:
                raise FixtureFailure(f"{label}the next round could not start: {exc}") from None
            if previous.result == "domino":
                _expect_equal(label + "start", "starter (R23)", previous.finisher, match.turn)
        _run_actions(match, spec["actions"], label)
        if "end" in spec:
            _check_end(match, spec["end"], label)


_KINDS = {"board": _run_board, "round": _run_round, "match": _run_match}


def run_fixture(fixture: Any) -> str | None:
    """Check one parsed fixture: ``None`` if it passes, else what differed."""
    if not isinstance(fixture, dict):
        return "a fixture must be a JSON object"
    kind = fixture.get("kind")
    runner = _KINDS.get(kind)  # type: ignore[arg-type]
    if runner is None:
        return f"unknown kind {kind!r}"
    try:
        runner(fixture)
    except FixtureFailure as exc:
        return str(exc)
    except (NotationError, IllegalMove) as exc:
        return f"malformed fixture: bad notation or setup: {exc}"
    except ValueError as exc:
        return f"malformed fixture: {exc}"
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        return f"malformed fixture: missing or wrong field ({type(exc).__name__}: {exc})"
    return None


def fixture_files(paths: Sequence[str]) -> list[Path]:
    """The fixture files named by ``paths`` (folders give their ``*.json`` files, sorted)."""
    files: list[Path] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            files.extend(sorted(path.glob("*.json")))
        else:
            files.append(path)
    return files


def check_file(path: Path) -> str | None:
    """Check one fixture file: ``None`` if it passes, else the failure."""
    try:
        fixture = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"cannot read fixture: {exc}"
    return run_fixture(fixture)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: check fixtures, print failures and the tally."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print("usage: python -m app.engine.conformance PATH [PATH...]", file=sys.stderr)
        return 2
    passed = failed = 0
    for path in fixture_files(args):
        failure = check_file(path)
        if failure is None:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {path}: {failure}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 and passed > 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
