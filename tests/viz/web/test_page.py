"""The page in a real Chromium, played as a person plays it: Connect 4 by clicking columns
with the solution's column scores checked against the solver, chess by clicking and
dragging (a capture, a promotion), a draughts multi-capture square by square, the search
tree, and a bad position. Screenshots land in ``.artifacts/screenshots``."""

from __future__ import annotations

import re
import urllib.parse
from typing import Any

import chess
import pytest

from tests.viz.web.conftest import CONNECT4, DATA, Compiling, Web, column_scores, end_game_cases, screenshot

LABELS = "[...document.querySelectorAll('#board text.solution')]"
SCORES = f"{LABELS}.map(t => t.childNodes[0]?.nodeValue ?? '')"
PLAYED = "document.querySelectorAll('#history button').length"


def open_game(page: Any, web: Web, game: str, start: str = "", moves: str = "", board: str = "#board svg") -> None:
    page.goto("about:blank")  # a new document, not just a new hash on the same one
    page.goto(f"{web.url}#game={game}&start={urllib.parse.quote(start)}&moves={moves}")
    page.wait_for_selector(board)


def moves_in_url(page: Any) -> list[str]:
    fields = dict(part.split("=", 1) for part in page.evaluate("location.hash").lstrip("#").split("&"))
    return [urllib.parse.unquote(move) for move in fields["moves"].split(",") if move]


def solution_shown(page: Any) -> dict[str, int]:
    page.wait_for_function(f"{SCORES}.some(text => text !== '') && !{SCORES}.includes('…')", timeout=30_000)
    columns = page.evaluate(f"{LABELS}.map(t => [t.dataset.move, t.childNodes[0]?.nodeValue ?? ''])")
    return {column: int(score) for column, score in columns if score not in ("", "?")}


def first_plies_cases(count: int) -> dict[str, dict[str, int]]:
    """Positions of Pons' Begin-Hard set a column after a position of at most 4 plies:
    parent moves -> {column: the column's score at the parent, minus the child's}."""
    cases: dict[str, dict[str, int]] = {}
    for line in (DATA / "Test_L1_R3").read_text().split("\n"):
        if line and len(line.split()[0]) <= 5:
            moves, score = line.split()
            cases.setdefault(moves[:-1], {})[moves[-1]] = -int(score)
    return dict(sorted(cases.items(), key=lambda case: (len(case[0]), case[0]))[:count])


def test_connect4_first_plies_answered_from_the_shipped_book_as_pons(page: Any, web: Web) -> None:
    cases = first_plies_cases(8)
    assert min(len(moves) for moves in cases) <= 2 and len(cases) == 8
    for moves, columns in cases.items():
        open_game(page, web, "connect4", moves=",".join(moves))
        page.uncheck("#autoplay")
        page.check("#solution")
        shown = solution_shown(page)
        assert len(shown) == 7 and all(shown[column] == score for column, score in columns.items()), moves
    open_game(page, web, "connect4")  # the very first move
    page.check("#solution")
    assert solution_shown(page) == dict(zip("1234567", (-2, -1, 0, 1, 0, -1, -2), strict=True))
    screenshot(page, "connect4-solution-first-move")


@pytest.mark.timing
def test_connect4_first_plies_scores_appear_within_a_second_and_a_half(page: Any, web: Web) -> None:
    for moves in [*first_plies_cases(6), ""]:
        open_game(page, web, "connect4", moves=",".join(moves))
        page.uncheck("#autoplay")
        page.check("#solution")
        page.wait_for_function(f"{SCORES}.filter(text => /^-?[0-9]+$/.test(text)).length === 7", timeout=1500)


def test_connect4_played_by_clicking_columns_with_the_solution(page: Any, web: Web) -> None:
    start, value = end_game_cases(1)[0]
    open_game(page, web, "connect4", start)
    page.select_option("#seconds", "0.2")
    page.check("#solution")
    shown = solution_shown(page)
    assert shown == column_scores(start) and max(shown.values()) == value
    screenshot(page, "connect4-solution")
    mover, other = ("red", "yellow") if len(start) % 2 == 0 else ("yellow", "red")
    expected = f"{mover} wins" if value > 0 else f"{other} wins" if value < 0 else "draw"
    checked = 1
    for _ in range(12):
        played = page.evaluate(PLAYED)
        best = max(shown, key=lambda column: shown[column])
        page.click(f"#board rect.column[data-move='{best}']")
        # our disc, then the engine's reply, or the end of the game
        page.wait_for_function(
            f"{PLAYED} >= {played} + 2 || document.querySelector('#result').textContent", timeout=30_000
        )
        if page.text_content("#result"):
            break
        assert page.locator("#board circle.last").count() == 1  # the engine's reply marked
        shown = solution_shown(page)
        position = start + "".join(moves_in_url(page))
        assert shown == column_scores(position), position
        checked += 1
    screenshot(page, "connect4-end")
    assert page.text_content("#result") == expected  # both sides played perfectly to the end
    assert checked >= 2
    if value != 0:  # the winning four ringed on the board
        assert page.locator("#board circle.four").count() >= 4


def test_chess_by_clicking_and_dragging(page: Any, web: Web) -> None:
    fen = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2"
    open_game(page, web, "chess", fen)
    page.select_option("#seconds", "0.2")
    page.click("#board rect[data-square=e4]")
    assert page.locator("#board g.mark circle").count() == 2  # the hints: e5 and the capture on d5
    page.click("#board rect[data-square=d5]")
    page.wait_for_function(f"{PLAYED} === 2", timeout=30_000)
    board = chess.Board(fen)
    for move in moves_in_url(page):
        board.push_uci(move)  # the capture, then the engine's legal reply
    assert moves_in_url(page)[0] == "e4d5" and board.piece_at(chess.D5) is not None
    assert page.text_content("#history button") == "exd5"

    start = page.locator("#board rect[data-square=g1]").bounding_box()
    end = page.locator("#board rect[data-square=f3]").bounding_box()
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function(f"{PLAYED} === 4", timeout=30_000)
    assert moves_in_url(page)[2] == "g1f3"
    screenshot(page, "chess")

    open_game(page, web, "chess", "8/P7/8/8/8/8/k6K/8 w - - 0 1")
    page.uncheck("#autoplay")
    page.click("#board rect[data-square=a7]")
    page.click("#board rect[data-square=a8]")
    page.click("#promotion button[data-piece=n]")
    page.wait_for_function(f"{PLAYED} === 1")
    assert moves_in_url(page) == ["a7a8n"] and page.text_content("#history button") == "a8=N"


def test_a_draughts_capture_square_by_square(page: Any, web: Web) -> None:
    open_game(page, web, "draughts", "W:W38:B33,22,23")
    page.uncheck("#autoplay")
    for square in (38, 29, 18):
        page.click(f"#board rect[data-square='{square}']")
        assert page.evaluate(PLAYED) == 0
    page.click("#board rect[data-square='27']")
    page.wait_for_function(f"{PLAYED} === 1")
    assert moves_in_url(page) == ["38x29x18x27"] and page.text_content("#result") == "white wins"
    # the three pieces taken stay on the board, faint and crossed out, and the move is tinted
    assert page.locator("#board g.captured").count() == 3
    assert page.locator("#board rect.last-move").count() == 4

    open_game(page, web, "draughts", "W:WK46:B37,19")  # a king with three ways on after 32
    for square in (46, 32, 10):
        page.click(f"#board rect[data-square='{square}']")
    page.wait_for_function(f"{PLAYED} === 1")
    assert moves_in_url(page) == ["46x32x10"]

    open_game(page, web, "draughts", moves="32-28,19-23")
    page.select_option("#seconds", "0.2")
    page.click("#board rect[data-square='28']")
    page.click("#board rect[data-square='19']")  # 28x19: the capture the rules demand
    page.wait_for_function(f"{PLAYED} === 4", timeout=30_000)
    screenshot(page, "draughts")


def traced_root(page: Any, web: Web) -> tuple[Any, Any]:
    """The boxes of the root node and of the tree's area, once tic-tac-toe after X in 0 is traced."""
    open_game(page, web, "tictactoe", moves="0")
    page.click("#trace")
    page.wait_for_selector("#tree g.node[data-index='0']")
    return page.locator("#tree g.node[data-index='0'] circle").bounding_box(), page.locator("#tree").bounding_box()


def test_the_search_tree_opens_on_its_root(page: Any, web: Web) -> None:
    root, area = traced_root(page, web)
    assert area["x"] <= root["x"] and root["x"] + root["width"] <= area["x"] + area["width"]
    assert area["y"] <= root["y"] and root["y"] + root["height"] <= area["y"] + area["height"]
    assert "to depth" in page.text_content("#tree-note")

    folded = page.locator("#tree .badge", has_text="+").first
    before = page.locator("#tree g.node").count()
    folded.click()
    assert page.locator("#tree g.node").count() > before  # the subtree opened

    page.hover("#tree g.node.pv >> nth=1")  # the engine's best reply, on the best line
    page.wait_for_function("document.querySelector('#node-info b').textContent !== 'the position searched (the root)'")
    page.wait_for_selector("#node-info .preview svg")
    path = (page.text_content("#node-info b") or "").split()
    assert "window [alpha, beta]" in page.text_content("#node-info")
    marks = page.locator("#node-info .preview svg .mark:not(.last):not(.three)").count()
    assert path and set(path) <= {str(cell) for cell in range(1, 9)}
    assert marks == 1 + len(path)  # its board: the X in 0, and a mark for each move down to it
    screenshot(page, "tree")


def test_stepping_an_alpha_beta_search_forward_and_back(page: Any, web: Web) -> None:
    open_game(page, web, "tictactoe", moves="0,4,3,8")
    assert not page.is_visible("#stepper")  # nothing to step through before a trace
    page.select_option("#trace-algorithm", "alphabeta")
    page.click("#trace")
    page.wait_for_selector("#stepper:not([hidden])")
    total = int((page.text_content("#step-count") or "0").replace(",", ""))
    assert total > 4 and total % 2 == 0  # every node entered once and backed up once
    page.click("#step-first")
    assert (page.text_content("#step-text") or "").startswith("enter the root with the window [-inf, +inf]")
    assert page.text_content("#step-window") == "at the root: alpha -inf · beta +inf"  # whose window it is
    assert page.locator("#tree g.node.future").count() == page.locator("#tree g.node").count() - 1
    # forward to the first cut-off: its reason in words, its pruned branch drawn (dashed)
    for _ in range(total):
        page.click("#step-forward")
        if page.get_attribute("#step-text", "class") == "cut":
            break
    text = page.text_content("#step-text") or ""
    assert ". Cut-off at " in text and ">= beta" in text and "pruned (" in text, text
    assert "best" in (page.text_content("#step-window") or "")
    at = int(page.input_value("#step-number"))
    assert page.locator("#tree path[data-pruned]:not(.future)").count() == 1
    screenshot(page, "stepper-cut-off")
    page.click("#step-back")  # one step before the cut: its branch not drawn yet
    assert int(page.input_value("#step-number")) == at - 1
    assert page.locator("#tree path[data-pruned]:not(.future)").count() == 0
    page.fill("#step-number", str(total))
    page.dispatch_event("#step-number", "change")
    assert (page.text_content("#step-text") or "").startswith("the root is searched: worth ")
    assert page.locator("#tree g.node.future").count() == 0
    page.click("#step-first")
    page.click("#step-done")  # the finished search is the last step, said so
    assert int(page.input_value("#step-number")) == total
    assert (page.text_content("#step-text") or "").startswith("the root is searched: worth ")


@pytest.mark.numba  # the server loads every game's kernels
def test_every_game_mid_game(page: Any, web: Web) -> None:
    for game, moves in [
        ("tictactoe", "4,0,8"),
        ("nim", "1:1,3:2"),
        ("connect4", "4,4,3,5,3"),
        ("checkers", "11-15,22-18"),
    ]:
        open_game(page, web, game, moves=moves)
        page.click("#analyse")
        # a searched answer counts its nodes; Connect 4's position is the shipped book's
        done = "nodes" if game != "connect4" else "from the book"
        page.wait_for_function(f"document.querySelector('#stats').textContent.includes('{done}')", timeout=30_000)
        assert page.evaluate(PLAYED) == len(moves.split(","))
        screenshot(page, game)


def test_the_engine_panel_lists_the_best_three_moves(page: Any, web: Web) -> None:
    open_game(page, web, "connect4", moves="4,4,3")
    page.select_option("#lines", "3")
    page.click("#analyse")
    page.wait_for_function("document.querySelectorAll('#engine-lines li').length === 3", timeout=30_000)
    moves = page.eval_on_selector_all("#engine-lines li", "rows => rows.map((row) => row.dataset.move)")
    rows = page.locator("#engine-lines li").all_text_contents()
    assert len(set(moves)) == 3 and all(len(row.split()) > 1 for row in rows), rows


def test_a_bad_position_leaves_no_board_to_play(page: Any, web: Web) -> None:
    open_game(page, web, "connect4", moves="4,4")
    page.fill("#start", "4458")
    page.click("#set")
    page.wait_for_selector("#error:not([hidden])")
    assert "4458" in page.text_content("#error")
    assert page.locator("#board svg").count() == 0 and page.is_disabled("#go") and page.is_disabled("#undo")
    assert CONNECT4.name == page.evaluate("document.querySelector('#game').value")


@pytest.mark.kernels("tictactoe")
def test_a_banner_counts_the_seconds_while_the_engine_compiles_and_goes_once_it_is_ready(
    browser: Any, compiling: Compiling
) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        page.goto(f"{compiling.web.url}#game=tictactoe")
        page.wait_for_function("/s so far, estimated/.test(document.getElementById('engine-note').textContent)")
        note = page.text_content("#engine-note") or ""
        assert note.startswith("Compiling the tictactoe engine for this machine (first start only)"), note
        assert "pure Python" in note and page.is_visible("#engine-note")
        screenshot(page, "engine-compiling")
        compiling.release.set()
        page.wait_for_selector("#engine-note", state="hidden", timeout=60_000)
    finally:
        page.close()


def test_a_phone_never_scrolls_sideways_and_the_tree_opens_with_its_root_in_view(browser: Any, web: Web) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        mid_game = {"connect4": "4,4,3,5", "chess": "e2e4,c7c5,g1f3", "draughts": "32-28,19-23", "tictactoe": "4,0"}
        for name in ("connect4", "chess", "draughts", "tictactoe", "nim"):
            open_game(page, web, name, moves=mid_game.get(name, ""))
            if name == "connect4":
                page.uncheck("#autoplay")
                page.check("#solution")
                solution_shown(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (name, width)
            screenshot(page, f"phone-{name}")
        root, area = traced_root(page, web)
        assert area["x"] <= root["x"] and root["x"] + root["width"] <= area["x"] + area["width"]
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        page.close()


def test_whose_turn_it_is_and_a_click_while_the_engine_thinks_refused_visibly(page: Any, web: Web) -> None:
    open_game(page, web, "chess")
    assert page.text_content("#turn") == "White to move: your turn"
    page.select_option("#seconds", "2")
    page.click("#legal summary")
    page.click("#moves button >> nth=0")
    page.wait_for_function("document.getElementById('turn').className === 'thinking'")
    assert page.text_content("#turn") == "Black to move: the engine is thinking…"
    page.click("#moves button >> nth=0")  # while it thinks: refused, and said so
    assert page.get_attribute("#turn", "class") == "refused"
    assert page.text_content("#turn") == "Wait: the engine is thinking; your move was not played."
    assert page.locator("#history button").count() == 1
    page.wait_for_function(f"{PLAYED} === 2", timeout=30_000)
    page.wait_for_function("document.getElementById('turn').textContent === 'White to move: your turn'")


def test_the_moves_played_are_numbered_by_moves_and_a_click_goes_back(page: Any, web: Web) -> None:
    open_game(page, web, "chess", moves="e2e4,e7e5,g1f3")
    script = "rows => rows.map(row => [row.value, [...row.querySelectorAll('button')].map(b => b.textContent)])"
    rows = page.eval_on_selector_all("#history li", script)
    assert rows == [[1, ["e4", "e5"]], [2, ["Nf3"]]]
    black_first = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    open_game(page, web, "chess", black_first, moves="e7e5,g1f3")
    rows = page.eval_on_selector_all("#history li", script)
    assert rows == [[1, ["e5"]], [2, ["Nf3"]]] and page.text_content("#history li").startswith("… ")
    open_game(page, web, "chess", moves="e2e4,e7e5,g1f3")
    page.click("#history button >> text=e5")
    page.wait_for_function("document.getElementById('history').dataset.line === 'e2e4,e7e5'")
    assert moves_in_url(page) == ["e2e4", "e7e5"] and page.text_content("#turn") == "White to move: your turn"
    assert page.evaluate(PLAYED) == 3  # the move after it stays in the list


def test_flip_turns_chess_and_draughts_keeps_it_in_the_link_and_is_absent_elsewhere(page: Any, web: Web) -> None:
    for name in ("connect4", "tictactoe", "nim"):
        open_game(page, web, name)
        assert not page.is_visible("#flip"), name
    open_game(page, web, "chess")
    first = page.locator("#board svg rect.a1").bounding_box()
    page.click("#flip")
    page.wait_for_function("location.hash.endsWith('&flipped=1')")
    # the board is drawn again once the server's answer comes: a1 leaves the left edge
    page.wait_for_function(
        "x => (document.querySelector('#board svg rect.a1')?.getBoundingClientRect().x ?? x) > x", arg=first["x"]
    )
    flipped = page.locator("#board svg rect.a1").bounding_box()
    assert flipped["x"] > first["x"] and flipped["y"] < first["y"]  # a1 is top right now
    page.goto("about:blank")
    page.goto(f"{web.url}#game=chess&start=&moves=&flipped=1")  # the shared link
    page.wait_for_selector("#board svg rect.a1")
    assert page.locator("#board svg rect.a1").bounding_box()["x"] == flipped["x"]
    page.select_option("#game", "draughts")
    page.wait_for_function("!location.hash.includes('flipped')")  # another game starts the right way up


def test_a_connect4_score_tapped_says_its_number_of_moves(browser: Any, web: Web) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    try:
        start, _ = end_game_cases(1)[0]
        open_game(page, web, "connect4", start)
        page.check("#solution")
        shown = solution_shown(page)
        column = max(shown, key=lambda move: shown[move])
        page.tap(f"#board text.solution[data-move='{column}']")
        detail = page.text_content("#solution-detail") or ""
        assert re.fullmatch(rf"column {column}: (win in \d+|loss in \d+|draw)", detail), detail
    finally:
        page.close()


def test_a_tictactoe_game_over_draws_its_three_in_a_row(page: Any, web: Web) -> None:
    open_game(page, web, "tictactoe", moves="0,3,1,4,2")  # X takes the top row
    assert (page.text_content("#result") or "").endswith(" wins")
    assert page.locator("#board line.three").count() == 1
    assert page.locator("#board rect.last").count() == 1
    screenshot(page, "tictactoe-won")


def test_a_chess_game_out_and_in_as_pgn(page: Any, web: Web) -> None:
    open_game(page, web, "connect4")
    assert not page.is_visible("#pgn")  # chess only
    open_game(page, web, "chess", moves="e2e4,e7e5")
    page.click("#pgn")
    page.wait_for_function("document.getElementById('pgn-text').value.includes('1. e4 e5')")
    page.fill("#pgn-text", "1. e4 e5 2. Ke3")
    page.click("#pgn-load")
    page.wait_for_function("document.getElementById('pgn-error').textContent !== ''")
    assert "illegal san" in (page.text_content("#pgn-error") or "") and page.is_visible("#pgn-dialog")
    page.fill("#pgn-text", '[Event "a club game"]\n\n1. d4 d5 2. c4 e6 3. Nc3 *')
    page.click("#pgn-load")
    page.wait_for_function(f"{PLAYED} === 5")
    assert moves_in_url(page) == ["d2d4", "d7d5", "c2c4", "e7e6", "b1c3"] and not page.is_visible("#pgn-dialog")


def test_a_chess_game_at_the_lowest_level(page: Any, web: Web) -> None:
    open_game(page, web, "chess")
    assert page.evaluate("[...document.querySelectorAll('#level option')].map(o => o.textContent)")[0].startswith("1 (")
    page.select_option("#level", "1")
    page.select_option("#seconds", "0.5")
    assert "level=1" in page.evaluate("location.hash")  # the link keeps the level
    page.click("#legal summary")
    for played in range(2, 12, 2):  # five moves of ours, each answered by level 1
        page.click("#moves button >> nth=0")
        page.wait_for_function(f"{PLAYED} === {played}", timeout=30_000)
        page.wait_for_function("document.getElementById('turn').textContent === 'White to move: your turn'")
        if page.text_content("#result"):
            break
    board = chess.Board()
    for move in moves_in_url(page):
        board.push_uci(move)  # every reply legal
    assert len(board.move_stack) >= 6
    assert re.match(r"depth [12] ", page.text_content("#stats"))  # it looked two plies ahead at most
    screenshot(page, "chess-level-1")


def test_a_chess_tree_labels_its_moves_in_san_without_overlap(page: Any, web: Web) -> None:
    open_game(page, web, "chess", moves="e2e4,e7e5,g1f3,b8c6")
    page.select_option("#trace-algorithm", "alphabeta")
    page.select_option("#trace-depth", "2")
    page.select_option("#trace-nodes", "5000")
    page.click("#trace")
    page.wait_for_selector("#stepper:not([hidden])")
    assert page.is_hidden("#exercise")  # the exercise is a typed tree's
    page.click("#fit")
    labels = page.evaluate(
        "[...document.querySelectorAll('#tree text.move:not(.pruned-label)')].map(t => {"
        " const b = t.getBoundingClientRect(); return [t.textContent, b.left, b.top, b.right, b.bottom]; })"
    )
    texts = {label[0] for label in labels}
    assert {"Bb5", "Bc4", "d4"} <= texts and not any(re.fullmatch(r"[a-h][1-8][a-h][1-8]", text) for text in texts)
    for at, (text, left, top, right, bottom) in enumerate(labels):
        for other, other_left, other_top, other_right, other_bottom in labels[at + 1 :]:
            apart = right <= other_left or other_right <= left or bottom <= other_top or other_bottom <= top
            assert apart, (text, other)
    values = page.evaluate("[...document.querySelectorAll('#tree g.node circle + text')].map(t => t.textContent)")
    assert all(re.fullmatch(r"-?\d+\.\d\d", value) for value in values), values[:5]  # pawns, as the engine panel
    screenshot(page, "chess-tree")
