"""pytest's collection of the checkout (its doctests too, ``--doctest-modules``).

The old module paths kept for a deprecation period (``simgin/_moved.py``, issue 32 item 18) are aliases: importing
one gives the module at its new path, which is collected there, so they are not collected again.
"""

from simgin._moved import MOVED

collect_ignore = [f"{old.replace('.', '/')}.py" for old in MOVED]
