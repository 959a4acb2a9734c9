"""Turning search results into text and JSON for the command line."""

from __future__ import annotations

import json
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game, game_score_or_none, pv_text
from negamax.core.score import INF, describe, is_decisive, not_proven_text
from negamax.core.types import Line, SearchResult


def result_record(game: Game, position: Position[Any], position_text: str, result: SearchResult[Any]) -> dict[str, Any]:
    best = game.move_text(position, result.best_move) if result.best_move is not None else None
    return {
        "game": game.name,
        "position": position_text,
        "algorithm": result.algorithm,
        **_value_fields(game, position, result),
        "best_move": best,
        "pv": pv_text(game, position, result.pv),
        "depth": result.depth,
        "nodes": result.nodes,
        "time_s": round(result.cpu_time, 6),
        "wall_s": round(result.wall_time, 6),
        "nodes_per_second": round(result.nodes_per_second),
        "completed": result.completed,
        "stats": result.stats.as_dict(),
        **({"lines": [line_record(game, position, line) for line in result.lines]} if len(result.lines) > 1 else {}),
    }


def line_record(game: Game, position: Position[Any], line: Line[Any]) -> dict[str, Any]:
    """One root move's line of a search that scored several (``--multipv``); a Monte Carlo
    search's with its playouts and the share of them won."""
    monte_carlo = {} if line.visits is None else {"visits": line.visits, "win_rate": line.win_rate}
    return {
        "move": game.move_text(position, line.move),
        **_value_fields(game, position, line),
        "pv": pv_text(game, position, line.pv),
        **monte_carlo,
    }


def _value_fields(game: Game, position: Position[Any], found: SearchResult[Any] | Line[Any]) -> dict[str, Any]:
    """The value of a result or line: its score (for a solve cut short, the lower bound
    it proved), what the score proves, and the proven bounds, in the game's own units
    (``None``: no bound) and the search's."""
    return {
        "score": game_score_or_none(game, position, found.score),
        "engine_score": found.score if abs(found.score) < INF else None,
        "score_text": found.score_text,
        "bound": found.bound.name.lower(),
        "lower": game_score_or_none(game, position, found.lower),
        "upper": game_score_or_none(game, position, found.upper),
    }


def result_text(record: dict[str, Any]) -> str:
    stats = record["stats"]
    monte_carlo = "mcts" in record["algorithm"]
    lines = [
        f"score      {_value_text(record, '  ')}",
        f"best move  {record['best_move'] if record['best_move'] is not None else '(game over)'}",
        f"pv         {' '.join(record['pv'])}",
    ]
    if monte_carlo:  # no depth, no cut-off: playouts, and how deep the tree grew
        lines += [
            f"playouts   {record['nodes']:,}  ({record['nodes_per_second']:,} playouts/CPU-s), the tree"
            f" {stats['seldepth']} plies deep",
            f"time       {record['time_s']:.3f} s CPU, {record['wall_s']:.3f} s wall",
        ]
    else:
        lines += [
            f"depth      {record['depth']}",
            f"nodes      {record['nodes']:,}  ({record['nodes_per_second']:,} nodes/CPU-s)",
            f"time       {record['time_s']:.3f} s CPU, {record['wall_s']:.3f} s wall",
            f"cutoffs    {stats['beta_cutoffs']:,} (first move {stats['first_move_cutoff_rate']:.0%}),"
            f" TT hits {stats['tt_hits']:,}/{stats['tt_probes']:,}",
        ]
    for number, line in enumerate(record.get("lines", ()), start=1):
        visits = ""
        if line.get("visits") is not None:
            rate = "" if line["win_rate"] is None else f", {line['win_rate']:.1%} won"
            visits = f"  ({line['visits']:,} playouts{rate})"
        lines.append(f"line {number:<5} {_value_text(line, ' ')}{visits}  {' '.join(line['pv'])}")
    if not record["completed"]:
        lines.append("stopped    before the search finished: what was proven so far is shown")
    return "\n".join(lines)


def _value_text(record: dict[str, Any], gap: str) -> str:
    """A record's value as the command prints it: ``'18  [win in 7]'`` (its reading after
    ``gap``), ``'35 (lower bound)'``, or for a value only bounded (a solve cut short)
    ``'not proven: at least 0, at most +3'``, in the game's own units."""
    low, high = record["lower"], record["upper"]
    if record["bound"] != "exact" and (low is None or high is None or low < high):
        return not_proven_text(-INF if low is None else low, INF if high is None else high, _bound_text)
    bound = "" if record["bound"] == "exact" else f" ({record['bound']} bound)"
    reading = "" if record["score_text"] == str(record["score"]) else f"{gap}[{record['score_text']}]"
    return f"{record['score']}{bound}{reading}"


def _bound_text(value: int) -> str:
    """A bound in the game's own units: ``'+3'``, ``'0'``, ``'-2'``; a game that scores in
    the search's units shows its wins as such (``'win in 5'``)."""
    return describe(value) if is_decisive(value) or value == 0 else f"{value:+d}"


def duration_text(seconds: float) -> str:
    """``'8.2 us'``, ``'5.11 ms'`` or ``'3.04 s'``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(", ", ": "))


MAX_LINE = 500
"""The longest message line: one that quotes a 120 KB argument is cut in its middle."""


def one_line(text: str, limit: int = MAX_LINE) -> str:
    """``text`` with its unprintable characters escaped: a message that quotes what the
    user typed (a newline inside an argument, say) stays one line, of at most ``limit``
    characters (the middle left out, its length said)."""
    line = "".join(character if character.isprintable() else repr(character)[1:-1] for character in text)
    if len(line) <= limit:
        return line
    cut = f" [...{len(line) - limit:,} characters...] "
    keep = (limit - len(cut)) // 2
    return line[:keep] + cut + line[-keep:]
