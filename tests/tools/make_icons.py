"""The home-screen icons (static/icons/*.png), drawn from static/icons/icon.svg by Chromium.

Run: .venv/bin/python tests/tools/make_icons.py
Not part of the test run: the PNGs are kept in the repository, made again only when the drawing
changes. A maskable icon is cut to a circle or a squircle by the phone, so it is the drawing on a
square of felt, shrunk into the middle 80% (the part every mask keeps); iOS shows no
transparency, so its icon is that one too.
"""

from __future__ import annotations

from pathlib import Path

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"
CHROMIUM = "/usr/bin/chromium"


def maskable(svg: str) -> str:
    square = svg.replace('rx="112" fill="url(#felt)"', 'fill="url(#felt)"')
    shrunk = square.replace('<use href="#cards"/>',
                            '<use href="#cards" transform="translate(256 256) scale(0.8) translate(-256 -256)"/>')
    assert shrunk.count("scale(0.8)") == 1 and 'rx="112"' not in shrunk, "icon.svg changed: update maskable()"
    return shrunk


def main() -> None:
    from playwright.sync_api import sync_playwright
    drawing = (ICONS / "icon.svg").read_text(encoding="utf-8")
    made = {"icon-192.png": (drawing, 192), "icon-512.png": (drawing, 512),
            "icon-maskable-192.png": (maskable(drawing), 192),
            "icon-maskable-512.png": (maskable(drawing), 512),
            "apple-touch-icon.png": (maskable(drawing), 180)}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for name, (svg, size) in made.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content("<style>html, body { margin: 0; background: transparent }"
                             f" svg {{ display: block; width: {size}px; height: {size}px }}</style>{svg}")
            page.screenshot(path=str(ICONS / name), omit_background=True)
            page.close()
            print(ICONS / name)
        browser.close()


if __name__ == "__main__":
    main()
