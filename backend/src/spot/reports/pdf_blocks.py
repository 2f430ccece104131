"""The building blocks of Spot's PDFs (spec 2 §9 'PDF layout'): the page's measures and colours, the
fonts, the paragraph styles, tables of labelled fields, headings that are entries of the document's
outline, and the signature boxes with the uploaded signature image. What the documents say, and in which
language, is reports.pdf's.

A4 portrait, base font size 8, in DejaVu Sans when the machine has it (French accents and more), else
ReportLab's Helvetica (WinAnsi, which covers French)."""

import base64
import io
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, unescape

from PIL import Image as PILImage
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

# Spec 2 §9: A4 portrait, base font size 8, signature boxes 120 x 48, the signature image area 150 x 60.
FONT_SIZE = 8
BOX = (120.0, 48.0)
IMAGE_AREA = (150.0, 60.0)
MARGIN = 36.0
LOGO = (110.0, 32.0)
WIDTH = A4[0] - 2 * MARGIN
LABEL_WIDTH = 120.0
CELL_PADDING = 3.0
PRIMARY = colors.HexColor("#0074C8")
SHADE = colors.HexColor("#EAF3FA")
LINE = colors.HexColor("#B0B0B0")
ERROR = "#FC724C"
GREY = colors.HexColor("#666666")

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_fonts_lock = threading.Lock()
_fonts: tuple[str, str] | None = None


def fonts() -> tuple[str, str]:
    """The regular and bold fonts: DejaVu Sans when installed (registered once), else Helvetica."""
    global _fonts
    with _fonts_lock:
        if _fonts is None:
            regular, bold = _DEJAVU / "DejaVuSans.ttf", _DEJAVU / "DejaVuSans-Bold.ttf"
            if regular.is_file() and bold.is_file():
                pdfmetrics.registerFont(TTFont("SpotSans", str(regular)))
                pdfmetrics.registerFont(TTFont("SpotSans-Bold", str(bold)))
                pdfmetrics.registerFontFamily(
                    "SpotSans",
                    normal="SpotSans",
                    bold="SpotSans-Bold",
                    italic="SpotSans",
                    boldItalic="SpotSans-Bold",
                )
                _fonts = ("SpotSans", "SpotSans-Bold")
            else:
                _fonts = ("Helvetica", "Helvetica-Bold")
        return _fonts


# Pixels per point of the signature image as it is embedded: sharp on paper, small to embed.
IMAGE_PIXELS_PER_POINT = 4


def decode_image(data_url: str | None) -> bytes | None:
    """The signature image of the data URL (reports.service validated it), shrunk to fit the area it
    prints in at IMAGE_PIXELS_PER_POINT: decoded once per report rather than once per learner's PDF.
    A PNG with transparency stays a PNG, anything else becomes a JPEG."""
    if not data_url:
        return None
    _header, _, payload = data_url.partition(",")
    size = (int(IMAGE_AREA[0]) * IMAGE_PIXELS_PER_POINT, int(IMAGE_AREA[1]) * IMAGE_PIXELS_PER_POINT)
    with PILImage.open(io.BytesIO(base64.b64decode(payload))) as image:
        if image.format == "JPEG":
            image.draft("RGB", size)
        image.load()
        fitted = image.copy()
    fitted.thumbnail(size)
    out = io.BytesIO()
    if fitted.mode in ("RGBA", "LA") or (fitted.mode == "P" and "transparency" in fitted.info):
        fitted.save(out, format="PNG", optimize=True)
    else:
        fitted.convert("RGB").save(out, format="JPEG", quality=90)
    return out.getvalue()


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    label: ParagraphStyle
    title: ParagraphStyle
    person: ParagraphStyle
    heading: ParagraphStyle
    small: ParagraphStyle
    caption: ParagraphStyle


def make_styles() -> Styles:
    regular, bold = fonts()
    body = ParagraphStyle("body", fontName=regular, fontSize=FONT_SIZE, leading=FONT_SIZE * 1.25)
    small = ParagraphStyle("small", parent=body, fontSize=FONT_SIZE - 1, leading=FONT_SIZE * 1.1)
    return Styles(
        body=body,
        label=ParagraphStyle("label", parent=body, fontName=bold),
        title=ParagraphStyle(
            "title", parent=body, fontName=bold, fontSize=14, leading=18, spaceAfter=6, keepWithNext=1
        ),
        person=ParagraphStyle(
            "person", parent=body, fontName=bold, fontSize=11, leading=14, spaceAfter=4, keepWithNext=1
        ),
        # Headings and captions stay on the page of what they announce (keepWithNext).
        heading=ParagraphStyle(
            "heading",
            parent=body,
            fontName=bold,
            fontSize=10,
            leading=13,
            textColor=PRIMARY,
            spaceBefore=8,
            spaceAfter=3,
            keepWithNext=1,
        ),
        small=small,
        caption=ParagraphStyle("caption", parent=small, keepWithNext=1),
    )


def text(value: object) -> str:
    """Plain text as paragraph markup: escaped, its line breaks kept."""
    return escape(str(value)).replace("\r\n", "\n").replace("\n", "<br/>")


Rows = list[tuple[str, str]]


class Heading(Paragraph):
    """A heading that is also an entry of the document's outline (its bookmarks), pointing where it
    first prints; a heading repeated atop a table's next page adds no second entry."""

    def __init__(self, *args: Any, outline: str = "", level: int = 0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.outline = outline
        self.level = level
        self.outlined = False

    def split(self, available_width: float, available_height: float) -> list[Flowable]:
        parts = super().split(available_width, available_height)
        if parts and isinstance(parts[0], Heading):
            parts[0].outline, parts[0].level = self.outline, self.level
        return parts

    def draw(self) -> None:
        if self.outline and not self.outlined:
            key = f"heading-{id(self)}"
            self.canv.bookmarkHorizontal(key, 0, self.height)
            self.canv.addOutlineEntry(self.outline, key, level=self.level)
            self.outlined = True
        super().draw()


def fields_table(
    rows: Rows, styles: Styles, *, heading: str | None = None, outline: str = "", level: int = 1
) -> Table | None:
    """A two-column table of labels and values (markup), under a shaded heading row when given, which
    repeats atop each page the table runs onto and never ends a page alone; the heading is an entry
    `outline` of the document's outline."""
    data: list[list[Any]] = []
    commands: list[Any] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, LINE),
    ]
    if heading is not None:
        data.append([Heading(heading, styles.label, outline=outline, level=level), ""])
        commands += [("SPAN", (0, 0), (-1, 0)), ("BACKGROUND", (0, 0), (-1, 0), SHADE)]
    for label, value in rows:
        plain = (
            _one_line(text(label), styles.label, LABEL_WIDTH),
            _one_line(value, styles.body, WIDTH - LABEL_WIDTH),
        )
        if None in plain:
            data.append([Paragraph(text(label), styles.label), Paragraph(value, styles.body)])
        else:
            data.append(list(plain))
    # A row of plain text is drawn by the table itself, as its paragraphs would print.
    commands += [
        ("FONTNAME", (0, 0), (0, -1), styles.label.fontName),
        ("FONTNAME", (1, 0), (1, -1), styles.body.fontName),
        ("FONTSIZE", (0, 0), (-1, -1), styles.body.fontSize),
        ("LEADING", (0, 0), (-1, -1), styles.body.leading),
    ]
    if not data:
        return None
    table = Table(
        data,
        colWidths=[LABEL_WIDTH, WIDTH - LABEL_WIDTH],
        hAlign="LEFT",
        repeatRows=1 if heading is not None else 0,
        splitInRow=1,
    )
    table.setStyle(TableStyle(commands))
    return table


def _one_line(markup: str, style: ParagraphStyle, column: float) -> str | None:
    """The plain text of a cell that is one line without markup (most cells of a report): the table
    draws it, without a Paragraph to parse and lay out, which made most of a report's time (the zip of
    200 learners' PDFs, bench/reports.py: 0.36-0.42 s a learner with a Paragraph in every cell, 0.17 s
    so). None for markup, or a text longer than its column, which a Paragraph wraps."""
    if "<" in markup:
        return None
    plain = unescape(markup)
    if pdfmetrics.stringWidth(plain, style.fontName, style.fontSize) > column - 2 * CELL_PADDING:
        return None
    return plain


class SignatureBoxes(Flowable):
    """The boxes where the learner and the manager sign the printed report (120 x 48 each, under their
    labels) and the area of the uploaded signature image (150 x 60), side by side."""

    GAP = 24.0

    def __init__(self, labels: Sequence[str], image: bytes | None, style: ParagraphStyle) -> None:
        super().__init__()
        self.labels = [Paragraph(text(label), style) for label in labels]
        self.image = ImageReader(io.BytesIO(image)) if image else None
        self.label_height = 0.0

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.label_height = max((p.wrap(BOX[0], available_height)[1] for p in self.labels), default=0.0)
        height = (
            self.label_height + 3 + max(BOX[1] if self.labels else 0.0, IMAGE_AREA[1] if self.image else 0.0)
        )
        return available_width, height

    def draw(self) -> None:
        canvas = self.canv
        x = 0.0
        top = (
            self.label_height + 3 + max(BOX[1] if self.labels else 0.0, IMAGE_AREA[1] if self.image else 0.0)
        )
        box_top = top - self.label_height - 3
        canvas.setStrokeColor(colors.black)
        canvas.setLineWidth(0.5)
        for label in self.labels:
            label.drawOn(canvas, x, top - label.height)
            canvas.rect(x, box_top - BOX[1], BOX[0], BOX[1])
            x += BOX[0] + self.GAP
        if self.image is not None:
            canvas.drawImage(
                self.image,
                x,
                box_top - IMAGE_AREA[1],
                width=IMAGE_AREA[0],
                height=IMAGE_AREA[1],
                preserveAspectRatio=True,
                anchor="c",
                mask="auto",
            )
