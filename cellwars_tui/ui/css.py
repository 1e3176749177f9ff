"""Where a screen's or widget's look comes from: the one rule, and its helper.

Every look is a ``.tcss`` file beside the module that uses it; there is no CSS in a Python
string. How the file is loaded follows Textual's own split between the two kinds of CSS:

- **A screen** names its file in ``CSS_PATH`` (``CSS_PATH = "setup.tcss"``). Textual loads it
  when the screen is first shown, as the app's CSS: it wins over every widget's default CSS.
  Screens of one module may share one file (the dialogs in ``dialogs.py``). Textual reads a
  relative ``CSS_PATH`` beside the file of the instance's class, so a class subclassed in
  another folder gives a full path (``CellwarsApp``, which the SSH session's app inherits;
  ``GenericScreen``, which tests extend; the replay bar's file, which the replay viewer adds
  to each game screen's).
- **A widget** reads its file into ``DEFAULT_CSS`` with :func:`default_css`
  (``DEFAULT_CSS = default_css(__file__, "footer.tcss")``): default CSS, scoped to the widget's
  type, which a screen's CSS can override (Textual gives widgets no ``CSS_PATH``).

Two screens are read as default CSS too, because Textual offers them no working ``CSS_PATH``:

- ``GameScreen`` (``game_screen.tcss``), the base of every game screen. Its layout must lose to
  each game's own ``CSS_PATH`` (``CellWarsScreen #gs-side`` widens the side column that
  ``GameScreen #gs-side`` sets: same specificity, so only default CSS makes the game's rule
  win whatever order the files were loaded in); and a relative ``CSS_PATH`` is resolved beside
  the file of the instance's class, which for a game screen is in another folder.
- ``LauncherScreen`` (``launcher.tcss``), the app's default screen: Textual never loads the
  ``CSS_PATH`` of the screen ``App.get_default_screen`` returns (``App._init_mode`` registers it
  without loading its CSS files), and as default CSS it also costs no second stylesheet parse
  before the first frame.

``tests/ui/test_css_rule.py`` holds the package to this rule.
"""

from __future__ import annotations

from pathlib import Path


def default_css(module_file: str, name: str) -> str:
    """The text of the ``.tcss`` file ``name`` beside ``module_file`` (a module's ``__file__``),
    for a widget's ``DEFAULT_CSS``."""
    return Path(module_file).with_name(name).read_text(encoding="utf-8")
