"""QR codes: encode a card's URL (zxing-cpp), draw it on the card, decode it back from the rendered PDF."""
