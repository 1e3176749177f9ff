"""The analysis's bounds, in a module of their own so that ``cellwars``'s argument parser can
name them without importing the analysis (and the games) at every start."""

MAX_BUDGET = 100_000  # playouts a decision at most (``--budget``)
