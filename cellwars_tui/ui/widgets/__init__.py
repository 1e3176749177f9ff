"""Widgets the game screens share: lines of styled text drawn straight to strips
(:mod:`.text_lines`), a bar of numbered choices (:mod:`.choice_bar`) and a panel of keys
(:mod:`.keys_panel`)."""
