"""One package per game: ``rules.py`` (pure), ``bot.py``, ``screen.py`` + ``.tcss``, ``rules.md``."""
