"""Where the compiled chess search spends its time: Linux ``perf`` samples of the
Bratko-Kopec positions searched to a depth (``chess_speed.to_depth``), by compiled function.

numba's machine code has no symbols ``perf`` can read, so the script compiles the kernels
afresh in a cache of its own (only freshly compiled code keeps its functions' names), then
writes their addresses to ``/tmp/perf-PID.map``, the file ``perf`` reads for code made at
run time. A function numba inlined counts in its caller.

Needs ``perf`` (Debian: ``apt-get install linux-perf``; the software clock event works in
a virtual machine). Run: ``python benchmarks/chess_profile.py --depth 11`` (about two
minutes, most of it compiling).
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

MANGLED_PART = re.compile(r"(\d+)")


def readable(name: str) -> str:
    """``module.function`` from numba's mangled name (``_ZN`` then length-prefixed parts)."""
    if not name.startswith("_ZN"):
        return name[:60]
    rest, parts = name[3:], []
    while rest[:1].isdigit():
        digits = MANGLED_PART.match(rest)
        assert digits is not None
        length = int(digits.group(1))
        start = len(digits.group(1))
        parts.append(rest[start : start + length])
        rest = rest[start + length :]
    return ".".join(parts[-2:])


def compiled_functions() -> list[tuple[int, str]]:
    """(address, readable name) of every function of every compiled dispatcher loaded."""
    from numba.core.registry import CPUDispatcher

    def libraries(library: Any) -> list[Any]:
        found = [library]
        for linked in getattr(library, "_linking_libraries", []):
            found += libraries(linked)
        return found

    entries, seen = set(), set()
    for dispatcher in [item for item in gc.get_objects() if isinstance(item, CPUDispatcher)]:
        for result in dispatcher.overloads.values():
            for library in libraries(result.library):
                if id(library) in seen:
                    continue
                seen.add(id(library))
                module = getattr(library, "_final_module", None)
                if module is None:
                    continue  # loaded from a cache: no names
                for function in module.functions:
                    if not function.is_declaration:
                        address = library.get_pointer_to_function(function.name)
                        if address:
                            entries.add((address, readable(function.name)))
    return sorted(entries)


def write_map(entries: list[tuple[int, str]]) -> None:
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as listing:
        for index, (address, name) in enumerate(entries):
            following = entries[index + 1][0] if index + 1 < len(entries) else address + 4096
            listing.write(f"{address:x} {min(following - address, 1 << 20):x} {name}\n")


def profile(depth: int, data: Path) -> tuple[int, float]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import chess_speed

    chess_speed.to_depth(3)  # compiles everything the search runs
    write_map(compiled_functions())
    recorder = subprocess.Popen(
        ["perf", "record", "-q", "-e", "cpu-clock", "-F", "4000", "-p", str(os.getpid()), "-o", str(data)],
        stdout=subprocess.DEVNULL,
    )
    time.sleep(1)  # perf attaches
    nodes, seconds = chess_speed.to_depth(depth)
    recorder.send_signal(signal.SIGINT)
    recorder.wait()
    return nodes, seconds


def shares(data: Path) -> Counter[str]:
    listing = subprocess.run(
        ["perf", "script", "-i", str(data), "-F", "ip,sym"], capture_output=True, text=True, check=True
    ).stdout
    return Counter((line.split(maxsplit=1)[1:] or ["[unknown]"])[0].strip() for line in listing.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=11)
    parser.add_argument("--top", type=int, default=16, help="functions shown")
    arguments = parser.parse_args()
    if shutil.which("perf") is None:
        sys.exit("chess_profile: needs Linux perf (Debian: apt-get install linux-perf)")
    if "NUMBA_CACHE_DIR" not in os.environ:
        # numba reads the variable at import: start again with a cache of our own
        with tempfile.TemporaryDirectory() as cache:
            environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
            sys.exit(subprocess.run([sys.executable, *sys.argv], env=environment).returncode)
    with tempfile.TemporaryDirectory() as directory:
        data = Path(directory) / "perf.data"
        try:
            nodes, seconds = profile(arguments.depth, data)
            counts = shares(data)
        finally:
            Path(f"/tmp/perf-{os.getpid()}.map").unlink(missing_ok=True)
    total = sum(counts.values())
    print(f"Bratko-Kopec to depth {arguments.depth}: {nodes:,} nodes in {seconds:.2f} CPU-s; {total:,} samples")
    for name, count in counts.most_common(arguments.top):
        print(f"{100 * count / total:6.2f} %  {name}")


if __name__ == "__main__":
    main()
