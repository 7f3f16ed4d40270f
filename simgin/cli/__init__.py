"""The ``simgin`` command line: one module per job, each a thin click layer over the library."""
