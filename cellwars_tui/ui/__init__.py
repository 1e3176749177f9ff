"""The Textual side of the table: app, launcher, dialogs and the game-screen base."""
