"""Benchmarks and measures of each game (``cellwars_tui/games/<game>/`` mirrored here)."""
