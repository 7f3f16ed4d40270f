"""``python -m simgin``: the same command line as the ``simgin`` script."""

from simgin.cli.main import main

if __name__ == "__main__":
    main(prog_name="simgin")
