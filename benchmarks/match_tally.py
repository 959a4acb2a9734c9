"""Wins, draws and losses of a match, counted from negamax's side (shared by the match
scripts)."""

from __future__ import annotations


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

    def summary(self, opponent: str, seconds: float) -> str:
        record = f"+{self.wins} ={self.draws} -{self.losses}"
        return f"negamax vs {opponent} at {seconds} s/move: {record}, score {self.score:.1%}"
