"""The label of each player in text columns and tables: what a person reads for a spec.

An ``exec:`` program's spec is a whole command line, so its label is the NAME it gives in its handshake;
an ``eaai:`` player's is its class name; any other player's is its spec. JSON and result files keep the
specs: a label is for reading only.
"""

from __future__ import annotations

from collections.abc import Sequence

from simgin.players import programs

#: The longest label a program's handshake NAME gives a text column.
MAX_LABEL = 32


def display_labels(players: Sequence[str], ask: bool = True) -> dict[str, str]:
    """The label of each player in text columns: an ``exec:`` program's handshake NAME (its spec is a
    whole command line), an ``eaai:`` player's class name, else the spec itself.

    A NAME is asked for once per program (it is started, shakes hands and ends); a program that
    gives none, fails, or gives the name of another player keeps its spec, so no two players
    share a label. JSON keeps the specs. With ``ask`` false (a partial result after Ctrl-C) no
    program is started and ``exec:`` players keep their specs.
    """
    from simgin.players.registry import is_program  # the registry loads the bots: only when labelling

    labels: dict[str, str] = {}
    for spec in dict.fromkeys(players):
        label = spec
        if spec.strip().startswith(programs.PREFIX) and ask:
            try:
                name = programs.handshake_name(spec)
            except (programs.ProgramError, ValueError, OSError):
                name = ""
            label = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_LABEL] or spec
        elif is_program(spec) and not spec.strip().startswith(programs.PREFIX):
            label = spec.rpartition(":")[2].strip() or spec
        labels[spec] = label
    taken = list(labels.values())
    return {spec: spec if taken.count(label) > 1 else label for spec, label in labels.items()}
