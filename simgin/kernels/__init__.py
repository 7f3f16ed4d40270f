"""All numba code of simgin, and nothing else: plain arrays and ints in, plain arrays and ints out.

Hands are int64 masks with bit ``card`` set (cards 0-51, so bit 63 is never used).
"""
