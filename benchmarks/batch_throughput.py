"""Batch throughput on Pascal Pons' Middle-Medium set (1000 positions, ~5 ms each):
positions per second with 1 process, with a local pool on all cores, and through a local
Dask cluster with as many worker processes, all in one run.

Each pool is started and its workers loaded before the clock starts (a pool is made once
per run, a cluster once per many runs); the start-up is printed on its own. The results of
every pool are checked to be identical to the serial run's (all but the CPU timings).

Run: ``pip install '.[bench]' && python benchmarks/batch_throughput.py`` (about 30 s).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from negamax.parallel.batch import run_batch
from negamax.parallel.cases import read_cases
from negamax.parallel.outputs import open_output, read_results
from negamax.parallel.pools import WorkerPool, make_pool
from negamax.parallel.worker import BatchJob

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
JOB = BatchJob("connect4", solve=True)


def timed_run(name: str, pool: WorkerPool, cases_file: Path, folder: Path) -> tuple[dict[str, Any], list[Any]]:
    out = folder / f"{name}.jsonl"
    output = open_output(str(out))
    try:
        summary = run_batch(JOB, list(read_cases(str(cases_file))), [output], pool)
    finally:
        output.close()
        pool.close()
    rows = [{key: value for key, value in row.items() if key != "cpu_s"} for row in read_results(str(out))]
    figures = {
        "name": name,
        "workers": pool.workers,
        "startup": pool.startup_seconds,
        "elapsed": summary.elapsed,
        "rate": summary.positions_per_second,
        "correct": f"{summary.correct}/{summary.checked}",
        "tasks": summary.chunks,
        "overhead": summary.overhead_share,
    }
    return figures, rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="Test_L2_R2", help="a file of tests/data (default: Middle-Medium)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-dask", action="store_true")
    arguments = parser.parse_args()
    cases_file = DATA / arguments.set
    results = []
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        serial, reference = timed_run("1 process", make_pool(JOB, 1, None), cases_file, folder)
        results.append(serial)
        pooled, rows = timed_run(
            f"{arguments.workers} processes", make_pool(JOB, arguments.workers, None), cases_file, folder
        )
        assert rows == reference, "the process pool's results differ from the serial run's"
        results.append(pooled)
        if not arguments.no_dask:
            from distributed import LocalCluster

            started = time.perf_counter()
            cluster = LocalCluster(
                n_workers=arguments.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
            )
            cluster_start = time.perf_counter() - started
            try:
                dask, rows = timed_run(
                    f"Dask, {arguments.workers} workers",
                    make_pool(JOB, None, cluster.scheduler_address),
                    cases_file,
                    folder,
                )
            finally:
                cluster.close()
            dask["startup"] += cluster_start
            assert rows == reference, "the Dask run's results differ from the serial run's"
            results.append(dask)
    base = results[0]["rate"]
    print(f"{arguments.set}: positions per second, pools started before the clock (start-up shown apart)")
    print(f"{'run':<20}{'correct':>10}{'time':>9}{'pos/s':>9}{'vs 1':>7}{'tasks':>7}{'overhead':>10}{'start-up':>10}")
    for row in results:
        print(
            f"{row['name']:<20}{row['correct']:>10}{row['elapsed']:>8.2f}s{row['rate']:>9.1f}"
            f"{row['rate'] / base:>6.2f}x{row['tasks']:>7}{row['overhead']:>10.1%}{row['startup']:>9.2f}s"
        )
    print("every pool's results are identical to the serial run's")


if __name__ == "__main__":
    main()
