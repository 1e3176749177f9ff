"""Players' display names online: one rule for guests' nicknames and keyed players' names.

A name is what other players read, so it must not pose as someone else's:

* it is NFKC-normalised first (full-width ``ａｎｎ`` is ``ann``, ligatures and compatibility
  forms are their plain letters), its spaces collapsed;
* 1 to :data:`MAX_NAME` characters: letters, digits, spaces, ``-``, ``_`` and ``.`` (a letter may
  carry combining accents);
* its letters are of one script (:func:`script_problem`): ``аnn`` with a Cyrillic ``а`` is
  refused. Chinese, Japanese and Korean names count as one script each (Han with Kana, with
  Hangul, or with Bopomofo);
* two names are the same name when their :func:`name_key` is: case and look-alike letters of
  other scripts aside (``ВОВ`` in Cyrillic letters is ``BOB``), so a name held by another
  player cannot be taken by a look-alike either.

Scripts and look-alikes come from the Unicode data (``Scripts.txt`` and TR39's
``confusables.txt``) as the ``confusable_homoglyphs`` package ships them. No textual here.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from ..core.errors import CellwarsError

MAX_NAME = 20
PUNCTUATION = " -_."
# Script aliases that are no script of their own: digits, punctuation, combining marks.
NEUTRAL = frozenset({"COMMON", "INHERITED"})
# Scripts written together: a name of these counts as one script (Unicode TR39's sets).
TOGETHER = (frozenset({"HAN", "HIRAGANA", "KATAKANA"}), frozenset({"HAN", "HANGUL"}),
            frozenset({"HAN", "BOPOMOFO"}))


class BadName(CellwarsError):
    """A name that cannot be used (its text is shown to the player)."""


def clean_name(text: str) -> str:
    """``text`` as a display name (normalised), or BadName saying in one line why not."""
    name = " ".join(unicodedata.normalize("NFKC", text).split())
    if not 1 <= len(name) <= MAX_NAME:
        raise BadName(f"a name has 1 to {MAX_NAME} characters")
    base, marks = "", 0  # the character the accents in a row sit on, and how many so far
    for ch in name:
        if unicodedata.category(ch).startswith("M"):
            marks += 1
            if not base.isalpha() or marks > 2:  # accents on a letter, two at most
                raise BadName("a name has letters, digits, spaces, - _ and . only")
            continue
        base, marks = ch, 0
        if not (ch.isalnum() or ch in PUNCTUATION):
            raise BadName("a name has letters, digits, spaces, - _ and . only")
    problem = script_problem(name)
    if problem:
        raise BadName(problem)
    return name


def script_problem(name: str) -> str:
    """Why ``name`` mixes scripts ("" when its letters are of one script, or of scripts written
    together): the rule that keeps look-alike letters of another script out of a name."""
    scripts = {categories.alias(ch) for ch in name} - NEUTRAL
    if len(scripts) <= 1 or any(scripts <= together for together in TOGETHER):
        return ""
    return ("a name's letters are of one alphabet (this one mixes "
            f"{' and '.join(sorted(s.title() for s in scripts))})")


@lru_cache(maxsize=4096)
def name_key(name: str) -> str:
    """What two names are compared by: each letter that looks like a Latin one (TR39's
    confusables: Cyrillic ``В``, Greek ``Ο``, the digit ``0``) as that Latin letter, then
    case folded. Names with the same key are one name."""
    out = []
    for ch in name:
        found = confusables.is_confusable(ch, preferred_aliases=["latin"])
        out.append(found[0]["homoglyphs"][0]["c"] if found else ch)
    return unicodedata.normalize("NFKC", "".join(out)).casefold()
