"""Exports and imports for designers: the card table (spreadsheet/CSV) and Tabletop Simulator files."""
