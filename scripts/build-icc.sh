#!/usr/bin/env bash
# Build an ICC output profile from a printing condition's characterisation data, once.
#   scripts/build-icc.sh FOGRA39L templates/targets/icc/FOGRA39L.icc [ink limit %, default 330]
# The measurements (FOGRA39L.ti3: 1617 CMYK patches with their measured CIELAB, Fogra,
# Zlib licence) come from Debian's icc-profiles-free in /usr/share/color/icc. ArgyllCMS
# colprof (Debian's argyll, AGPL: run here as a command-line tool, it is not linked into
# deckpress) fits the profile, so the .icc is generated data, not a committed source.
# colprof's tables are the same bytes on every run; only the header's creation date
# differs, so it is set to a fixed date (1 December 2006, FOGRA39L's) and the file
# is byte-identical wherever it is built.
set -euo pipefail
name="$1"; out="$2"; ink_limit="${3:-330}"
data="/usr/share/color/icc/$name.ti3"
[ -f "$out" ] && exit 0
if [ ! -f "$data" ]; then
  echo "deckpress setup: $data is missing: install Debian's icc-profiles-free" >&2; exit 2
fi
command -v colprof >/dev/null 2>&1 || { echo "deckpress setup: colprof is missing: install Debian's argyll" >&2; exit 2; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
cp "$data" "$work/$name.ti3"
echo "deckpress setup: building the $name ICC profile with ArgyllCMS colprof (about a minute)" >&2
# -qm medium quality, -bl a low-quality B2A (deckpress converts only CMYK -> PCS), -nc no
# copy of the .ti3 inside, -kr/-l/-L the black generation and the ink limits the condition
# states (FOGRA39 330 %, GRACoL 320 %, SWOP 300 % total; 100 % K), -Zr relative colorimetric
# as the default intent.
(cd "$work" && colprof -qm -bl -nc -kr "-l$ink_limit" -L100 -Zr \
   -D "$name (built by deckpress with ArgyllCMS colprof)" \
   -C "Characterisation data $name.ti3 from icc-profiles-free (Zlib licence)" "$name" >/dev/null)
python3 - "$work/$name.icc" <<'PY'
import struct, sys
path = sys.argv[1]
data = bytearray(open(path, "rb").read())
data[24:36] = struct.pack(">6H", 2006, 12, 1, 0, 0, 0)  # ICC header dateTimeNumber
open(path, "wb").write(bytes(data))
PY
mkdir -p "$(dirname "$out")"
mv "$work/$name.icc" "$out.tmp" && mv "$out.tmp" "$out"
