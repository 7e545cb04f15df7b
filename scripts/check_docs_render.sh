#!/usr/bin/env bash
# Renders the documentation's landing page and the raw-capture tutorial (built by
# scripts/docs.sh into build/docs/) in headless Chromium, and checks what a reader sees:
# every image a page references exists and decodes, and each screenshot is not blank.
# The ctest docs_render runs it after docs_build; without chromium it says it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "docs_render skipped: chromium is not installed (apt-get install chromium)"
  exit 0
fi
out=build/docs-render
mkdir -p "$out"
for page in index.html tutorials/raw-capture.html; do
  file="build/docs/$page"
  [ -f "$file" ] || { echo "docs_render: $file is missing (run scripts/docs.sh first)" >&2; exit 1; }
  shot="$out/$(basename "$page" .html).png"
  rm -f "$shot"
  "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1200,1800 \
    --screenshot="$shot" "file://$PWD/$file" > "$out/chromium.log" 2>&1 || true
  /usr/bin/python3 - "$file" "$shot" <<'PY'
import html.parser, os, sys
import matplotlib.image

page, shot = sys.argv[1], sys.argv[2]

class Images(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.sources = []
    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.sources.append(dict(attrs).get("src", ""))

parser = Images()
parser.feed(open(page, encoding="utf-8").read())
for src in parser.sources:
    if src.startswith(("http:", "https:", "data:")):
        continue
    path = os.path.join(os.path.dirname(page), src.split("#")[0].split("?")[0])
    if not os.path.isfile(path):
        sys.exit(f"docs_render: {page}: image {src} is missing")
    matplotlib.image.imread(path)  # decodes, or raises
if not os.path.isfile(shot):
    sys.exit(f"docs_render: chromium wrote no screenshot of {page} (see build/docs-render/chromium.log)")
pixels = matplotlib.image.imread(shot)[..., :3]
ink = float((pixels.min(axis=2) < 0.9).mean())
if pixels.shape[0] < 1000 or pixels.shape[1] < 1000 or ink < 0.01:
    sys.exit(f"docs_render: {shot} looks blank ({pixels.shape[1]} x {pixels.shape[0]}, {100 * ink:.2f}% ink)")
print(f"docs_render: {page}: {len(parser.sources)} images present, screenshot {pixels.shape[1]} x "
      f"{pixels.shape[0]} with {100 * ink:.1f}% ink")
PY
done
