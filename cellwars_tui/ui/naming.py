"""Moved to :mod:`cellwars_tui.table.naming`. This re-export stays only while ``ssh/remote.py``
and ``ssh/hub.py`` (being rewritten by the SSH security work) import it from here."""

from ..table.naming import KIND_WORDS, plural, seat_bot_id, seat_kind_word, seat_text, seats_text

__all__ = ["KIND_WORDS", "plural", "seat_bot_id", "seat_kind_word", "seat_text", "seats_text"]
