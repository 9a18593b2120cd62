"""Die faces: one face at a time (braille_specs/dice.yaml); the sheets and models are in test_dice_*.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.model import Die
from pipeline.braille.dice import encode_die, face_cells, key_text
from pipeline.braille.translate import translate

SPECS = yaml.safe_load((Path(__file__).parent / "braille_specs" / "dice.yaml").read_text(encoding="utf-8"))


def die(name: str, **changes) -> Die:
    return Die(id=name, name=name.upper(), **{**SPECS[name]["die"], **changes})


@pytest.mark.parametrize("name", list(SPECS))
def test_spec_faces(name):
    faces, findings = encode_die(die(name))
    assert findings == []
    assert [f.cells for f in faces] == SPECS[name]["faces"]
    assert [f.numeral for f in faces] == [str(n) for n in range(1, len(faces) + 1)]


def test_face_12_is_one_cell_not_separate_faces():
    assert face_cells(die("d12"), 12) == "⠇"
    # The trap the per-face encoding avoids: liblouis joins spaced numbers with the numeric space.
    assert translate("1 2 3") == "⠼⠁⠐⠃⠐⠉"
    assert all("⠐" not in f.cells for f in encode_die(die("d6"))[0])


def test_six_and_nine_are_underlined():
    assert [f.numeral for f in encode_die(die("d12"))[0] if f.underline] == ["6", "9"]
    assert [f.numeral for f in encode_die(die("d6"))[0] if f.underline] == ["6"]


def test_face_out_of_range():
    with pytest.raises(ValueError, match="faces 1-12, not 13"):
        face_cells(die("d12"), 13)


def test_letters_stop_at_z():
    # No library solid has 30 faces (the model refuses it); the encoder is checked on its own.
    faces, findings = encode_die(Die.model_construct(**{**die("d12").model_dump(), "faces": 30}))
    assert len(faces) == 26
    assert [f.code for f in findings] == ["DI001"] * 4
    assert "face 27" in findings[0].message


def test_key_explains_the_letter_code():
    text = key_text(die("d12"))
    assert "without numeric indicator" in text and "j = 10, k = 11, l = 12" in text
    assert key_text(die("d12", key="Our own key.")) == "Our own key."
    assert "numeric indicator then digits" in key_text(die("d6"))
