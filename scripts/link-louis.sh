#!/usr/bin/env bash
# Make Debian's louis module (python3-louis, pure Python over liblouis20) importable in the venv.
# A symlink of that one package, not the whole of dist-packages, so Debian's other modules stay out.
set -euo pipefail
venv_python="$1"
src=""
for d in /usr/lib/python3/dist-packages/louis /usr/lib/python3*/site-packages/louis; do
  [ -f "$d/__init__.py" ] && { src="$d"; break; }
done
if [ -z "$src" ]; then
  echo "deckpress setup: Debian's python3-louis is not installed (apt-get install python3-louis)" >&2
  exit 2
fi
site=$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
ln -sfn "$src" "$site/louis"
"$venv_python" -c 'import louis; louis.version()' >/dev/null
