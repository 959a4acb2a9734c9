"""Turning search results into text and JSON for the command line."""

from __future__ import annotations

import json
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game, pv_text
from negamax.core.score import INF, describe
from negamax.core.types import Line, SearchResult


def result_record(game: Game, position: Position[Any], position_text: str, result: SearchResult[Any]) -> dict[str, Any]:
    best = game.move_text(position, result.best_move) if result.best_move is not None else None
    return {
        "game": game.name,
        "position": position_text,
        "algorithm": result.algorithm,
        "score": game.game_score(position, result.score),
        "engine_score": result.score,
        "score_text": describe(result.score),
        "bound": result.bound.name.lower(),
        "lower": game.game_score(position, result.lower) if abs(result.lower) < INF else None,
        "upper": game.game_score(position, result.upper) if abs(result.upper) < INF else None,
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
    """One root move's line of a search that scored several (``--multipv``)."""
    return {
        "move": game.move_text(position, line.move),
        "score": game.game_score(position, line.score),
        "engine_score": line.score,
        "score_text": describe(line.score),
        "bound": line.bound.name.lower(),
        "pv": pv_text(game, position, line.pv),
    }


def result_text(record: dict[str, Any]) -> str:
    bound = "" if record["bound"] == "exact" else f" ({record['bound']} bound)"
    reading = "" if record["score_text"] == str(record["score"]) else f"  [{record['score_text']}]"
    lines = [
        f"score      {record['score']}{bound}{reading}",
        f"best move  {record['best_move'] if record['best_move'] is not None else '(game over)'}",
        f"pv         {' '.join(record['pv'])}",
        f"depth      {record['depth']}",
        f"nodes      {record['nodes']:,}  ({record['nodes_per_second']:,} nodes/CPU-s)",
        f"time       {record['time_s']:.3f} s CPU, {record['wall_s']:.3f} s wall",
    ]
    stats = record["stats"]
    lines.append(
        f"cutoffs    {stats['beta_cutoffs']:,} (first move {stats['first_move_cutoff_rate']:.0%}),"
        f" TT hits {stats['tt_hits']:,}/{stats['tt_probes']:,}"
    )
    for number, line in enumerate(record.get("lines", ()), start=1):
        bound = "" if line["bound"] == "exact" else f" ({line['bound']} bound)"
        reading = "" if line["score_text"] == str(line["score"]) else f" [{line['score_text']}]"
        lines.append(f"line {number:<5} {line['score']}{bound}{reading}  {' '.join(line['pv'])}")
    if not record["completed"]:
        if record["lower"] != record["upper"]:
            low = "-inf" if record["lower"] is None else record["lower"]
            high = "+inf" if record["upper"] is None else record["upper"]
            lines.append(f"proven     the value is between {low} and {high}")
        lines.append("stopped    before the search finished: what was proven so far is shown")
    return "\n".join(lines)


def duration_text(seconds: float) -> str:
    """``'8.2 us'``, ``'5.11 ms'`` or ``'3.04 s'``."""
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, separators=(", ", ": "))


def one_line(text: str) -> str:
    """``text`` with its unprintable characters escaped: a message that quotes what the
    user typed (a newline inside an argument, say) stays one line."""
    return "".join(character if character.isprintable() else repr(character)[1:-1] for character in text)
