"""pytest's collection of the checkout (its doctests too, ``--doctest-modules``).

The old module paths kept for a deprecation period (``simgin/_moved.py``, issue 32 item 18) are aliases: importing
one gives the module at its new path, which is collected there, so they are not collected again.

The suite writes bytecode even where ``PYTHONDONTWRITEBYTECODE`` is set (this project's machines set it). Without
it, every run and every xdist worker rewrote the asserts of all 170 test modules again (9 CPU s a worker), and
every ``python -m simgin`` a test starts compiled simgin from source. The files go where Python always puts them,
into ``__pycache__`` folders that git ignores; the children the tests start inherit the setting (issue 32, the
suite's time: collection 15.4 s a worker before, 3.9 s on the second run after).
"""

import os
import sys

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from simgin._moved import MOVED  # noqa: E402  (after the setting above, so that simgin's bytecode is kept too)

collect_ignore = [f"{old.replace('.', '/')}.py" for old in MOVED]
