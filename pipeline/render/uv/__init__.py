"""The UV braille plate package: printer profiles, the dot layer model, layered plate PDFs,
height maps, ISO 19593-1 processing-step tagging and the operator's job ticket (README, "UV braille")."""
