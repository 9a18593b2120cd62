"""deckpress pipeline: the stages that turn a loaded deck into print, braille and web output, and the CLI."""
