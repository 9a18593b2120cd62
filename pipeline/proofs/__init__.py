"""PNG proofs of every card face with the braille overlay, and the contact sheet."""
