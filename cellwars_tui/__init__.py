"""cellwars-tui: a terminal game table for five cell-biology board and card games."""

__version__ = "0.1.0"
