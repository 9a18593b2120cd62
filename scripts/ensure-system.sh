#!/usr/bin/env bash
# Install the Debian packages deckpress needs, once. A quick no-op when they are there.
# liblouis's Python bindings come from Debian's python3-louis (PyPI's "louis" is unrelated).
set -euo pipefail
packages=("$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
  echo "deckpress setup: apt-get is not available. Install these Debian packages (or your system's equivalents) and run make again: ${missing[*]}" >&2
  exit 2
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "deckpress setup: run as root or install sudo; missing Debian packages: ${missing[*]}" >&2
    exit 2
  fi
fi
echo "deckpress setup: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
