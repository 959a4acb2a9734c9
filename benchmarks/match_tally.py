"""Wins, draws and losses of a match, counted from negamax's side, and the time control's
text (shared by the match scripts)."""

from __future__ import annotations

from ladder_elo import estimate


class Tally:
    def __init__(self) -> None:
        self.wins = self.draws = self.losses = 0

    def record(self, result: str, ours_white: bool) -> str:
        """Counts a game's ``1-0`` / ``0-1`` / ``1/2-1/2`` result; returns ``won``, ``lost`` or ``drew``."""
        if result == ("1-0" if ours_white else "0-1"):
            self.wins += 1
            return "won"
        if result == ("0-1" if ours_white else "1-0"):
            self.losses += 1
            return "lost"
        self.draws += 1
        return "drew"

    @property
    def score(self) -> float:
        games = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / games if games else 0.0

    def summary(self, opponent: str, control: str) -> str:
        """The record against ``opponent`` at ``control`` (``0.3 s/move``), with the Elo
        difference it implies and its 95 % interval."""
        record = f"+{self.wins} ={self.draws} -{self.losses}"
        games = [(0.0, 1.0)] * self.wins + [(0.0, 0.5)] * self.draws + [(0.0, 0.0)] * self.losses
        elo = ""
        if self.wins + self.draws / 2 in (0, len(games)):
            elo = ", no Elo estimate (every game won or every one lost)" if games else ""
        else:
            difference, error = estimate(games)
            elo = f", {difference:+.0f} +- {1.96 * error:.0f} Elo"
        return f"negamax vs {opponent} at {control}: {record}, score {self.score:.1%}{elo}"


def parse_clock(text: str) -> tuple[float, float]:
    """``BASE+INCREMENT`` in seconds (``10+0.1``)."""
    base, _, increment = text.partition("+")
    return float(base), float(increment or 0)
