"""The labels as PDF (ReportLab): an A4 portrait sheet of 2 × 4 labels per page (99 × 67 mm cells, the
common size of label stock, with light cut lines), or one label alone at the sheet's first place.

Each label: its QR code on the left, drawn as vector squares (sharp at any printer's resolution, with
the standard's quiet zone of 4 modules); on the right the kind of item, its name and its context (site
first); along its foot the address the code holds, for whoever must type it. Words in the language
of the request (core.i18n, the `qr_labels` group)."""

import io
import math
from collections.abc import Sequence

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from spot.core import i18n
from spot.core.i18n import Language
from spot.labels import service
from spot.labels.service import Label
from spot.reports.pdf_blocks import GREY, LINE, fonts

MEDIA_TYPE = "application/pdf"
PAGE_WIDTH, PAGE_HEIGHT = A4
MM = 72 / 25.4
MARGIN = 10 * MM
HEAD = 18.0
FOOT = 12.0
COLUMNS, ROWS = 2, 4
PER_PAGE = COLUMNS * ROWS
LABEL_WIDTH = (PAGE_WIDTH - 2 * MARGIN) / COLUMNS
LABEL_HEIGHT = (PAGE_HEIGHT - 2 * MARGIN - HEAD - FOOT) / ROWS
PADDING = 8.0
# The code with its quiet zone: about 47 mm, the code itself 35 to 40 mm, read from a phone at arm's length.
QR_SIDE = 132.0
ADDRESS_SIZE = 6.0
ADDRESS_MIN_SIZE = 4.5
# The height of the label's foot, where the address is written.
FOOT_LINE = PADDING + ADDRESS_SIZE
SCAN_SIZE = 6.5
TEXT_X = PADDING + QR_SIDE + PADDING
TEXT_WIDTH = LABEL_WIDTH - TEXT_X - PADDING
NAME_SIZE, NAME_LEADING, NAME_LINES = 11.0, 13.0, 5
CONTEXT_SIZE, CONTEXT_LEADING, CONTEXT_LINES = 7.5, 9.0, 4
SEPARATOR = " › "


def sheet_pdf(sheet: service.Sheet, *, lang: Language) -> bytes:
    """Every label of the cartography's sheet, 8 to a page, headed by the cartography's name."""
    title = i18n.text(lang, "qr_labels.title", cartography=sheet.cartography.name)
    return _document(sheet.labels, title=title, lang=lang)


def label_pdf(label: Label, *, lang: Language) -> bytes:
    """One label, at the first place of the sheet."""
    return _document([label], title=i18n.text(lang, "qr_labels.one", name=label.name), lang=lang)


def filename(stem: str) -> str:
    return f"{stem}.pdf"


def _document(labels: Sequence[Label], *, title: str, lang: Language) -> bytes:
    regular, bold = fonts()
    kinds = i18n.group(lang, "qr_labels.kinds")
    scan = i18n.text(lang, "qr_labels.scan")
    page_words = i18n.text(lang, "pdf.page")
    pages = max(1, math.ceil(len(labels) / PER_PAGE))
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=A4, lang=lang, pageCompression=1)
    canvas.setTitle(title)
    canvas.setCreator("Spot")
    canvas.setViewerPreference("DisplayDocTitle", "true")
    for number in range(pages):
        canvas.setFont(bold, 11)
        canvas.setFillColor(colors.black)
        canvas.drawString(
            MARGIN, PAGE_HEIGHT - MARGIN - 11, _fitted(title, bold, 11, PAGE_WIDTH - 2 * MARGIN)
        )
        canvas.setFont(regular, 7)
        canvas.setFillColor(GREY)
        canvas.drawRightString(PAGE_WIDTH - MARGIN, MARGIN - 2, page_words.format(n=number + 1, total=pages))
        for place, label in enumerate(labels[number * PER_PAGE : (number + 1) * PER_PAGE]):
            row, column = divmod(place, COLUMNS)
            x = MARGIN + column * LABEL_WIDTH
            y = PAGE_HEIGHT - MARGIN - HEAD - (row + 1) * LABEL_HEIGHT
            _label(canvas, label, x, y, kind=kinds[label.item_type], scan=scan)
        canvas.showPage()
    canvas.save()
    return out.getvalue()


def _label(canvas: Canvas, label: Label, x: float, y: float, *, kind: str, scan: str) -> None:
    regular, bold = fonts()
    canvas.saveState()
    canvas.translate(x, y)
    # The cut line.
    canvas.setStrokeColor(LINE)
    canvas.setLineWidth(0.4)
    canvas.setDash(2, 2)
    canvas.rect(0, 0, LABEL_WIDTH, LABEL_HEIGHT, stroke=1, fill=0)
    canvas.setDash()
    top = LABEL_HEIGHT - PADDING
    # The code in the middle of the height above the address.
    qr_y = FOOT_LINE + (top - FOOT_LINE - QR_SIDE) / 2
    _qr(canvas, label.address, PADDING, qr_y, QR_SIDE)
    # The words, from the top of the column beside the code.
    line_y = top - 7
    canvas.setFillColor(GREY)
    canvas.setFont(bold, 7)
    canvas.drawString(TEXT_X, line_y, kind.upper())
    line_y -= NAME_LEADING + 2
    canvas.setFillColor(colors.black)
    canvas.setFont(bold, NAME_SIZE)
    for line in _lines(label.name, bold, NAME_SIZE, NAME_LINES):
        canvas.drawString(TEXT_X, line_y, line)
        line_y -= NAME_LEADING
    line_y -= 3
    canvas.setFillColor(GREY)
    canvas.setFont(regular, CONTEXT_SIZE)
    for line in _lines(SEPARATOR.join(label.context), regular, CONTEXT_SIZE, CONTEXT_LINES):
        canvas.drawString(TEXT_X, line_y, line)
        line_y -= CONTEXT_LEADING
    canvas.setFont(regular, SCAN_SIZE)
    scan_lines = _lines(scan, regular, SCAN_SIZE, 2)
    for n, line in enumerate(scan_lines):
        canvas.drawString(TEXT_X, qr_y + 10 + (len(scan_lines) - 1 - n) * (SCAN_SIZE + 2), line)
    # The address, across the foot, as small as it must be to fit.
    width = LABEL_WIDTH - 2 * PADDING
    size = ADDRESS_SIZE
    while size > ADDRESS_MIN_SIZE and stringWidth(label.address, regular, size) > width:
        size -= 0.25
    canvas.setFont(regular, size)
    canvas.drawString(PADDING, PADDING - 2, _fitted(label.address, regular, size, width))
    canvas.restoreState()


def _qr(canvas: Canvas, address: str, x: float, y: float, side: float) -> None:
    """The code as one path of squares, a run of dark modules of a row in one rectangle."""
    matrix = service.qr_code(address).matrix
    count = len(matrix)
    module = side / (count + 2 * service.QUIET_ZONE)
    origin_x = x + service.QUIET_ZONE * module
    origin_y = y + side - service.QUIET_ZONE * module
    path = canvas.beginPath()
    for r, row in enumerate(matrix):
        c = 0
        while c < count:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < count and row[c]:
                c += 1
            path.rect(origin_x + start * module, origin_y - (r + 1) * module, (c - start) * module, module)
    canvas.setFillColor(colors.black)
    canvas.drawPath(path, stroke=0, fill=1)


def _lines(value: str, font: str, size: float, most: int) -> list[str]:
    """The text wrapped to the column, at most `most` lines, the last cut with an ellipsis when more
    would be needed; a word longer than the column is cut too."""
    lines = [_fitted(line, font, size, TEXT_WIDTH) for line in simpleSplit(value, font, size, TEXT_WIDTH)]
    if len(lines) <= most:
        return lines
    kept = lines[:most]
    kept[-1] = _fitted(kept[-1].removesuffix("…") + "…", font, size, TEXT_WIDTH)
    return kept


def _fitted(value: str, font: str, size: float, width: float) -> str:
    """The text, cut with an ellipsis to fit the width."""
    if stringWidth(value, font, size) <= width:
        return value
    value = value.removesuffix("…")
    while value and stringWidth(value + "…", font, size) > width:
        value = value[:-1]
    return value + "…"
