"""README.md reads in short paragraphs (its examples run as doctests: ``--doctest-glob``)."""

from __future__ import annotations

from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
MOST_WORDS = 120


def paragraphs(text: str) -> list[tuple[int, str]]:
    """The prose paragraphs of a markdown text with their first line's number: not code
    blocks, headings or tables."""
    found: list[tuple[int, str]] = []
    lines: list[str] = []
    start = 0
    in_code = False
    for number, line in enumerate([*text.splitlines(), ""], 1):
        if line.startswith("```"):
            in_code = not in_code
            lines = []
            continue
        if in_code:
            continue
        if not line.strip() or line.startswith(("#", "|")):
            if lines:
                found.append((start, " ".join(lines)))
            lines = []
            continue
        if not lines:
            start = number
        lines.append(line)
    return found


def test_paragraphs_are_read_with_their_line_numbers() -> None:
    text = "# Title\n\none two\nthree\n\n```\nnot counted\n```\n| a | b |\n\nfour\n"
    assert paragraphs(text) == [(3, "one two three"), (11, "four")]


def test_no_readme_paragraph_is_over_120_words() -> None:
    counted = [(line, len(text.split())) for line, text in paragraphs(README.read_text())]
    long = [(line, words) for line, words in counted if words > MOST_WORDS]
    assert not long, f"README.md paragraphs over {MOST_WORDS} words (line, words): {long}"
