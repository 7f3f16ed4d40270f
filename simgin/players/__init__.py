"""Strategies: the plain-Python protocol, the registry of specs, and the hosts of programs and EAAI players."""
