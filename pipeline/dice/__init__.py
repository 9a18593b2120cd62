"""Dice: face sheets at actual size with numerals, braille and orientation marks."""
