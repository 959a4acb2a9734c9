import json
import xml.etree.ElementTree as ElementTree

import pytest

from negamax.core.types import SearchLimits
from negamax.games import get_game
from negamax.games.tictactoe.rules import TicTacToeGame
from negamax.games.tree import TreeGame
from negamax.search import search
from negamax.search.trace import SearchTrace
from negamax.viz.render import FORMATS, render
from tests import oracle

GAME = TreeGame()
POSITION = GAME.new_position("[[3,12,8],[2,4,6],[14,5,2]]")


def _trace() -> SearchTrace:
    trace = SearchTrace()
    search(POSITION, SearchLimits(depth=2), algorithm="alphabeta", trace=trace)
    return trace


def test_text_tree_shows_windows_values_and_pruning() -> None:
    text = render(_trace(), GAME, POSITION, "text")
    lines = text.splitlines()
    assert lines[0] == "root: 3  [-inf, +inf]"
    assert "    pruned: b c" in lines
    assert lines[-1] == "11 nodes, 2 moves pruned"


def test_a_node_whose_player_moves_again_says_so() -> None:
    game = get_game(f"{oracle.EXAMPLE}:Kalah")
    position = game.new_position("start")
    trace = SearchTrace()
    search(position, SearchLimits(depth=2), algorithm="alphabeta", trace=trace)
    lines = render(trace, game, position, "text").splitlines()
    assert any(line.startswith("  3: ") and "(moves again)" in line for line in lines)  # a child of the root
    players = [node["player"] for node in json.loads(render(trace, game, position, "json"))["nodes"]]
    assert players[0] == 0 and set(players) == {0, 1}


def test_json_carries_every_node() -> None:
    data = json.loads(render(_trace(), GAME, POSITION, "json"))
    assert len(data["nodes"]) == 11 and data["pv"][0] == 0
    assert data["nodes"][4]["cut_moves"] == [] and sum(len(node["cut_moves"]) for node in data["nodes"]) == 2


def test_svg_is_well_formed_and_draws_every_node_and_pruned_branch() -> None:
    svg = render(_trace(), GAME, POSITION, "svg", "alpha-beta")
    root = ElementTree.fromstring(svg)
    groups = [element for element in root.iter() if element.get("id", "").startswith("node")]
    assert len(groups) == 11
    assert svg.count('class="edge pruned"') == 2


def test_dot_and_html_are_complete() -> None:
    trace = _trace()
    dot = render(trace, GAME, POSITION, "dot")
    assert dot.startswith("digraph search {") and dot.count("-> n") == 10 and dot.count("style=dashed") == 2
    page = render(trace, GAME, POSITION, "html", "title")
    assert page.startswith("<!DOCTYPE html>") and "http" not in page.replace("http://www.w3.org/2000/svg", "")
    assert page.count('id="node') == 11 and 'id="play"' in page and 'id="window"' in page


def test_unknown_format() -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render(_trace(), GAME, POSITION, "png")
    assert set(FORMATS) == {"text", "json", "dot", "svg", "html"}


def test_tictactoe_moves_are_labelled_in_its_notation() -> None:
    game = TicTacToeGame()
    position = game.new_position("0438")
    trace = SearchTrace()
    search(position, SearchLimits(depth=2), algorithm="alphabeta", trace=trace)
    text = render(trace, game, position, "text")
    assert text.splitlines()[1].lstrip().startswith(("1:", "2:", "5:", "6:", "7:"))
