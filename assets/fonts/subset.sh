#!/usr/bin/env bash
# Re-makes the app's fonts (assets/fonts/*.ttf) from egui's default fonts:
# the same faces, cut to the characters playa shows, so the browser's
# download carries 0.2 MB of fonts instead of 1.4 MB (src/app/window/fonts.rs).
# Run it after the UI gains a character outside these ranges (the test
# `app::fonts::tests::every_character_the_app_writes_has_a_glyph` says
# which). Needs fontTools: `pip install fonttools==4.55.0`.
set -euo pipefail
cd "$(dirname "$0")/../.."
# egui's fonts, from the epaint_default_fonts crate (egui 0.37's), as cargo
# unpacked it once, or fetched from crates.io.
version=0.37.0
src=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/epaint_default_fonts-$version/fonts 2>/dev/null | head -1)
if [ -z "$src" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  curl -sSfL "https://static.crates.io/crates/epaint_default_fonts/epaint_default_fonts-$version.crate" \
    | tar -xz -C "$tmp"
  src=$tmp/epaint_default_fonts-$version/fonts
fi
out=assets/fonts

# Text: Latin (with Latin-1 and Extended-A), Greek, Cyrillic, punctuation,
# currency, letter-like symbols, arrows, mathematical operators.
text=U+0020-007E,U+00A0-017F,U+0370-03FF,U+0400-04FF,U+2000-206F,U+20A0-20BF,U+2100-214F,U+2190-21FF,U+2200-22FF,U+FFFD
# Code: Latin, punctuation, arrows, box drawing.
code=U+0020-007E,U+00A0-017F,U+2000-206F,U+2190-21FF,U+2500-257F
# Symbols: arrows, technical, shapes, dingbats, and every other character
# outside Latin in playa's sources (the pictographs its buttons use).
used=$(grep -rhoP '[^\x00-\x{17F}]' src | sort -u | tr -d '\n')
symbols=U+2190-21FF,U+2300-23FF,U+25A0-25FF,U+2600-26FF,U+2700-27BF,U+27F0-27FF,U+2B00-2BFF

subset() { # FONT OUT NEW_NAME UNICODES [TEXT]
  pyftsubset "$src/$1" --output-file="$out/$2" --unicodes="$4" ${5:+--text="$5"} \
    --layout-features='*' --no-hinting --desubroutinize --name-IDs='*' --name-languages='*'
  # Modified versions carry a name of their own (the fonts' licences).
  python3 - "$out/$2" "$3" <<'PY'
import sys
from fontTools.ttLib import TTFont
path, family = sys.argv[1], sys.argv[2]
font = TTFont(path, recalcTimestamp=False)
old = font["name"].getDebugName(1)
for record in font["name"].names:
    if record.nameID in (1, 3, 4, 6, 16):
        text = record.toUnicode().replace(old, family)
        if record.nameID == 6:
            text = text.replace(" ", "")
        record.string = text
font.save(path)
PY
}
subset Ubuntu-Light.ttf Ubuntu-Light-playa.ttf "Ubuntu derivative playa" "$text"
subset Hack-Regular.ttf Hack-playa.ttf "Hack playa" "$code"
subset NotoEmoji-Regular.ttf NotoEmoji-playa.ttf "Noto Emoji playa" "$symbols" "$used"
subset emoji-icon-font.ttf emoji-icon-font-playa.ttf "emoji-icon-font playa" "$symbols" "$used"
cp "$src/egui-icons.ttf" "$out/egui-icons.ttf"
ls -l "$out"/*.ttf
