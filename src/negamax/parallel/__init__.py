"""Many positions at once: batch analysis on a process pool or a Dask cluster, and a book
of solved positions in SQLite."""
