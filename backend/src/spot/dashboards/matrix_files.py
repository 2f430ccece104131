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
from reportlab.platypus import Flowable, PageBreak, Paragraph, SimpleDocTemplate, Table, TableStyle

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
CELL_WIDTH = 46.0
HEADER_HEIGHT = 40.0
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
    body_rows = max(1, int((height - HEADER_HEIGHT - 4) // ROW_HEIGHT))
    story: list[Flowable] = []
    slices = [
        range(s, min(s + per_slice, len(matrix.columns))) for s in range(0, len(matrix.columns), per_slice)
    ]
    slices = slices or [range(0)]
    for slice_columns in slices:
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
            story.append(_table(matrix, slice_columns, chunk, foot if last else [], w, styles))
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


def _cell_text(cell: dict[str, Any], w: Words) -> str:
    state = CellState(cell["state"])
    until: date | None = cell["validUntil"]
    if state is CellState.never:
        return w.short_states[state]
    if until is None:
        return w.short_states[state] + ("\n" + w.permanent if state is CellState.valid else "")
    return f"{w.short_states[state]}\n{until.strftime(w.day_format)}"


def _table(
    matrix: Matrix,
    slice_columns: range,
    rows: Sequence[dict[str, Any]],
    foot: list[tuple[str, list[int | str], list[bool]]],
    w: Words,
    styles: dict[str, ParagraphStyle],
) -> Table:
    regular, bold = fonts()
    columns = [matrix.columns[i] for i in slice_columns]
    data: list[list[Any]] = [
        [Paragraph(text(w.person), styles["header"])]
        + [Paragraph(text(c["name"]), styles["header"]) for c in columns]
        + [Paragraph(text(w.held), styles["header"])]
    ]
    commands: list[Any] = [
        ("FONT", (0, 0), (-1, -1), regular, CELL_FONT, CELL_FONT + 1),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 0), (-1, -1), "CENTER"),
        ("GRID", (0, 0), (-1, -1), 0.25, LINE),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]
    for r, row in enumerate(rows, 1):
        line: list[Any] = [_fitted(row["name"], regular, FONT_SIZE - 1, PERSON_WIDTH - 4)]
        for j, i in enumerate(slice_columns, 1):
            cell = row["cells"][i]
            line.append(_cell_text(cell, w))
            fill_colour, ink = COLOURS[CellState(cell["state"])]
            commands.append(("BACKGROUND", (j, r), (j, r), colors.HexColor(fill_colour)))
            commands.append(("TEXTCOLOR", (j, r), (j, r), colors.HexColor(ink)))
        line.append(str(row["held"]))
        data.append(line)
    commands.append(("FONT", (0, 1), (0, len(rows)), regular, FONT_SIZE - 1, FONT_SIZE))
    first_foot = len(data)
    for label, values, marks in foot:
        r = len(data)
        data.append([label] + [str(values[i]) for i in slice_columns] + [""])
        for j, i in enumerate(slice_columns, 1):
            if marks[i]:
                commands.append(("BACKGROUND", (j, r), (j, r), colors.HexColor(UNDER)))
                commands.append(("TEXTCOLOR", (j, r), (j, r), colors.HexColor("#9C0006")))
    if foot:
        commands.append(("FONT", (0, first_foot), (-1, -1), bold, CELL_FONT + 0.5, CELL_FONT + 1.5))
        commands.append(("LINEABOVE", (0, first_foot), (-1, first_foot), 1, colors.black))
    widths = [PERSON_WIDTH] + [CELL_WIDTH] * len(columns) + [HELD_WIDTH]
    heights = [HEADER_HEIGHT] + [ROW_HEIGHT] * len(rows) + [FOOT_ROW_HEIGHT] * len(foot)
    table = Table(data, colWidths=widths, rowHeights=heights, hAlign="LEFT")
    table.setStyle(TableStyle(commands))
    return table


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
