"""The board editor in a real Chromium: a position set up by hand, piece by piece, in chess,
draughts and Connect 4, refused with its reason while it cannot be played from (the editor
staying open to fix it), then played from, its text the page's start as "Set position"
would set it. The server is the pure-Python one: no kernel is loaded or compiled."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest

from negamax.games import get_game
from negamax.viz.web.app import create_app
from negamax.viz.web.server import BackgroundServer
from tests.viz.web.conftest import Web, checked_page, screenshot
from tests.viz.web.test_page import moves_in_url, open_game

ERROR = "#editor-error"


@pytest.fixture(scope="module")
def editor_web() -> Iterator[Web]:
    """The app without its compiled kernels: the editor needs none (the ``web`` fixture
    loads four, and puts its tests in the numba suite)."""
    app = create_app(prepare=False)
    with BackgroundServer(app) as server:
        yield Web(server.url, app.app.state.searches)


@pytest.fixture
def editor_page(browser: Any) -> Iterator[Any]:
    """A fresh page at 1280x800; a script error on it fails the test (a refusal the page
    shows is not one)."""
    yield from checked_page(browser, "the server responded with a status of 400")


def start_in_url(page: Any) -> str:
    fields = dict(part.split("=", 1) for part in page.evaluate("location.hash").lstrip("#").split("&"))
    return urllib.parse.unquote(fields["start"])


def open_editor(page: Any, web: Web, game: str, board: str = "#board svg") -> None:
    open_game(page, web, game, board=board)
    page.uncheck("#autoplay")
    page.click("#edit")
    page.wait_for_selector("#editor-board svg")
    assert page.is_hidden("#board") and page.is_visible("#editor-palette")


def pick(page: Any, piece: str) -> None:
    page.click(f"#editor-palette button[data-piece='{piece}']")
    assert page.get_attribute(f"#editor-palette button[data-piece='{piece}']", "aria-pressed") == "true"


def put(page: Any, piece: str, *squares: str) -> None:
    pick(page, piece)
    for square in squares:
        page.click(f"#editor-board rect.cell[data-square='{square}']")


def refused(page: Any) -> str:
    page.click("#editor-done")
    page.wait_for_selector(ERROR, state="visible")
    assert page.is_visible("#editor-board svg") and page.is_hidden("#board")  # still open, to fix
    return page.text_content(ERROR) or ""


def accepted(page: Any, start: str) -> None:
    page.click("#editor-done")
    page.wait_for_function(
        "start => decodeURIComponent(location.hash).includes('start=' + start)", arg=start, timeout=30_000
    )
    # the board of the new start drawn: the URL changes first, and the old board was only hidden
    drawn = "start => document.getElementById('history').dataset.start === start"
    page.wait_for_function(drawn, arg=start, timeout=30_000)
    assert page.is_hidden("#editor") and start_in_url(page) == start and moves_in_url(page) == []
    assert page.input_value("#start") == start and not page.is_visible("#error")


def test_a_chess_position_set_up_by_hand_is_played_from(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "chess")
    page.click("#editor-clear")
    put(page, "k", "e8")
    put(page, "K", "e6")
    put(page, "R", "a1", "b1")
    put(page, "R", "b1")  # the same piece tapped again: taken away
    page.focus("#editor-palette button[data-piece=N]")  # from the keyboard too: a knight on d4, then away
    page.keyboard.press("Enter")
    page.focus("#editor-board rect.cell[data-square=d4]")
    page.keyboard.press("Space")
    assert page.get_attribute("#editor-board rect.cell[data-square=d4]", "aria-label") == "d4, white knight"
    page.keyboard.press("Enter")  # the focus stayed on d4 through the redraw
    assert page.get_attribute("#editor-board rect.cell[data-square=d4]", "aria-label") == "d4"
    screenshot(page, "editor-chess")
    assert page.locator("#editor-options input[data-right]:not([disabled])").count() == 0  # no king at home
    accepted(page, "4k3/8/4K3/8/8/8/8/R7 w - - 0 1")
    page.click("#board rect[data-square=a1]")
    page.click("#board rect[data-square=a8]")
    page.wait_for_function("document.getElementById('result').textContent.includes('white wins')", timeout=30_000)
    assert moves_in_url(page) == ["a1a8"] and start_in_url(page) == "4k3/8/4K3/8/8/8/8/R7 w - - 0 1"


def test_an_illegal_chess_position_is_refused_with_its_reason_and_fixed_in_the_editor(
    editor_page: Any, editor_web: Web
) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "chess")
    assert page.is_checked("#editor-options input[data-right=K]")  # from the start position's FEN
    page.click("#editor-clear")
    put(page, "K", "e1", "e4")
    put(page, "k", "e8")
    assert refused(page) == "This position cannot be played from: white has 2 kings: each side needs exactly one"
    screenshot(page, "editor-chess-refused")
    pick(page, "")  # the eraser
    page.click("#editor-board rect.cell[data-square=e4]")
    assert page.is_hidden(ERROR)  # the board changed: the old reason went with it
    put(page, "R", "e4")  # a white rook checks the black king, with white to move
    assert "black is in check with white to move" in refused(page)
    page.check("#editor-options input[name=editor-turn][value='1']")  # black to move, then
    accepted(page, "4k3/8/8/8/4R3/8/8/4K3 b - - 0 1")
    page.wait_for_function("document.getElementById('turn').textContent.startsWith('Black to move')")


def test_castling_rights_follow_the_king_and_rook_on_their_squares(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "chess")
    page.click("#editor-clear")
    put(page, "K", "e1")
    put(page, "k", "e8")
    put(page, "R", "h1")  # the king's rook comes home: white may castle king's side
    assert page.is_checked("#editor-options input[data-right=K]")
    assert page.is_disabled("#editor-options input[data-right=Q]")
    accepted(page, "4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    page.click("#board rect[data-square=e1]")
    page.click("#board rect[data-square=g1]")
    page.wait_for_function("location.hash.includes('moves=e1g1')", timeout=30_000)


def test_en_passant_is_offered_where_a_pawn_may_just_have_moved_two_squares(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "chess")
    page.click("#editor-clear")
    put(page, "K", "e1")
    put(page, "k", "e8")
    put(page, "P", "e5")
    assert page.locator("#editor-ep").count() == 0  # no black pawn could just have moved two squares
    put(page, "p", "d5", "a7")  # d7-d5 may just have been played; a7 is still at home
    assert page.eval_on_selector_all("#editor-ep option", "options => options.map(o => o.value)") == ["", "d6"]
    page.select_option("#editor-ep", "d6")
    accepted(page, "4k3/p7/8/3pP3/8/8/8/4K3 w - d6 0 1")
    page.click("#board rect[data-square=e5]")
    page.click("#board rect[data-square=d6]")  # e5xd6 en passant
    page.wait_for_function("location.hash.includes('moves=e5d6')", timeout=30_000)


def test_a_checkers_position_set_up_by_hand_has_black_to_move_first(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "checkers")
    assert page.is_checked("#editor-options input[name=editor-turn][value='0']")  # black, the first to move
    assert "black to move" in (page.text_content("#editor-options label") or "")
    page.click("#editor-clear")
    put(page, "b", "10")
    put(page, "w", "30")
    put(page, "W", "1")
    accepted(page, "B:WK1,30:B10")
    page.click("#board rect[data-square='10']")
    page.click("#board rect[data-square='14']")
    page.wait_for_function("location.hash.includes('moves=10-14')", timeout=30_000)


def test_a_connect4_board_with_a_floating_disc_is_refused(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "connect4")
    cell = "#editor-board circle.cell[data-cell='{}']"
    pick(page, "X")
    page.click(cell.format("0,3"))  # tapped high in column 4: the disc drops to the bottom
    page.click(cell.format("0,2"))
    pick(page, "O")
    page.click(cell.format("0,3"))  # on top of the red disc
    assert page.get_attribute(cell.format("5,3"), "data-piece") == "X"
    assert page.get_attribute(cell.format("4,3"), "data-piece") == "O"
    page.focus(cell.format("4,3"))  # from the keyboard: the yellow disc tapped again goes, the focus stays
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "column 4, row 2"
    page.keyboard.press("Enter")  # an empty cell: the disc drops to the lowest empty one, row 2 again
    assert page.get_attribute(cell.format("4,3"), "aria-label") == "column 4, row 2, yellow disc"
    pick(page, "")
    page.click(cell.format("5,3"))  # the red disc taken from under the yellow one
    screenshot(page, "editor-connect4")
    assert "a disc floats above an empty cell" in refused(page)
    pick(page, "X")
    page.click(cell.format("0,3"))  # a red disc under it again: red 2, yellow 1, so yellow to move
    assert page.is_checked("#editor-options input[name=editor-turn][value='1']")
    page.check("#editor-options input[name=editor-turn][value='0']")  # the turn chosen against the discs
    assert "red to move does not fit 2 red and 1 yellow discs" in refused(page)
    page.check("#editor-options input[name=editor-turn][value='1']")
    accepted(page, ". . . . . . ./. . . . . . ./. . . . . . ./. . . . . . ./. . . O . . ./. . X X . . ./1 2 3 4 5 6 7")
    page.wait_for_function("document.getElementById('turn').textContent.startsWith('Yellow to move')")
    page.click("#board rect.column[data-move='4']")
    page.wait_for_function("location.hash.includes('moves=4')", timeout=30_000)


def test_a_connect4_board_with_four_in_a_row_is_refused(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "connect4")
    for column, disc in zip(range(7), "XXXXOOO", strict=True):
        pick(page, disc)
        page.click(f"#editor-board circle.cell[data-cell='0,{column}']")
    page.check("#editor-options input[name=editor-turn][value='1']")
    assert "four in a row" in refused(page)


def test_a_draughts_position_set_up_by_hand_is_played_from(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    open_editor(page, web, "draughts")
    page.click("#editor-clear")
    put(page, "w", "33", "3")
    put(page, "b", "28")
    put(page, "B", "5")
    assert "a man on square 3, its own side's promotion row" in refused(page)  # White's men promote there
    put(page, "W", "3")  # a king may stand there
    expected = get_game("draughts").position_text(get_game("draughts").new_position("W:WK3,33:BK5,28"))
    accepted(page, expected)
    page.click("#board rect[data-square='33']")
    page.click("#board rect[data-square='22']")  # the capture is forced: 33x22
    page.wait_for_function("location.hash.includes('moves=33x22')", timeout=30_000)
    assert not page.is_visible("#error")


def test_the_editor_closes_when_another_game_is_chosen_and_cancel_keeps_the_game(
    editor_page: Any, editor_web: Web
) -> None:
    page, web = editor_page, editor_web
    open_game(page, web, "chess", moves="e2e4")
    page.click("#edit")
    # the editor opens on the position shown: the pawn on e4, not e2
    assert page.locator("#editor-board text[data-square=e4][data-piece=P]").count() == 1
    assert page.locator("#editor-board text[data-square=e2]").count() == 0
    page.click("#editor-clear")
    page.click("#editor-cancel")
    assert page.is_hidden("#editor") and page.is_visible("#board svg") and moves_in_url(page) == ["e2e4"]
    page.click("#edit")
    page.click("#new")  # a new game: the editor gives the board back
    page.wait_for_function("location.hash.includes('moves=&') || location.hash.endsWith('moves=')")
    assert page.is_hidden("#editor") and page.is_visible("#board svg")
    page.click("#edit")
    page.select_option("#game", "tictactoe")
    page.wait_for_selector("#board rect.cell")
    assert page.is_hidden("#editor") and page.is_hidden("#edit")


PHONE = {"width": 390, "height": 844}


@pytest.mark.parametrize("game", ["chess", "connect4", "draughts"])
def test_the_editor_fits_a_phone_and_is_set_up_by_taps(browser: Any, editor_web: Web, game: str) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    try:
        open_game(page, editor_web, game)
        page.uncheck("#autoplay")
        page.tap("#edit")
        page.wait_for_selector("#editor-board svg")
        # nothing wider than the phone; every piece of the palette a thumb's size and on screen
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        for box in [button.bounding_box() for button in page.query_selector_all("#editor-palette button")]:
            assert box is not None and box["width"] >= 40 and box["height"] >= 40
            assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        board = page.query_selector("#editor-board svg")
        assert board is not None and (board.bounding_box() or {}).get("width", 0) <= PHONE["width"]
        palette = page.locator("#editor-palette button")
        palette.nth(1).tap()
        assert palette.nth(1).get_attribute("aria-pressed") == "true"
        target = {
            "chess": "#editor-board rect.cell[data-square=d4]",
            "connect4": "#editor-board circle.cell[data-cell='0,3']",
            "draughts": "#editor-board rect.cell[data-square='23']",
        }[game]
        page.tap(target)
        placed = {"chess": "#editor-board text[data-piece=Q]", "connect4": "#editor-board circle[data-piece=O]"}
        selector = placed.get(game, "#editor-board circle[data-piece=W]")
        assert page.locator(selector).count() == (2 if game == "chess" else 1)  # the queen of d1, and d4's
        screenshot(page, f"editor-{game}-phone")
    finally:
        context.close()


def test_a_flipped_chess_board_is_edited_the_way_it_is_shown(editor_page: Any, editor_web: Web) -> None:
    page, web = editor_page, editor_web
    page.goto(f"{web.url}#game=chess&start=&moves=&flipped=1")
    page.wait_for_selector("#board svg")
    page.click("#edit")
    corner = "#editor-board rect.cell[data-square=h1]"  # white's h1 in the top left, as on the board shown
    assert (page.get_attribute(corner, "x"), page.get_attribute(corner, "y")) == ("0", "0")
    page.click("#editor-start")
    assert (page.get_attribute(corner, "x"), page.get_attribute(corner, "y")) == ("0", "0")


def test_an_editor_opened_before_any_state_draws_the_games_own_board_width(browser: Any) -> None:
    """With no state yet (the page's first answer not in), the editor draws the game's start
    on a board as wide as the games list says: Brazilian draughts on 8x8, not 10x10."""
    app = create_app(extra_games=("brazilian",), prepare=False)
    with BackgroundServer(app) as server:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            open_game(page, Web(server.url, app.app.state.searches), "brazilian")
            labels = page.evaluate(
                """async () => {
                    const { BoardEditor } = await import('/static/editor.js');
                    const games = await (await fetch('/api/games')).json();
                    const labels = [];
                    for (const name of ['brazilian', 'draughts']) {
                        const info = games.find((game) => game.name === name);
                        const editor = new BoardEditor(() => null, () => info);
                        editor.open();
                        const svg = document.querySelector('#editor-board svg');
                        labels.push([svg.getAttribute('aria-label'), svg.querySelectorAll('.cell').length]);
                        editor.close();
                    }
                    return labels;
                }"""
            )
        finally:
            page.close()
    assert labels == [["8x8 draughts board being edited", 32], ["10x10 draughts board being edited", 50]]


def test_while_the_editor_is_open_neither_the_keys_nor_the_engine_change_the_game(
    editor_page: Any, editor_web: Web
) -> None:
    """The game under the editor stays as it was: Cancel goes back to it. The arrow keys do
    not walk it, and an engine reply being searched when the editor opens is stopped."""
    page = editor_page
    open_game(page, editor_web, "chess")
    page.select_option("#seconds", "2")
    page.click("#board rect[data-square=e2]")
    page.click("#board rect[data-square=e4]")
    page.wait_for_function("document.getElementById('turn').className === 'thinking'")  # the reply searched
    page.click("#edit")
    page.wait_for_selector("#editor-board svg")
    page.wait_for_function("document.getElementById('turn').className !== 'thinking'", timeout=1_000)
    for key in ("ArrowLeft", "Home", "ArrowLeft"):
        page.keyboard.press(key)
    page.wait_for_timeout(2_500)  # past the search's 2 s: no reply played under the editor
    assert moves_in_url(page) == ["e2e4"]
    page.click("#editor-cancel")
    assert page.is_visible("#board") and moves_in_url(page) == ["e2e4"]
    page.keyboard.press("ArrowLeft")  # the editor closed: the keys walk the game again
    page.wait_for_function("!/moves=[^&]/.test(location.hash)")
    assert moves_in_url(page) == []
