from negamax.core.score import (
    DRAW,
    INF,
    MAX_PLY,
    WIN,
    WIN_THRESHOLD,
    child_threshold,
    describe,
    distance,
    from_child,
    from_node,
    is_decisive,
    loss_in,
    to_node,
    win_in,
)


def test_bounds_are_symmetric() -> None:
    assert -INF == -(INF)
    assert -1 * -INF == INF
    assert INF > WIN > WIN_THRESHOLD > 0


def test_quicker_wins_and_later_losses_score_higher() -> None:
    assert win_in(1) > win_in(3) > win_in(MAX_PLY - 1) > WIN_THRESHOLD - 1
    assert loss_in(MAX_PLY - 1) > loss_in(4) > loss_in(2) > -INF
    assert loss_in(2) == -win_in(2)


def test_decisive_scores_and_distances() -> None:
    assert is_decisive(win_in(7)) and is_decisive(loss_in(4))
    assert not is_decisive(DRAW) and not is_decisive(WIN_THRESHOLD - 1)
    assert distance(win_in(7)) == 7 and distance(loss_in(4)) == 4
    assert describe(win_in(7)) == "win in 7"
    assert describe(loss_in(4)) == "loss in 4"
    assert describe(-12) == "-12"


def test_node_and_root_relative_scores_round_trip() -> None:
    for score in (win_in(9), loss_in(6), 0, 55, -WIN_THRESHOLD + 1):
        for ply in (0, 1, 5):
            assert from_node(to_node(score, ply), ply) == score
    # A loss found at a node at ply 3 (value -WIN there) is a loss in 3 from the root.
    assert from_node(-WIN, 3) == loss_in(3)
    assert from_node(17, 3) == 17


def test_a_parents_question_becomes_each_childs_exactly() -> None:
    """``child_threshold`` against every child score near the places where ``from_child``
    bends (0, both win thresholds, both ends): the move reaches t exactly when the child
    answers its question the right way (yes with the same player to move, no otherwise)."""
    edges = (0, WIN_THRESHOLD, -WIN_THRESHOLD, WIN, -WIN)
    near = sorted({edge + step for edge in edges for step in range(-3, 4)})
    for threshold in near:
        for same_player in (False, True):
            asked = child_threshold(threshold, same_player)
            for child in near:
                reaches = from_child(child, same_player) >= threshold
                answer = child >= asked
                assert reaches == (answer if same_player else not answer), (threshold, same_player, child)
