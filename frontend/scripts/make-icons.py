"""The installable app's icons (public/icons/), drawn from Spot's logo (the server's default applogo.svg:
a blue disc, a white ring, a yellow dot) in the brand colour. Run once with the backend's Python
(Pillow): `../backend/.venv/bin/python scripts/make-icons.py`; the PNGs are committed.

- icon-192.png, icon-512.png ("any"): the disc on a transparent ground, as the logo is;
- icon-maskable-512.png ("maskable"): a full blue square, the ring 68 % of it wide (the safe zone
  a launcher's mask keeps is the middle 80 %);
- apple-touch-icon.png (180 px): the full blue square, which iOS rounds itself."""

from pathlib import Path

from PIL import Image, ImageDraw

BLUE, WHITE, YELLOW = "#0074C8", "#FFFFFF", "#FFC107"
OUT = Path(__file__).resolve().parent.parent / "public" / "icons"
SCALE = 4  # drawn larger, then reduced: smooth edges


def draw(size: int, *, full: bool, ring: float) -> Image.Image:
    big = size * SCALE
    image = Image.new("RGBA", (big, big), BLUE if full else (0, 0, 0, 0))
    pen = ImageDraw.Draw(image)
    middle = big / 2
    if not full:
        radius = big * 30 / 64
        pen.ellipse((middle - radius, middle - radius, middle + radius, middle + radius), fill=BLUE)
    # The logo's ring (radius 11, stroke 5) and dot (radius 3) on its 64-unit grid, `ring` of the icon wide.
    unit = big * ring / 64
    outer, inner, dot = 13.5 * unit, 8.5 * unit, 3 * unit
    pen.ellipse((middle - outer, middle - outer, middle + outer, middle + outer), fill=WHITE)
    pen.ellipse((middle - inner, middle - inner, middle + inner, middle + inner), fill=BLUE)
    pen.ellipse((middle - dot, middle - dot, middle + dot, middle + dot), fill=YELLOW)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    draw(192, full=False, ring=1).save(OUT / "icon-192.png")
    draw(512, full=False, ring=1).save(OUT / "icon-512.png")
    draw(512, full=True, ring=1.6).save(OUT / "icon-maskable-512.png")
    draw(180, full=True, ring=1.6).convert("RGB").save(OUT / "apple-touch-icon.png")


if __name__ == "__main__":
    main()
