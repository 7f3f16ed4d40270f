"""simgin side by side with OpenSpiel's gin_rummy and RLCard's gin-rummy, in one run (issue 6).

One command measures everything on this machine and writes the section "simgin vs OpenSpiel
and RLCard (issue 6)" of ``benchmarks/RESULTS.md`` (only between its ``<!-- compare:start -->``
and ``<!-- compare:end -->`` markers; the heading and markers are appended when missing) and
the figure ``benchmarks/compare.png`` (and ``.svg``):

1. **Speed**: full hands per second, random vs random and simple bot vs simple bot
   (OpenSpiel's ``pyspiel.make_simple_gin_rummy_bot``, RLCard's ``GinRummyNoviceRuleAgent``,
   simgin's compiled ``simple``), and minimum-deadwood evaluations per second (10 cards, and
   the 11-card best discard), each engine on one core and simgin also on all cores. Medians of
   ``--runs`` runs taking turns (``bench_engine.time_interleaved``: a run that other
   processes disturbed is redone), after a warm-up call each.
2. **Cost as the work grows**: ``simgin match simple simple --hands N --quiet --json`` in a
   fresh process for N = 10 thousand to 10 million hands, with 1 worker (``NUMBA_NUM_THREADS=1``)
   and 2 workers: wall-clock time, the peak resident memory of the whole process tree
   (sampled every 50 ms from /proc) and the high-water mark of its largest process.
3. **Cross-validation** of deadwood (``compare_crossval.py``): >= 100,000 random 10- and
   11-card hands plus dense ones, every disagreement printed with the rule book's answer.
4. **Rules and outcome mix**: the rule differences found in the other engines' source, checked
   again in play, and the outcome mix (knock, gin, undercut, dead, hand length) of their
   simple bots against simgin's ``simple`` under the closest simgin rules (20,000 hands each;
   the other engines' hands are played in a pool of 2 processes, since only the mix matters).

Needs the optional engines (``pip install open-spiel rlcard``). Run from the repository root::

    python -m benchmarks.compare_engines            # the full run, about 8 minutes on 2 cores
    python -m benchmarks.compare_engines --quick    # tiny samples: prints the section, writes nothing
"""

from __future__ import annotations


def main(argv: list[str] | None = None) -> None:
    """The whole comparison (:func:`benchmarks.compare_engines.run.main`), as ``benchmarks.run_all`` calls it."""
    from benchmarks.compare_engines.run import main as run

    run(argv)
