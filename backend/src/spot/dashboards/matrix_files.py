"""The skills matrix as files (docs/qualifications.md, "The skills matrix"): an Excel workbook and an A4
landscape PDF of the same answer as the page (dashboards.matrix, with the same filters and sort), in the
language of the request (the catalogue's `skills_matrix` words, core.i18n).

- Excel (XlsxWriter, constant-memory mode, core.xlsx): a sheet of the matrix, the header row (person,
  the functions, functions held) and the person column frozen, a row per person, each cell coloured by
  its state and holding the last valid day as a date (or "permanent", "in progress"; empty: never),
  then the foot (people qualified, minimum, under the minimum, qualified at +30, +60 and +90 days); a
  legend sheet: the cartography, when and by whom, the filters, and each state's colour and meaning.
- PDF (ReportLab): the functions in slices as wide as the page, the people in pages of rows, each page
  a table of its own (the person column and the header again, the foot under a slice's last rows), each
  page headed by the title and the cartography and ending with the legend and "Page n / total".

Cells carry a word beside their colour (a state must not be told by colour alone, and prints in grey)."""

import io
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import IO, Any

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate

from spot.core import i18n, xlsx
from spot.core.i18n import LANGUAGES, Language, fill
from spot.dashboards.matrix import CellState, Matrix
from spot.reports.pdf_blocks import FONT_SIZE, GREY, LINE, MARGIN, SHADE, fonts, text

XLSX_MEDIA_TYPE = xlsx.MEDIA_TYPE
PDF_MEDIA_TYPE = "application/pdf"
FILENAME = "skills-matrix"

# Fill and text colours of each state: the page's (frontend SkillsMatrixPage), the sheet's, the PDF's.
COLOURS: dict[CellState, tuple[str, str]] = {
    CellState.valid: ("#C6EFCE", "#006100"),
    CellState.expiring: ("#FFEB9C", "#7A4B00"),
    CellState.inProgress: ("#DDEBF7", "#1F4E79"),
    CellState.expired: ("#FFC7CE", "#9C0006"),
    CellState.never: ("#F2F2F2", "#595959"),
}
UNDER = "#FFC7CE"


@dataclass(frozen=True)
class Words:
    title: str
    sheet: str
    legend_sheet: str
    person: str
    held: str
    qualified: str
    minimum: str
    under_minimum: str
    in_days: str
    yes: str
    no: str
    cartography: str
    site: str
    generated: str
    filters: str
    groups: str
    functions: str
    states_filter: str
    all: str
    people: str
    people_shown: str
    legend: str
    state: str
    meaning: str
    permanent: str
    # Dates as the client shows them: French DD/MM/YYYY, English YYYY-MM-DD (Excel's pattern; the PDF's
    # shorter strftime pattern).
    date_format: str
    day_format: str
    counts_note: str
    states: dict[str, str]
    short_states: dict[str, str]
    meanings: dict[str, str]


WORDS: dict[Language, Words] = {lang: fill(Words, lang, "skills_matrix") for lang in LANGUAGES}


@dataclass(frozen=True)
class Made:
    """Who asked for the file and when (in the organisation's time zone): the legend says it."""

    by: str
    at: datetime


def filename(extension: str) -> str:
    return f"{FILENAME}.{extension}"


def _filters(matrix: Matrix, w: Words) -> list[tuple[str, str]]:
    f = matrix.filters
    groups = [g["name"] for g in matrix.groups if g["id"] in f.groups]
    functions = [c["name"] for c in matrix.columns] if f.functions else []
    states = [w.states[s] for s in CellState if s.value in f.states]
    return [
        (w.groups, ", ".join(groups) or w.all),
        (w.functions, ", ".join(functions) or w.all),
        (w.states_filter, ", ".join(states) or w.all),
        (w.people, w.people_shown.format(shown=len(matrix.rows), total=matrix.total_people)),
    ]


def _foot(matrix: Matrix, w: Words) -> list[tuple[str, list[int | str], list[bool]]]:
    """The foot's rows: a label, a value per column, and which of them to mark as under the minimum."""
    columns = matrix.columns
    rows: list[tuple[str, list[int | str], list[bool]]] = [
        (w.qualified, [c["qualified"] for c in columns], [c["underMinimum"] for c in columns]),
        (w.minimum, [c["minimum"] for c in columns], [False] * len(columns)),
        (
            w.under_minimum,
            [w.yes if c["underMinimum"] else w.no for c in columns],
            [c["underMinimum"] for c in columns],
        ),
    ]
    if columns and columns[0].get("forecast"):
        for point in range(1, len(columns[0]["forecast"]["points"])):
            days = columns[0]["forecast"]["points"][point]["days"]
            points = [c["forecast"]["points"][point] for c in columns]
            rows.append(
                (
                    w.in_days.format(days=days),
                    [p["valid"] for p in points],
                    [p["underMinimum"] for p in points],
                )
            )
    return rows


# Excel ------------------------------------------------------------------------------------------------


def excel(matrix: Matrix, *, lang: Language, made: Made) -> Any:
    """The workbook's bytes, in chunks (core.xlsx.spooled)."""
    return xlsx.spooled(lambda out: write_excel(out, matrix, lang=lang, made=made))


def write_excel(out: IO[bytes], matrix: Matrix, *, lang: Language, made: Made) -> None:
    w = WORDS[lang]
    book = xlsx.workbook(out)
    bold = book.add_format({"bold": True})
    header = book.add_format(
        {"bold": True, "text_wrap": True, "valign": "top", "bg_color": "#EAF3FA", "border": 1}
    )
    title = book.add_format({"bold": True, "font_size": 14})
    dated = {
        s: book.add_format(
            {
                "num_format": w.date_format,
                "bg_color": fill,
                "font_color": ink,
                "border": 1,
                "border_color": "#B0B0B0",
            }
        )
        for s, (fill, ink) in COLOURS.items()
    }
    worded = {
        s: book.add_format({"bg_color": fill, "font_color": ink, "border": 1, "border_color": "#B0B0B0"})
        for s, (fill, ink) in COLOURS.items()
    }
    under = book.add_format({"bold": True, "bg_color": UNDER, "font_color": "#9C0006", "border": 1})
    plain_foot = book.add_format({"bold": True, "border": 1})

    sheet = book.add_worksheet(w.sheet)
    legend = book.add_worksheet(w.legend_sheet)
    columns, rows = matrix.columns, matrix.rows
    last = len(columns) + 1
    sheet.set_column(0, 0, 30)
    sheet.set_column(1, max(len(columns), 1), 14)
    sheet.set_column(last, last, 12)
    sheet.freeze_panes(1, 1)
    sheet.set_row(0, 45)
    sheet.write_string(0, 0, w.person, header)
    for i, column in enumerate(columns, 1):
        sheet.write_string(0, i, column["name"], header)
    sheet.write_string(0, last, w.held, header)
    for r, row in enumerate(rows, 1):
        sheet.write_string(r, 0, row["name"])
        for i, cell in enumerate(row["cells"], 1):
            state = CellState(cell["state"])
            until: date | None = cell["validUntil"]
            if until is not None:
                sheet.write_datetime(r, i, datetime.combine(until, time()), dated[state])
            elif state is CellState.valid:
                sheet.write_string(r, i, w.permanent, worded[state])
            elif state is CellState.inProgress:
                sheet.write_string(r, i, w.short_states[state], worded[state])
            else:
                sheet.write_blank(r, i, None, worded[state])
        sheet.write_number(r, last, row["held"])
    r = len(rows) + 1
    for label, values, marks in _foot(matrix, w):
        sheet.write_string(r, 0, label, bold)
        for i, (value, mark) in enumerate(zip(values, marks, strict=True), 1):
            style = under if mark else plain_foot
            if isinstance(value, int):
                sheet.write_number(r, i, value, style)
            else:
                sheet.write_string(r, i, value, style)
        r += 1

    legend.set_column(0, 0, 26)
    legend.set_column(1, 1, 90)
    legend.write_string(0, 0, w.title, title)
    site = matrix.cartography["siteName"]
    info = [(w.cartography, matrix.cartography["name"]), (w.site, site)]
    info.append(
        (
            "",
            w.generated.format(
                date=made.at.strftime(_strftime(w.date_format)) + made.at.strftime(" %H:%M"), name=made.by
            ),
        )
    )
    r = 2
    for label, value in info:
        legend.write_string(r, 0, label, bold)
        legend.write_string(r, 1, value)
        r += 1
    r += 1
    legend.write_string(r, 0, w.filters, bold)
    r += 1
    for label, value in _filters(matrix, w):
        legend.write_string(r, 0, label)
        legend.write_string(r, 1, value)
        r += 1
    r += 1
    legend.write_string(r, 0, w.state, bold)
    legend.write_string(r, 1, w.meaning, bold)
    r += 1
    for state in CellState:
        legend.write_string(r, 0, w.states[state], worded[state])
        legend.write_string(r, 1, w.meanings[state])
        r += 1
    r += 1
    legend.write_string(r, 0, w.qualified, bold)
    legend.write_string(r, 1, w.counts_note)
    book.close()


def _strftime(pattern: str) -> str:
    """Excel's date pattern as strftime's (dd/mm/yyyy, yyyy-mm-dd)."""
    return pattern.replace("dd", "%d").replace("mm", "%m").replace("yyyy", "%Y")


# PDF --------------------------------------------------------------------------------------------------

PAGE = landscape(A4)
WIDTH = PAGE[0] - 2 * MARGIN
HEAD = 26.0
LEGEND = 24.0
PERSON_WIDTH = 130.0
HELD_WIDTH = 38.0
CELL_WIDTH = 50.0
# The header row: as high as its longest name needs, at least this.
HEADER_MIN_HEIGHT = 24.0
PADDING = 2.0
ROW_HEIGHT = 15.0
FOOT_ROW_HEIGHT = 10.0
CELL_FONT = 5.5


def pdf(matrix: Matrix, *, lang: Language, made: Made) -> bytes:
    w = WORDS[lang]
    regular, bold = fonts()
    styles = {
        "header": ParagraphStyle("header", fontName=bold, fontSize=FONT_SIZE - 2, leading=FONT_SIZE - 1),
        "person": ParagraphStyle("person", fontName=regular, fontSize=FONT_SIZE - 1, leading=FONT_SIZE),
    }
    per_slice = max(1, int((WIDTH - PERSON_WIDTH - HELD_WIDTH) // CELL_WIDTH))
    height = PAGE[1] - 2 * MARGIN - HEAD - LEGEND
    foot = _foot(matrix, w)
    story: list[Flowable] = []
    slices = [
        range(s, min(s + per_slice, len(matrix.columns))) for s in range(0, len(matrix.columns), per_slice)
    ]
    slices = slices or [range(0)]
    for slice_columns in slices:
        header = _header_height(matrix, slice_columns, w, styles["header"])
        body_rows = max(1, int((height - header - 4) // ROW_HEIGHT))
        rows = matrix.rows
        chunks: list[list[dict[str, Any]]] = []
        start = 0
        while True:
            left = len(rows) - start
            # The foot goes under the slice's last rows, on their page when they leave room for it.
            room = body_rows - int(len(foot) * FOOT_ROW_HEIGHT // ROW_HEIGHT + 1)
            if left <= room:
                chunks.append(rows[start:])
                break
            take = min(left, body_rows)
            chunks.append(rows[start : start + take])
            start += take
        for number, chunk in enumerate(chunks):
            last = number == len(chunks) - 1
            if story:
                story.append(PageBreak())
            headers = _headers(matrix, slice_columns, w, styles["header"])
            story.append(_Block(matrix, slice_columns, chunk, foot if last else [], w, headers, header))
    out = io.BytesIO()
    doc = SimpleDocTemplate(
        out,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN + HEAD,
        bottomMargin=MARGIN + LEGEND,
        title=f"{w.title} — {matrix.cartography['name']}",
        creator="Spot",
        lang=lang,
    )
    heading = f"{w.title} — {matrix.cartography['name']} ({matrix.cartography['siteName']})"
    stamp = w.generated.format(date=made.at.strftime(_strftime(w.date_format) + " %H:%M"), name=made.by)
    filters = " · ".join(
        f"{label} : {value}" if lang == "fr" else f"{label}: {value}" for label, value in _filters(matrix, w)
    )

    def page(canvas: Canvas, _doc: Any) -> None:
        canvas.saveState()
        canvas.setFont(bold, 11)
        canvas.drawString(MARGIN, PAGE[1] - MARGIN - 11, heading)
        canvas.setFont(regular, FONT_SIZE - 1)
        canvas.setFillColor(GREY)
        canvas.drawRightString(PAGE[0] - MARGIN, PAGE[1] - MARGIN - 11, stamp)
        canvas.drawString(MARGIN, PAGE[1] - MARGIN - 21, filters)
        x = MARGIN
        y = MARGIN + 8
        for state in CellState:
            fill_colour, ink = COLOURS[state]
            canvas.setFillColor(colors.HexColor(fill_colour))
            canvas.setStrokeColor(LINE)
            canvas.rect(x, y - 1, 9, 7, fill=1, stroke=1)
            canvas.setFillColor(colors.black)
            label = w.states[state]
            canvas.drawString(x + 12, y, label)
            x += 12 + canvas.stringWidth(label, regular, FONT_SIZE - 1) + 14
        canvas.restoreState()

    def numbered(*args: Any, **kwargs: Any) -> Canvas:
        canvas = _NumberedCanvas(*args, page_words=_page_words(lang), **kwargs)
        canvas.setViewerPreference("DisplayDocTitle", "true")
        return canvas

    doc.build(story, onFirstPage=page, onLaterPages=page, canvasmaker=numbered)
    return out.getvalue()


def _page_words(lang: Language) -> str:
    return i18n.text(lang, "pdf.page")


def _fitted(name: str, font: str, size: float, width: float) -> str:
    """The name, cut with an ellipsis to fit the width."""
    if stringWidth(name, font, size) <= width:
        return name
    while name and stringWidth(name + "…", font, size) > width:
        name = name[:-1]
    return name + "…"


def _cell_lines(cell: dict[str, Any], w: Words) -> tuple[str, ...]:
    """What a cell prints: its state's word, then its last valid day or "permanent" when it has one."""
    state = cell["state"]
    until: date | None = cell["validUntil"]
    if state == CellState.never:
        return (w.short_states[state],)
    if until is None:
        return (w.short_states[state], w.permanent) if state == CellState.valid else (w.short_states[state],)
    return w.short_states[state], until.strftime(w.day_format)


def _headers(matrix: Matrix, slice_columns: range, w: Words, style: ParagraphStyle) -> list[Paragraph]:
    names = [w.person, *(matrix.columns[i]["name"] for i in slice_columns), w.held]
    return [Paragraph(text(name), style) for name in names]


def _header_height(matrix: Matrix, slice_columns: range, w: Words, style: ParagraphStyle) -> float:
    """The header row's height for a slice: its longest name wrapped in its column."""
    widths = [PERSON_WIDTH, *([CELL_WIDTH] * len(slice_columns)), HELD_WIDTH]
    headers = _headers(matrix, slice_columns, w, style)
    needed = max(p.wrap(width - 2 * PADDING, PAGE[1])[1] for p, width in zip(headers, widths, strict=True))
    return max(HEADER_MIN_HEIGHT, needed + 2 * PADDING + 2)


class _Block(Flowable):
    """One page of the matrix: a slice of its columns over a run of its rows (and the foot under the
    slice's last rows), drawn on the canvas itself: fills by runs of a row's cells in one state, the grid
    as one path, the texts in one text object per colour. ReportLab's Table, which styles and draws
    each of 30,000 cells on its own, took 8 to 12 s for 500 people × 60 functions (docs/performance.md,
    "The skills matrix")."""

    def __init__(
        self,
        matrix: Matrix,
        slice_columns: range,
        rows: Sequence[dict[str, Any]],
        foot: list[tuple[str, list[int | str], list[bool]]],
        w: Words,
        header: list[Paragraph],
        header_height: float,
    ) -> None:
        super().__init__()
        self.matrix, self.slice_columns, self.rows, self.foot, self.w = matrix, slice_columns, rows, foot, w
        self.header, self.header_height = header, header_height
        self.widths = [PERSON_WIDTH, *([CELL_WIDTH] * len(slice_columns)), HELD_WIDTH]
        self.xs = [sum(self.widths[:i]) for i in range(len(self.widths) + 1)]
        self.width = self.xs[-1]
        self.height = header_height + ROW_HEIGHT * len(rows) + FOOT_ROW_HEIGHT * len(foot)

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        canvas: Canvas = self.canv
        regular, bold = fonts()
        xs, top, w = self.xs, self.height, self.w
        body_top = top - self.header_height
        foot_top = body_top - ROW_HEIGHT * len(self.rows)
        canvas.saveState()
        # Fills: the header, each row's runs of cells in one state, the foot's values under the minimum.
        canvas.setFillColor(SHADE)
        canvas.rect(0, body_top, self.width, self.header_height, stroke=0, fill=1)
        filled = None
        for r, row in enumerate(self.rows):
            y = body_top - ROW_HEIGHT * (r + 1)
            cells = row["cells"]
            j = 0
            while j < len(self.slice_columns):
                state = cells[self.slice_columns[j]]["state"]
                k = j
                while k + 1 < len(self.slice_columns) and cells[self.slice_columns[k + 1]]["state"] == state:
                    k += 1
                if state != filled:
                    canvas.setFillColor(_FILLS[state])
                    filled = state
                canvas.rect(xs[j + 1], y, xs[k + 2] - xs[j + 1], ROW_HEIGHT, stroke=0, fill=1)
                j = k + 1
        canvas.setFillColor(_UNDER_FILL)
        for f, (_label, _values, marks) in enumerate(self.foot):
            y = foot_top - FOOT_ROW_HEIGHT * (f + 1)
            for j, i in enumerate(self.slice_columns):
                if marks[i]:
                    canvas.rect(xs[j + 1], y, CELL_WIDTH, FOOT_ROW_HEIGHT, stroke=0, fill=1)
        # The grid, one path.
        canvas.setStrokeColor(LINE)
        canvas.setLineWidth(0.25)
        grid = canvas.beginPath()
        ys = [top, body_top] + [body_top - ROW_HEIGHT * (r + 1) for r in range(len(self.rows))]
        ys += [foot_top - FOOT_ROW_HEIGHT * (f + 1) for f in range(len(self.foot))]
        for y in ys:
            grid.moveTo(0, y)
            grid.lineTo(self.width, y)
        for x in xs:
            grid.moveTo(x, top)
            grid.lineTo(x, 0)
        canvas.drawPath(grid, stroke=1, fill=0)
        if self.foot:
            canvas.setStrokeColor(colors.black)
            canvas.setLineWidth(1)
            canvas.line(0, foot_top, self.width, foot_top)
        # The header's names, wrapped, at the foot of their cells.
        for paragraph, x, width in zip(self.header, xs, self.widths, strict=False):
            paragraph.wrap(width - 2 * PADDING, self.header_height)
            paragraph.drawOn(canvas, x + PADDING, body_top + PADDING + 1)
        # Texts: names and counts in black, then the cells, one colour at a time.
        text = _Text(canvas)
        text.colour(colors.black)
        text.font(regular, FONT_SIZE - 1)
        for r, row in enumerate(self.rows):
            y = body_top - ROW_HEIGHT * (r + 1) + (ROW_HEIGHT - FONT_SIZE + 1) / 2 + 1
            text.at(PADDING, y, _fitted(row["name"], regular, FONT_SIZE - 1, PERSON_WIDTH - 2 * PADDING))
            text.at(xs[-2] + PADDING, y, str(row["held"]))
        text.font(bold, CELL_FONT + 0.5)
        for f, (label, values, _marks) in enumerate(self.foot):
            y = foot_top - FOOT_ROW_HEIGHT * (f + 1) + 3
            text.at(PADDING, y, label)
            for j, i in enumerate(self.slice_columns):
                text.at(xs[j + 1] + PADDING, y, str(values[i]))
        text.font(regular, CELL_FONT)
        by_ink: dict[str, list[tuple[float, float, tuple[str, ...]]]] = {}
        for r, row in enumerate(self.rows):
            y = body_top - ROW_HEIGHT * (r + 1)
            for j, i in enumerate(self.slice_columns):
                cell = row["cells"][i]
                by_ink.setdefault(cell["state"], []).append((xs[j + 1] + PADDING, y, _cell_lines(cell, w)))
        for state, placed in by_ink.items():
            text.colour(_INKS[state])
            for x, y, lines in placed:
                if len(lines) == 1:
                    text.at(x, y + (ROW_HEIGHT - CELL_FONT) / 2 + 0.5, lines[0])
                else:
                    text.at(x, y + ROW_HEIGHT / 2 + 0.8, lines[0])
                    text.at(x, y + 2, lines[1])
        text.end()
        canvas.restoreState()


class _Text:
    """One text object for a page's strings, moved from one to the next by offsets (a few numbers per
    string rather than a text object each)."""

    def __init__(self, canvas: Canvas) -> None:
        self.canvas = canvas
        self.text = canvas.beginText(0, 0)
        self.x = self.y = 0.0

    def font(self, name: str, size: float) -> None:
        self.text.setFont(name, size)

    def colour(self, value: colors.Color) -> None:
        self.text.setFillColor(value)

    def at(self, x: float, y: float, value: str) -> None:
        self.text.moveCursor(x - self.x, self.y - y)
        self.x, self.y = x, y
        self.text.textOut(value)

    def end(self) -> None:
        self.canvas.drawText(self.text)


_FILLS = {s.value: colors.HexColor(fill) for s, (fill, _ink) in COLOURS.items()}
_INKS = {s.value: colors.HexColor(ink) for s, (_fill, ink) in COLOURS.items()}
_UNDER_FILL = colors.HexColor(UNDER)


class _NumberedCanvas(Canvas):
    """A canvas that holds its pages until the document ends, so that each says "Page n / total" (at the
    bottom right of a landscape page)."""

    def __init__(self, *args: Any, page_words: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.page_words = page_words
        self.held: list[dict[str, Any]] = []

    def showPage(self) -> None:  # ReportLab's name
        self.held.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self.held)
        regular, _bold = fonts()
        for state in self.held:
            self.__dict__.update(state)
            self.saveState()
            self.setFont(regular, FONT_SIZE - 1)
            self.setFillColor(GREY)
            self.drawRightString(
                PAGE[0] - MARGIN, MARGIN / 2, self.page_words.format(n=self.getPageNumber(), total=total)
            )
            self.restoreState()
            super().showPage()
        super().save()
