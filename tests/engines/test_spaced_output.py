import itertools
import threading
import time

from negamax.engines.spaced_output import SpacedOutput


class RecordingOutput:
    """A text output that notes when each line arrives, and can hold the writer back."""

    def __init__(self) -> None:
        self.lines: list[tuple[float, str]] = []
        self.gate = threading.Event()
        self.gate.set()

    def write(self, text: str) -> int:
        self.gate.wait()
        self.lines.append((time.perf_counter(), text.rstrip("\n")))
        return len(text)

    def flush(self) -> None:
        pass


def test_lines_are_written_in_order_and_spaced_apart() -> None:
    output = RecordingOutput()
    spaced = SpacedOutput(output, gap=0.01)  # type: ignore[arg-type]
    for number in range(5):
        spaced.send(f"line {number}")
    spaced.drain()
    assert [text for _, text in output.lines] == [f"line {number}" for number in range(5)]
    times = [when for when, _ in output.lines]
    assert all(later - earlier >= 0.0095 for earlier, later in itertools.pairwise(times))


def test_sending_never_waits_for_the_writer() -> None:
    output = RecordingOutput()
    output.gate.clear()  # the reader is stuck: nothing can be written
    spaced = SpacedOutput(output, gap=0.01)  # type: ignore[arg-type]
    for number in range(100):
        spaced.send(f"info {number}", replaceable=True)
    spaced.send("done")
    assert output.lines == []  # every send above returned although nothing was written
    output.gate.set()
    spaced.drain()
    texts = [text for _, text in output.lines]
    assert texts[-1] == "done"
    # progress lines still waiting gave way to newer ones: the last one is kept
    assert "info 99" in texts and len(texts) <= 3


def test_the_last_line_takes_the_place_of_waiting_progress() -> None:
    output = RecordingOutput()
    spaced = SpacedOutput(output, gap=0.5)  # type: ignore[arg-type]
    spaced.send("info 1", replaceable=True)
    while not output.lines:  # the first line goes out at once; the next waits half a second
        time.sleep(0.001)
    spaced.send("info 2", replaceable=True)
    spaced.send("info 3", replaceable=True)
    spaced.send_last("done")
    spaced.drain()
    # a search's result does not wait behind its progress (the gap itself still holds)
    assert [text for _, text in output.lines] == ["info 1", "done"]
