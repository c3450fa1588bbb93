#!/usr/bin/env bash
# The wheel a user would install, tried the way a user would: build the sdist and, from it, the wheel
# (python -m build), install the wheel into a fresh venv outside the checkout, and run that venv's
# `hexslinger` from another directory on every shipped map and both rulesets. Any failure exits non-zero.
#
# Usage: tools/wheel_smoke.sh   (make wheel-smoke; make test runs it last)
#   PYTHON        the Python that makes the fresh venv (default python3)
#   BUILD_PYTHON  a Python with `build` installed (default the checkout's .venv, made by make test)
#   KEEP=1        keep the temporary folder (its path is printed) to look at the pictures
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
BUILD_PYTHON="${BUILD_PYTHON:-$ROOT/.venv/bin/python}"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/hexslinger-wheel.XXXXXX")"
if [ "${KEEP:-}" = 1 ]; then
    echo "wheel smoke: keeping $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi
started=$SECONDS

fail() {
    echo "wheel smoke: FAILED: $*" >&2
    exit 1
}

# 1. build from a clean copy of the sources (the checkout's build/ and *.egg-info/SOURCES.txt from
#    earlier builds would slip files into the wheel that a fresh clone's wheel leaves out): the sdist,
#    then the wheel from the sdist. Tracked files and new ones not ignored, so uncommitted work counts.
mkdir -p "$WORK/src"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard | (cd "$ROOT" && tar --null -T - -cf -) |
        tar -xf - -C "$WORK/src"
else
    tar -C "$ROOT" --exclude=.git --exclude=.venv --exclude=build --exclude=dist --exclude='*.egg-info' \
        --exclude=__pycache__ --exclude='*.pyc' --exclude='.*_cache' --exclude=.hypothesis -cf - . |
        tar -xf - -C "$WORK/src"
fi
if ! "$BUILD_PYTHON" -m build --outdir "$WORK/dist" "$WORK/src" >"$WORK/build.log" 2>&1; then
    cat "$WORK/build.log" >&2
    fail "python -m build"
fi
wheels=("$WORK"/dist/*.whl)
[ "${#wheels[@]}" -eq 1 ] && [ -f "${wheels[0]}" ] || fail "expected one wheel in $WORK/dist"
echo "wheel smoke: built $(basename "${wheels[0]}") ($(($(wc -c <"${wheels[0]}") / 1024)) KiB)"

# 2. a fresh venv outside the checkout, the wheel and its dependencies (pip's cache is reused)
"$PYTHON" -m venv "$WORK/venv"
"$WORK/venv/bin/python" -m pip install --quiet --disable-pip-version-check "${wheels[0]}" ||
    fail "pip install of the wheel"

# 3. run it from another directory, with nothing of the checkout or the user's settings in reach
mkdir -p "$WORK/run" "$WORK/home/config" "$WORK/home/data" "$WORK/home/cache"
cd "$WORK/run"
unset PYTHONPATH
export SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
export HEXSLINGER_CONFIG_DIR="$WORK/home/config" HEXSLINGER_DATA_DIR="$WORK/home/data"
export HEXSLINGER_CACHE_DIR="$WORK/home/cache"
VPY="$WORK/venv/bin/python"
HEX="$WORK/venv/bin/hexslinger"

run() {
    echo "  \$ hexslinger $*"
    local status=0
    "$HEX" "$@" >"$WORK/out.txt" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        cat "$WORK/out.txt" >&2
        fail "hexslinger $* exited $status"
    fi
}

# a picture: a PNG of the expected size with more than a handful of colours (not a blank or error screen)
picture() {
    "$VPY" - "$1" "$2" <<'EOF' || fail "picture $1"
import os, sys
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame
path, size = sys.argv[1], sys.argv[2]
image = pygame.image.load(path)
w, h = image.get_size()
colours = {tuple(image.get_at((x, y))) for x in range(0, w, 7) for y in range(0, h, 7)}
kib = os.path.getsize(path) // 1024
assert size == "any" or f"{w}x{h}" == size, f"{path} is {w}x{h}, not {size}"
assert kib >= 20 and len(colours) >= 200, f"{path} looks blank: {kib} KiB, {len(colours)} colours"
print(f"    {os.path.basename(path)}: {w}x{h}, {kib} KiB, {len(colours)} colours sampled")
EOF
}

installed="$("$VPY" -c 'import game; print(game.__file__)')"
case "$installed" in
"$WORK/venv/"*) ;;
*) fail "game is imported from $installed, not from the fresh venv" ;;
esac

run odds frontier --attacker deputy --target outlaw --distance 6 --cover half
grep -q "hit:" "$WORK/out.txt" || fail "odds frontier printed no hit chance"
run odds rift --balance
grep -q "Deliberate" "$WORK/out.txt" || fail "odds rift --balance printed no attitudes"
run odds golden --weapon revolver --defence d8+1
grep -q "25/63" "$WORK/out.txt" || fail "odds golden printed no exact hit chance (golden.toml not in the wheel?)"

run maps
mapfile -t names < <(awk '{print $1}' "$WORK/out.txt")
[ "${#names[@]}" -ge 3 ] || fail "hexslinger maps listed ${#names[@]} maps"
grep -q "$WORK/venv/" "$WORK/out.txt" || fail "the shipped maps are not the installed copies"

run check-map
[ "$(grep -c ': OK$' "$WORK/out.txt")" -eq "${#names[@]}" ] || fail "check-map did not pass every shipped map"
run check-encounter
[ "$(grep -c ': OK (' "$WORK/out.txt")" -ge 6 ] || fail "check-encounter did not pass the shipped encounters"
grep -q "$WORK/venv/" "$WORK/out.txt" || fail "the shipped encounters are not the installed copies"
for name in "${names[@]}"; do
    run render-map "$name" --out "$WORK/run/$name.png"
    picture "$WORK/run/$name.png" any
done

# the live map view (watchfiles from the wheel's dependencies) and the Tiled extension beside the maps
run play ranch_duel --size 1280x720 --frames 20 --screenshot "$WORK/run/map_view.png"
picture "$WORK/run/map_view.png" 1280x720
extension="$("$VPY" -c 'from game.resources import maps_dir; print(maps_dir() / "extensions" / "hexslinger.js")')"
grep -q "HexslingerCheckMap" "$extension" || fail "the Tiled extension is not installed beside the maps ($extension)"

for ruleset in frontier rift; do
    run play --screen battle --ruleset "$ruleset" --size 1280x720 --frames 20 --screenshot "$WORK/run/battle_$ruleset.png"
    picture "$WORK/run/battle_$ruleset.png" 1280x720
done

# the printed map and posse: fpdf2 and the bundled fonts and token art of the installed game
run print ranch_duel --out "$WORK/run/ranch.pdf" --paper letter --grid
grep -q "7 pages" "$WORK/out.txt" || fail "print ranch_duel did not write its 7 pages"
head -c 5 "$WORK/run/ranch.pdf" | grep -q "%PDF-" || fail "print wrote no PDF"
run print-posse "Rifter Crew" --out "$WORK/run/crew.pdf"
grep -q "6 unit cards and 12 tokens" "$WORK/out.txt" || fail "print-posse did not print the Rifter Crew"

# a simulated batch in two spawned workers (the installed ai package, the AI's profiles, matplotlib's charts)
workers=$(( $(nproc 2>/dev/null || echo 1) > 1 ? 2 : 1 ))
run simulate ranch_duel --ruleset frontier --posse1 "Sheriff's Posse" --posse2 "Blackwater Gang" \
    --side1 ai:easy --side2 greedy --games 1 --swap --workers "$workers" --out "$WORK/run/sim"
[ "$(wc -l <"$WORK/run/sim/games.jsonl")" -eq 2 ] || fail "simulate did not record its 2 games"
picture "$WORK/run/sim/heatmap.png" any

echo "wheel smoke: OK in $((SECONDS - started)) s"
