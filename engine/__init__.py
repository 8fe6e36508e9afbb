"""The rules of Tressette: cards, rule options, the game record and the match state.

Pure: no I/O, no clock, no randomness of its own. Everything else in the product
stands on this package; it imports nothing from `vision` or `table`.
"""
