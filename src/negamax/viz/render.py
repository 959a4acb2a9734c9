"""Renderers for a recorded search: one trace, five formats.

* ``text``: an indented tree for the terminal;
* ``json``: every node with its window, value, bound, table answer and pruned moves;
* ``dot``: Graphviz source (pruned branches faded and dashed, the principal variation bold);
* ``svg``: the same picture drawn directly (no Graphviz needed), self-contained;
* ``html``: one self-contained page that steps through the search node by node, with
  play, pause and step controls and the current alpha and beta shown.
"""

from __future__ import annotations

import html
import json
from typing import Any

from negamax.core.game import Position
from negamax.core.rules import Game
from negamax.search.trace import SearchTrace
from negamax.viz.labels import move_labels, pruned_labels, value_text, window_text

FORMATS = ("text", "json", "dot", "svg", "html")


class TraceView:
    """A trace with its game and position, shown as a picture in notebooks.

    >>> from negamax.core.types import SearchLimits
    >>> from negamax.games.tree import TreeGame
    >>> from negamax.search import search
    >>> game = TreeGame()
    >>> position = game.new_position("[[3,12,8],[2,4,6],[14,5,2]]")
    >>> trace = SearchTrace()
    >>> _ = search(position, SearchLimits(depth=2), algorithm="alphabeta", trace=trace)
    >>> view = TraceView(trace, game, position)
    >>> view._repr_svg_().startswith("<svg"), "<script>" in view._repr_html_()
    (True, True)
    """

    def __init__(self, trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> None:
        self.trace, self.game, self.position, self.title = trace, game, position, title

    def _repr_svg_(self) -> str:
        return to_svg(self.trace, self.game, self.position, self.title)

    def _repr_html_(self) -> str:
        return to_html(self.trace, self.game, self.position, self.title)

    def __str__(self) -> str:
        return to_text(self.trace, self.game, self.position, self.title)


def render(trace: SearchTrace, game: Game, position: Position[Any], form: str, title: str = "") -> str:
    """The trace in ``form`` (one of ``FORMATS``)."""
    renderers = {"text": to_text, "json": to_json, "dot": to_dot, "svg": to_svg, "html": to_html}
    if form not in renderers:
        raise ValueError(f"unknown format {form!r}; choose one of {', '.join(FORMATS)}")
    return renderers[form](trace, game, position, title)


def _node_caption(trace: SearchTrace, index: int) -> str:
    node = trace.nodes[index]
    bound = "" if node.bound.name == "EXACT" else (" (lower)" if node.bound.name == "LOWER" else " (upper)")
    table = " TT" if node.tt_cutoff else ""
    parent = None if node.parent is None else trace.nodes[node.parent]
    # where a player moves twice, the value is that same player's: say so, it is not negated
    again = " (moves again)" if parent is not None and node.player is not None and node.player == parent.player else ""
    return f"{value_text(node.value)}{bound}{table}{again}"


def to_text(trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> str:
    labels, pruned = move_labels(trace, game, position), pruned_labels(trace, game, position)
    lines = [title] if title else []

    def visit(index: int, indent: int) -> None:
        node = trace.nodes[index]
        move = labels.get(index) or "root"
        window = window_text(node)
        lines.append(f"{'  ' * indent}{move}: {_node_caption(trace, index)}  {window}".rstrip())
        for child in node.children:
            visit(child, indent + 1)
        if index in pruned:
            lines.append(f"{'  ' * (indent + 1)}pruned: {' '.join(pruned[index])}")

    if trace.nodes:
        visit(0, 0)
    lines.append(f"{len(trace.nodes)} nodes, {sum(len(moves) for moves in pruned.values())} moves pruned")
    return "\n".join(lines)


def to_json(trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> str:
    labels = move_labels(trace, game, position)
    records = trace.as_dicts()
    pruned = pruned_labels(trace, game, position)
    for record in records:
        record["move"] = labels.get(record["index"], "")
        record["cut_moves"] = pruned.get(record["index"], [])
        record["path"] = [str(step) for step in record["path"]]
    return json.dumps({"game": game.name, "title": title, "nodes": records, "pv": trace.principal_variation()})


def to_dot(trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> str:
    labels, pruned = move_labels(trace, game, position), pruned_labels(trace, game, position)
    principal = set(trace.principal_variation())
    lines = ["digraph search {", '  node [shape=box, fontname="Helvetica", fontsize=10];']
    if title:
        lines.append(f'  label="{_dot_escape(title)}"; labelloc=t;')
    for node in trace.nodes:
        caption = _dot_escape(_node_caption(trace, node.index))
        if window_text(node):
            caption += "\\n" + _dot_escape(window_text(node))
        style = ', penwidth=2.5, color="#c0392b"' if node.index in principal else ""
        lines.append(f'  n{node.index} [label="{caption}"{style}];')
        if node.parent is not None:
            edge = ', penwidth=2.5, color="#c0392b"' if node.index in principal else ""
            lines.append(f'  n{node.parent} -> n{node.index} [label="{_dot_escape(labels[node.index])}"{edge}];')
        for number, move in enumerate(pruned.get(node.index, [])):
            stub = f"p{node.index}_{number}"
            lines.append(f'  {stub} [label="pruned", style="dashed", color="#bbbbbb", fontcolor="#bbbbbb"];')
            lines.append(f'  n{node.index} -> {stub} [label="{_dot_escape(move)}", style=dashed, color="#bbbbbb"];')
    lines.append("}")
    return "\n".join(lines)


def _dot_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')


# -- SVG: a tidy tree laid out by hand -------------------------------------------------

SLOT_WIDTH = 88
LEVEL_HEIGHT = 84
MARGIN = 30


def _layout(trace: SearchTrace, pruned: dict[int, list[str]]) -> tuple[dict[str, tuple[float, float]], int, int]:
    """Positions of nodes ('n<i>') and pruned stubs ('p<i>_<k>'): leaves take the next
    slot left to right, parents sit above the middle of their children."""
    places: dict[str, tuple[float, float]] = {}
    next_slot = 0
    deepest = 0

    def place(index: int, level: int) -> float:
        nonlocal next_slot, deepest
        deepest = max(deepest, level)
        node = trace.nodes[index]
        xs = [place(child, level + 1) for child in node.children]
        for number in range(len(pruned.get(index, []))):
            places[f"p{index}_{number}"] = (next_slot, level + 1)
            xs.append(next_slot)
            next_slot += 1
            deepest = max(deepest, level + 1)
        if xs:
            x = (min(xs) + max(xs)) / 2
        else:
            x = next_slot
            next_slot += 1
        places[f"n{index}"] = (x, level)
        return x

    if trace.nodes:
        place(0, 0)
    width = int(max(next_slot, 1) * SLOT_WIDTH + 2 * MARGIN)
    height = int((deepest + 1) * LEVEL_HEIGHT + 2 * MARGIN)
    return places, width, height


def _xy(place: tuple[float, float]) -> tuple[float, float]:
    return MARGIN + place[0] * SLOT_WIDTH + SLOT_WIDTH / 2, MARGIN + place[1] * LEVEL_HEIGHT + 14


def to_svg(trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> str:
    labels, pruned = move_labels(trace, game, position), pruned_labels(trace, game, position)
    places, width, height = _layout(trace, pruned)
    principal = set(trace.principal_variation())
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height + 20}" '
        f'viewBox="0 0 {width} {height + 20}" font-family="Helvetica, Arial, sans-serif" font-size="11">',
        "<style>.edge{stroke:#555;stroke-width:1.2}.pv{stroke:#c0392b;stroke-width:3}"
        ".pruned{stroke:#bbb;stroke-dasharray:4 3}.node{fill:#fff;stroke:#333}"
        ".pvnode{fill:#fdecea;stroke:#c0392b;stroke-width:2}"
        ".tt{fill:#eaf2fd}.faded{fill:#bbb}.window{fill:#666;font-size:9px}</style>",
    ]
    if title:
        parts.append(f'<text x="{MARGIN}" y="16" font-size="13">{html.escape(title)}</text>')
    for node in trace.nodes:  # edges first, under the nodes
        if node.parent is None:
            continue
        (x1, y1), (x2, y2) = _xy(places[f"n{node.parent}"]), _xy(places[f"n{node.index}"])
        css = "edge pv" if node.index in principal and node.parent in principal else "edge"
        parts.append(f'<line class="{css}" x1="{x1:.0f}" y1="{y1 + 29:.0f}" x2="{x2:.0f}" y2="{y2 - 12:.0f}"/>')
        parts.append(
            f'<text x="{(x1 + x2) / 2 + 4:.0f}" y="{(y1 + y2) / 2:.0f}">{html.escape(labels[node.index])}</text>'
        )
    for index, moves in pruned.items():
        x1, y1 = _xy(places[f"n{index}"])
        for number, move in enumerate(moves):
            x2, y2 = _xy(places[f"p{index}_{number}"])
            parts.append(
                f'<line class="edge pruned" x1="{x1:.0f}" y1="{y1 + 29:.0f}" x2="{x2:.0f}" y2="{y2 - 8:.0f}"/>'
            )
            parts.append(
                f'<text class="faded" x="{x2:.0f}" y="{y2 + 4:.0f}" text-anchor="middle">'
                f"&#x2702; {html.escape(move)}</text>"
            )
    for node in trace.nodes:
        x, y = _xy(places[f"n{node.index}"])
        css = "pvnode" if node.index in principal else ("node tt" if node.tt_cutoff else "node")
        caption, window = html.escape(_node_caption(trace, node.index)), html.escape(window_text(node))
        parts.append(
            f'<g id="node{node.index}">'
            f'<rect class="{css}" x="{x - 38:.0f}" y="{y - 12:.0f}" width="76" height="24" rx="5"/>'
            f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle">{caption}</text>'
            f'<text class="window" x="{x:.0f}" y="{y + 24:.0f}" text-anchor="middle">{window}</text></g>'
        )
    legend = (
        "red: principal variation · blue: answered by the table · ✂ dashed: pruned by a cut-off · [alpha, beta] below"
    )
    parts.append(f'<text x="{MARGIN}" y="{height + 12}" fill="#666">{legend}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def to_html(trace: SearchTrace, game: Game, position: Position[Any], title: str = "") -> str:
    """A self-contained page (no network) stepping through the search in visiting order."""
    svg = to_svg(trace, game, position, "")
    steps = [
        {
            "node": node.index,
            "window": window_text(node),
            "caption": _node_caption(trace, node.index),
            "depth": node.depth,
        }
        for node in trace.nodes
    ]
    data = json.dumps(steps)
    heading = html.escape(title or f"{game.name}: {len(trace.nodes)} nodes")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{heading}</title>
<style>
body {{ font-family: Helvetica, Arial, sans-serif; margin: 16px; }}
#controls button {{ font-size: 14px; margin-right: 6px; }}
#status {{ margin: 10px 0; font-size: 15px; }}
svg g {{ transition: opacity 0.2s; }}
svg g.hidden {{ opacity: 0.08; }}
svg g.current rect {{ stroke: #f39c12; stroke-width: 4; }}
</style></head><body>
<h2>{heading}</h2>
<div id="controls"><button id="play">Play</button><button id="pause">Pause</button>
<button id="back">&#9664; Step</button><button id="step">Step &#9654;</button>
<button id="all">Show all</button></div>
<div id="status">step <span id="number">0</span> / {len(steps)}: alpha, beta = <b id="window">-</b>,
value <b id="value">-</b></div>
<div id="tree">{svg}</div>
<script>
const steps = {data};
let shown = 0, timer = null;
function draw() {{
  steps.forEach((step, i) => {{
    const group = document.getElementById('node' + step.node);
    if (!group) return;
    group.classList.toggle('hidden', i >= shown);
    group.classList.toggle('current', i === shown - 1);
  }});
  const step = steps[shown - 1];
  document.getElementById('number').textContent = shown;
  document.getElementById('window').textContent = step ? (step.window || '(no window)') : '-';
  document.getElementById('value').textContent = step ? step.caption : '-';
}}
document.getElementById('step').onclick = () => {{ if (shown < steps.length) shown++; draw(); }};
document.getElementById('back').onclick = () => {{ if (shown > 0) shown--; draw(); }};
document.getElementById('all').onclick = () => {{ shown = steps.length; draw(); }};
document.getElementById('play').onclick = () => {{
  if (timer) return;
  timer = setInterval(() => {{ if (shown >= steps.length) {{ clearInterval(timer); timer = null; return; }}
    shown++; draw(); }}, 400);
}};
document.getElementById('pause').onclick = () => {{ clearInterval(timer); timer = null; }};
draw();
</script></body></html>
"""
