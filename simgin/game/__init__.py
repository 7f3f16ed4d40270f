"""The game: cards, rules, melds, the showdown and the engines that play hands and games (R1-R23, V1-V14)."""
