"""``python -m benchmarks.compare_engines``: the whole comparison (see the package's docstring)."""

from benchmarks.compare_engines.run import main

if __name__ == "__main__":
    main()
