"""The DUERP's two files (docs/documents.md), written to disk as the rows are read (documents.duerp):

- PDF, A4 landscape: a cover (title, site, version, date and author, counts, the method), the summary
  by work unit, the risks by work unit, then the action plan; every page headed by the title, the site
  and the version, and numbered "Page n / total" (the total is a form drawn once, at the end).
- XLSX (XlsxWriter, constant-memory mode): a sheet of what the cover says, then the summary, the
  risks and the action plan with the same rows as the PDF, dates as dates.

The tables are drawn on the canvas line by line rather than with ReportLab's Table, which holds and
measures every cell of a table before drawing it: 100,000 risks must print within DESIGN's 60 s
(bench/duerp.py). A row taller than a page goes on over the next one."""

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from spot.core import i18n, xlsx
from spot.core.i18n import LANGUAGES, Language, fill
from spot.documents.duerp import Mark, Risk, UnitSummary
from spot.reports.pdf_blocks import GREY, LINE, MARGIN, PRIMARY, SHADE, fonts
from spot.subjects.schemas import HIGH_ABOVE, LOW_BELOW

PDF_MEDIA_TYPE = "application/pdf"
XLSX_MEDIA_TYPE = xlsx.MEDIA_TYPE


@dataclass(frozen=True)
class Words:
    title: str
    short_title: str
    action_plan_title: str
    site: str
    version: str
    generated: str
    counts: str
    method_title: str
    method: str
    summary_title: str
    risks_title: str
    action_plan_intro: str
    none: str
    no_action: str
    work_unit: str
    cartography: str
    activity: str
    function: str
    code: str
    risk: str
    risks: str
    frequency: str
    gravity: str
    f: str
    g: str
    criticity: str
    band: str
    highest: str
    actions: str
    rated: str
    rated_on: str
    rated_by: str
    followed: str
    followed_on: str
    followed_by: str
    resolved: str
    resolved_on: str
    resolved_by: str
    standardized: str
    standardized_on: str
    standardized_by: str
    measures: str
    continued: str
    document_sheet: str
    summary_sheet: str
    risks_sheet: str
    action_plan_sheet: str
    field: str
    value: str
    date_format: str
    day_format: str
    bands: dict[str, str]


WORDS: dict[Language, Words] = {lang: fill(Words, lang, "duerp") for lang in LANGUAGES}


@dataclass(frozen=True)
class Cover:
    """What the first page says of the version."""

    site_code: str
    site_name: str
    version: int
    at: datetime
    by: str
    work_units: int
    risks: int
    actions: int
    language: Language
    timezone: str

    def local(self, at: datetime) -> datetime:
        return at.astimezone(ZoneInfo(self.timezone))


def _day(at: datetime, cover: Cover) -> str:
    return cover.local(at).strftime(WORDS[cover.language].day_format)


def _stamp(cover: Cover) -> str:
    w = WORDS[cover.language]
    local = cover.local(cover.at)
    return w.generated.format(date=local.strftime(w.day_format + " %H:%M"), name=cover.by)


def _method(w: Words) -> str:
    """How the document rates risks, with the bands of the score as the server applies them."""
    return w.method.format(low=LOW_BELOW, high=HIGH_ABOVE)


def _score(risk: Risk, w: Words) -> str:
    band = w.bands[risk.band]
    return f"{risk.criticity} · {band}" if risk.criticity is not None else band


def _mark(mark: Mark | None, cover: Cover) -> str:
    return f"{_day(mark.at, cover)}\n{mark.by}" if mark else ""


# PDF ---------------------------------------------------------------------------------------------------

PAGE = landscape(A4)
WIDTH = PAGE[0] - 2 * MARGIN
TOP = PAGE[1] - MARGIN - 24
BOTTOM = MARGIN + 14
SIZE = 7.0
LEADING = 8.6
PAD = 2.5


@dataclass(frozen=True)
class Column:
    title: str
    width: float
    value: Callable[[Any], str]
    right: bool = False


class _Pdf:
    """A canvas written page after page: the header on each, tables of wrapped rows. A page's table text
    is one text object and its grid one path (a line under each row, the columns' lines once per run of
    rows), both drawn when the page ends: a drawing operation per cell took twice as long."""

    def __init__(self, path: Path, cover: Cover) -> None:
        self.cover = cover
        self.w = WORDS[cover.language]
        self.regular, self.bold = fonts()
        self.canvas = Canvas(str(path), pagesize=PAGE, pageCompression=1, lang=cover.language)
        self.canvas.setTitle(f"{self.w.title} — {cover.site_name}")
        self.canvas.setAuthor(cover.by)
        self.canvas.setCreator("Spot")
        self.canvas.setViewerPreference("DisplayDocTitle", "true")
        self.y = TOP
        self.columns: Sequence[Column] = ()
        self.page_started = False
        self.text: Any = None
        self.grid: Any = None
        # Where the current run of table rows began on this page (its columns' lines start there).
        self.run_top: float | None = None

    # Pages

    def _start_page(self) -> None:
        c, w = self.canvas, self.w
        c.setFont(self.bold, 10)
        c.setFillColor(colors.black)
        c.drawString(MARGIN, PAGE[1] - MARGIN - 10, f"{w.short_title} — {self.cover.site_name}")
        c.setFont(self.regular, SIZE)
        c.setFillColor(GREY)
        right = f"{w.version.format(version=self.cover.version)} · {_stamp(self.cover)}"
        c.drawRightString(PAGE[0] - MARGIN, PAGE[1] - MARGIN - 10, right)
        number = i18n.text(self.cover.language, "pdf.page", n=c.getPageNumber(), total="")
        c.drawRightString(PAGE[0] - MARGIN - 14, MARGIN / 2, number.rstrip())
        c.saveState()
        c.translate(PAGE[0] - MARGIN - 12, MARGIN / 2)
        c.doForm("total")
        c.restoreState()
        c.setFillColor(colors.black)
        self.text = c.beginText()
        self.grid = c.beginPath()
        self.y = TOP
        self.page_started = True

    def _end_page(self) -> None:
        self._close_run()
        c = self.canvas
        c.setStrokeColor(LINE)
        c.setLineWidth(0.4)
        c.drawPath(self.grid, stroke=1, fill=0)
        c.setFillColor(colors.black)
        c.drawText(self.text)
        c.showPage()

    def new_page(self) -> None:
        if self.page_started:
            self._end_page()
        self._start_page()

    def finish(self) -> None:
        c = self.canvas
        if self.page_started:
            self._end_page()
        total = c.getPageNumber() - 1
        c.beginForm("total")
        c.setFont(self.regular, SIZE)
        c.setFillColor(GREY)
        c.drawString(0, 0, str(total))
        c.endForm()
        c.save()

    def room(self, height: float) -> None:
        if self.y - height < BOTTOM:
            self.new_page()
            if self.columns:
                self._header()

    # Text

    def title(self, text: str, size: float = 14) -> None:
        self.room(size * 2 + 6)
        self.canvas.setFont(self.bold, size)
        self.canvas.setFillColor(PRIMARY)
        self.y -= size + 4
        self.canvas.drawString(MARGIN, self.y, text)
        self.canvas.setFillColor(colors.black)
        self.y -= 6

    def paragraph(self, text: str, size: float = 9, bold: bool = False) -> None:
        font = self.bold if bold else self.regular
        for line in simpleSplit(text, font, size, WIDTH):
            self.room(size * 1.35)
            self.canvas.setFont(font, size)
            self.y -= size * 1.35
            self.canvas.drawString(MARGIN, self.y, line)
        self.y -= 4

    # Tables

    def table(self, columns: Sequence[Column]) -> None:
        self.columns = columns
        self.room(LEADING * 4)
        self._header()

    def end_table(self) -> None:
        self._close_run()
        self.columns = ()
        self.y -= 8

    def _open_run(self) -> None:
        if self.run_top is None:
            self.run_top = self.y
            self.grid.moveTo(MARGIN, self.y)
            self.grid.lineTo(MARGIN + WIDTH, self.y)

    def _close_run(self) -> None:
        """The columns' lines of the rows drawn since the run began."""
        if self.run_top is None:
            return
        x = MARGIN
        for column in (None, *self.columns):
            x += column.width if column else 0
            self.grid.moveTo(x, self.run_top)
            self.grid.lineTo(x, self.y)
        self.run_top = None

    def _lines(self, text: str, font: str, width: float) -> tuple[str, ...]:
        return _wrapped(text, font, width)

    def _header(self) -> None:
        cells = [self._lines(column.title, self.bold, column.width) for column in self.columns]
        self._draw(cells, self.bold, header=True)

    def band(self, text: str) -> None:
        """A line across the table: the work unit the rows below belong to."""
        lines = self._lines(text, self.bold, WIDTH)
        height = len(lines) * LEADING + 2 * PAD
        self.room(height + LEADING + 2 * PAD)
        self._close_run()
        c = self.canvas
        c.setFillColor(colors.HexColor("#DDE7F0"))
        c.rect(MARGIN, self.y - height, WIDTH, height, fill=1, stroke=0)
        self.grid.rect(MARGIN, self.y - height, WIDTH, height)
        self.text.setFont(self.bold, SIZE)
        for n, line in enumerate(lines):
            self.text.setTextOrigin(MARGIN + PAD, self.y - PAD - SIZE - n * LEADING + 1)
            self.text.textOut(line)
        self.y -= height

    def row(self, item: Any) -> None:
        cells = [self._lines(column.value(item), self.regular, column.width) for column in self.columns]
        self._draw(cells, self.regular)

    def _draw(self, cells: list[tuple[str, ...]], font: str, header: bool = False) -> None:
        while True:
            tallest = max(len(lines) for lines in cells)
            fits = int((self.y - BOTTOM - 2 * PAD) // LEADING)
            if fits < min(tallest, 3) and not (header and fits >= tallest):
                self.new_page()
                if not header and self.columns:
                    self._header()
                continue
            shown = min(tallest, max(fits, 1))
            height = shown * LEADING + 2 * PAD
            if header:
                self._close_run()
                self.canvas.setFillColor(SHADE)
                self.canvas.rect(MARGIN, self.y - height, WIDTH, height, fill=1, stroke=0)
            self._open_run()
            text = self.text
            text.setFont(font, SIZE)
            x = MARGIN
            for column, lines in zip(self.columns, cells, strict=True):
                for n, line in enumerate(lines[:shown]):
                    if not line:
                        continue
                    baseline = self.y - PAD - SIZE - n * LEADING + 1
                    if column.right:
                        text.setTextOrigin(x + column.width - PAD - stringWidth(line, font, SIZE), baseline)
                    else:
                        text.setTextOrigin(x + PAD, baseline)
                    text.textOut(line)
                x += column.width
            self.y -= height
            self.grid.moveTo(MARGIN, self.y)
            self.grid.lineTo(MARGIN + WIDTH, self.y)
            if shown >= tallest:
                return
            cells = [lines[shown:] for lines in cells]
            self.new_page()
            self._header()


@lru_cache(maxsize=8192)
def _wrapped(text: str, font: str, width: float) -> tuple[str, ...]:
    """The text's lines in a cell of this width. Cells repeat (a mark's date and name, a band, measures
    copied from risk to risk): each is measured once."""
    room = width - 2 * PAD
    lines: list[str] = []
    for part in text.split("\n"):
        if stringWidth(part, font, SIZE) <= room:
            lines.append(part)
        else:
            lines.extend(simpleSplit(part, font, SIZE, room) or [""])
    return tuple(lines)


def _summary_columns(w: Words) -> list[Column]:
    def n(name: str) -> Callable[[UnitSummary], str]:
        return lambda s: str(getattr(s, name))

    return [
        Column(w.work_unit, 388, lambda s: s.unit.label()),
        Column(w.risks, 54, n("risks"), right=True),
        Column(w.bands["high"].capitalize(), 54, n("high"), right=True),
        Column(w.bands["medium"].capitalize(), 54, n("medium"), right=True),
        Column(w.bands["low"].capitalize(), 54, n("low"), right=True),
        Column(w.bands["none"].capitalize(), 54, n("not_rated"), right=True),
        Column(w.highest, 56, lambda s: "" if s.highest is None else str(s.highest), right=True),
        Column(w.actions, 56, n("actions"), right=True),
    ]


def _risk_columns(w: Words, cover: Cover, with_unit: bool) -> list[Column]:
    first = (
        [Column(w.work_unit, 110, lambda r: r.unit.label()), Column(w.risk, 100, lambda r: r.name)]
        if with_unit
        else [Column(w.risk, 170, lambda r: r.name)]
    )
    return [
        Column(w.code, 52, lambda r: r.code),
        *first,
        Column(w.f, 16, lambda r: str(r.frequency or ""), right=True),
        Column(w.g, 16, lambda r: str(r.gravity or ""), right=True),
        Column(w.criticity, 56, lambda r: _score(r, w)),
        Column(w.rated, 70, lambda r: _mark(r.rated, cover)),
        Column(w.followed, 70, lambda r: _mark(r.followed, cover)),
        Column(w.resolved, 70, lambda r: _mark(r.resolved, cover)),
        Column(w.standardized, 70, lambda r: _mark(r.standardized, cover)),
        Column(w.measures, 140 if with_unit else 180, lambda r: r.measures),
    ]


def write_pdf(
    path: Path, cover: Cover, summary: Sequence[UnitSummary], risks: Iterable[Risk], plan: Iterable[Risk]
) -> None:
    w = WORDS[cover.language]
    pdf = _Pdf(path, cover)
    pdf.new_page()
    pdf.y -= 60
    pdf.title(w.title, 18)
    pdf.paragraph(
        f"{w.site} : {cover.site_name} ({cover.site_code})"
        if cover.language == "fr"
        else f"{w.site}: {cover.site_name} ({cover.site_code})",
        12,
        bold=True,
    )
    pdf.paragraph(w.version.format(version=cover.version), 12)
    pdf.paragraph(_stamp(cover), 11)
    pdf.paragraph(w.counts.format(work_units=cover.work_units, risks=cover.risks, actions=cover.actions), 11)
    pdf.y -= 20
    pdf.title(w.method_title, 11)
    pdf.paragraph(_method(w), 9)

    pdf.new_page()
    pdf.title(w.summary_title)
    if summary:
        pdf.table(_summary_columns(w))
        for line in summary:
            pdf.row(line)
        pdf.end_table()
    else:
        pdf.paragraph(w.none)

    pdf.new_page()
    pdf.title(w.risks_title)
    unit = None
    columns = _risk_columns(w, cover, with_unit=False)
    for risk in risks:
        if risk.unit != unit:
            if unit is None:
                pdf.table(columns)
            unit = risk.unit
            pdf.band(unit.label())
        pdf.row(risk)
    if unit is None:
        pdf.paragraph(w.none)
    else:
        pdf.end_table()

    pdf.new_page()
    pdf.title(w.action_plan_title)
    pdf.paragraph(w.action_plan_intro)
    started = False
    for risk in plan:
        if not started:
            pdf.table(_risk_columns(w, cover, with_unit=True))
            started = True
        pdf.row(risk)
    if not started:
        pdf.paragraph(w.no_action)
    pdf.finish()


# XLSX --------------------------------------------------------------------------------------------------

_MARKS = ("rated", "followed", "resolved", "standardized")


def _risk_header(w: Words) -> list[str]:
    return [
        w.cartography,
        w.activity,
        w.function,
        w.code,
        w.risk,
        w.frequency,
        w.gravity,
        w.criticity,
        w.band,
        *(getattr(w, f"{mark}_{part}") for mark in _MARKS for part in ("on", "by")),
        w.measures,
    ]


def write_xlsx(
    path: Path, cover: Cover, summary: Sequence[UnitSummary], risks: Iterable[Risk], plan: Iterable[Risk]
) -> None:
    w = WORDS[cover.language]
    with path.open("wb") as out:
        book = xlsx.workbook(out)
        bold = book.add_format({"bold": True})
        header = book.add_format({"bold": True, "text_wrap": True, "valign": "top", "bg_color": "#EAF3FA"})
        dated = book.add_format({"num_format": w.date_format})
        wrapped = book.add_format({"text_wrap": True, "valign": "top"})

        sheet = book.add_worksheet(w.document_sheet)
        sheet.set_column(0, 0, 24)
        sheet.set_column(1, 1, 90)
        sheet.write_string(0, 0, w.title, bold)
        info = [
            (w.site, f"{cover.site_name} ({cover.site_code})"),
            (w.version.format(version="").strip(), str(cover.version)),
            ("", _stamp(cover)),
            ("", w.counts.format(work_units=cover.work_units, risks=cover.risks, actions=cover.actions)),
            (w.method_title, _method(w)),
        ]
        for r, (label, value) in enumerate(info, 2):
            sheet.write_string(r, 0, label, bold)
            sheet.write_string(r, 1, value, wrapped)

        sheet = book.add_worksheet(w.summary_sheet)
        titles = [
            w.cartography,
            w.activity,
            w.function,
            w.risks,
            *(w.bands[b] for b in ("high", "medium", "low", "none")),
            w.highest,
            w.actions,
        ]
        for col, title in enumerate(titles):
            sheet.write_string(0, col, title, header)
        sheet.set_column(0, 2, 28)
        sheet.freeze_panes(1, 0)
        for r, line in enumerate(summary, 1):
            for col, value in enumerate((line.unit.cartography, line.unit.activity, line.unit.function)):
                sheet.write_string(r, col, value)
            for col, number in enumerate(
                (line.risks, line.high, line.medium, line.low, line.not_rated, line.highest, line.actions), 3
            ):
                if number is not None:
                    sheet.write_number(r, col, number)

        for name, rows in ((w.risks_sheet, risks), (w.action_plan_sheet, plan)):
            sheet = book.add_worksheet(name)
            for col, title in enumerate(_risk_header(w)):
                sheet.write_string(0, col, title, header)
            sheet.set_column(0, 4, 24)
            sheet.set_column(9, 16, 14)
            sheet.set_column(17, 17, 60)
            sheet.freeze_panes(1, 0)
            for r, risk in enumerate(rows, 1):
                _xlsx_risk(sheet, r, risk, w, cover, dated)
        book.close()


def _xlsx_risk(sheet: Any, r: int, risk: Risk, w: Words, cover: Cover, dated: Any) -> None:
    for col, value in enumerate(
        (risk.unit.cartography, risk.unit.activity, risk.unit.function, risk.code, risk.name)
    ):
        sheet.write_string(r, col, value)
    for col, number in ((5, risk.frequency), (6, risk.gravity), (7, risk.criticity)):
        if number:
            sheet.write_number(r, col, number)
    sheet.write_string(r, 8, w.bands[risk.band])
    col = 9
    for mark in (risk.rated, risk.followed, risk.resolved, risk.standardized):
        if mark is not None:
            sheet.write_datetime(r, col, cover.local(mark.at).replace(tzinfo=None), dated)
            sheet.write_string(r, col + 1, mark.by)
        col += 2
    if risk.measures:
        sheet.write_string(r, 17, risk.measures)
