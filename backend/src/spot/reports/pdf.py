"""The PDFs of path reports (spec 2 §9 'PDF layout', DESIGN §5 signatures): one learner's report, and the
audit pack's documents (one path in full, with every grading; a person's qualification status), made of
reports.pdf_blocks' pieces.

Each page carries the organisation's logo when one
is configured (a PNG or JPEG in the data folder, organization.service) and its number; the audit pack's
pages also carry "generated on <date time> by <user>". Signatures print as DESIGN §5 asks: the signer's
printed name, the date and time, the meaning, "modified after signature", and revoked ones struck
through with when and why. Texts are in the language of the request (the catalogue's `pdf` words,
core.i18n), dates as the client shows them (French DD/MM/YYYY, English YYYY-MM-DD), times in the
organisation's time zone.

Each document is built in memory (a learner's report is some tens of kilobytes) and handed on as bytes:
the zip streams them one after the other (reports.archive)."""

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

from spot.config import get_settings
from spot.core.i18n import LANGUAGES, Language, fill
from spot.organization import service as organization
from spot.qualifications import validity
from spot.reports.pdf_blocks import (
    ERROR,
    FONT_SIZE,
    GREY,
    LINE,
    LOGO,
    MARGIN,
    SHADE,
    WIDTH,
    Heading,
    Rows,
    SignatureBoxes,
    Styles,
    fields_table,
    fonts,
    make_styles,
    text,
)
from spot.reports.schemas import ReportRequest
from spot.reports.selection import LearnerLines, MediationLine, ModuleLine, PathLine, SignatureLine
from spot.training.paths.service import round_grade

# Every option of a path and of a module: the audit pack prints them all.
PATH_FIELDS = frozenset(
    "reference dates status creator validation signature completion averageGrade duration".split()
)
MODULE_FIELDS = frozenset(
    "reference goals referents dates status grades comments signatures mediations mediators results".split()
)


# Words ------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Words:
    date_format: str
    learner: str
    external_id: str
    reference: str
    dates: str
    from_to: str
    status: str
    path_statuses: dict[str, str]
    module_statuses: dict[str, str]
    module_types: dict[str, str]
    mediation_statuses: dict[str, str]
    creator: str
    name_on: str
    accepted_on: str
    validation: str
    comment: str
    signature: str
    satisfaction: str
    completion: str
    not_quantifiable: str
    average_grade: str
    duration: str
    not_defined: str
    none: str
    goals: str
    referents: str
    grade: str
    passed: str
    failed: str
    graded_on_by: str
    valid_until: str
    learner_comment: str
    signatures: str
    learner_signed_on: str
    meanings: dict[str, str]
    modified_after_signature: str
    revoked_on: str
    reasons: dict[str, str]
    mediations: str
    mediator: str
    results: str
    done_of: str
    learner_box: str
    page: str
    generated: str
    audit_title: str
    grading_history: str
    graded_at: str
    referent: str
    qualification_title: str
    qualification: str
    module: str
    state: str
    validity: str
    states: dict[str, str]
    permanent: str
    never_validated: str
    days_left: str
    expired_since: str
    validation_path: str
    no_qualification: str


WORDS: dict[Language, Words] = {lang: fill(Words, lang, "pdf") for lang in LANGUAGES}


# What a document is made with -------------------------------------------------------------------------


@dataclass(frozen=True)
class Context:
    """What every page of a request's documents shares: its language, the organisation's time zone and
    logo, and the audit pack's stamp."""

    language: Language
    zone: ZoneInfo
    logo: bytes | None
    stamp: str | None = None

    @property
    def words(self) -> Words:
        return WORDS[self.language]

    def day(self, value: date | None) -> str:
        return value.strftime(self.words.date_format) if value is not None else self.words.none

    def moment(self, value: datetime | None) -> str:
        if value is None:
            return self.words.none
        return value.astimezone(self.zone).strftime(self.words.date_format + " %H:%M")

    def labelled(self, label: str, markup: str) -> str:
        """ "label : value" in French, "label: value" in English."""
        return f"{text(label)} : {markup}" if self.language == "fr" else f"{text(label)}: {markup}"

    def number(self, value: float) -> str:
        text = f"{round_grade(value):.1f}"
        return text.replace(".", ",") if self.language == "fr" else text


def logo() -> bytes | None:
    """The organisation's logo when it configured one (PNG or JPEG); Spot's own SVG is not printed."""
    image = organization.image("logo")
    return image.content if image.media_type in ("image/png", "image/jpeg") else None


def context(language: Language, *, stamp_by: str | None = None, now: datetime | None = None) -> Context:
    """A request's context; with `stamp_by`, each page says it was generated `now` by that user."""
    zone = ZoneInfo(get_settings().timezone)
    ctx = Context(language=language, zone=zone, logo=logo())
    if stamp_by is None or now is None:
        return ctx
    stamp = ctx.words.generated.format(date=ctx.moment(now), name=stamp_by)
    return Context(language=language, zone=zone, logo=ctx.logo, stamp=stamp)


# Pages ------------------------------------------------------------------------------------------------


class _Page:
    """Draws what every page carries when it begins: the logo (top left) and the stamp (bottom left)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.logo = ImageReader(io.BytesIO(ctx.logo)) if ctx.logo else None

    def __call__(self, canvas: Canvas, doc: Any) -> None:
        regular, _bold = fonts()
        canvas.saveState()
        if self.logo is not None:
            canvas.drawImage(
                self.logo,
                MARGIN,
                A4[1] - MARGIN + 6 - LOGO[1],
                width=LOGO[0],
                height=LOGO[1],
                preserveAspectRatio=True,
                anchor="sw",
                mask="auto",
            )
        if self.ctx.stamp:
            canvas.setFont(regular, FONT_SIZE - 1)
            canvas.setFillColor(GREY)
            canvas.drawString(MARGIN, MARGIN / 2, self.ctx.stamp)
        canvas.restoreState()


class _NumberedCanvas(Canvas):
    """A canvas that holds its pages until the document ends, so that each says "Page n / total"."""

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
            label = self.page_words.format(n=self.getPageNumber(), total=total)
            self.drawRightString(A4[0] - MARGIN, MARGIN / 2, label)
            self.restoreState()
            super().showPage()
        super().save()


def build(story: list[Flowable], ctx: Context, *, title: str) -> bytes:
    """The document's bytes: the story on A4 pages, each with the logo, stamp and "Page n / total".

    What ReportLab allows for readers and assistive technology: the title (shown by viewers instead
    of the file name), the language, and an outline of the paths and modules. It writes no structure
    tree: the PDFs are not tagged (docs/reports.md)."""
    out = io.BytesIO()
    top = MARGIN + (LOGO[1] if ctx.logo else 0)
    doc = SimpleDocTemplate(
        out,
        pagesize=A4,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=top,
        bottomMargin=MARGIN,
        title=title,
        creator="Spot",
        lang=ctx.language,
    )
    page = _Page(ctx)

    def numbered(*args: Any, **kwargs: Any) -> Canvas:
        canvas = _NumberedCanvas(*args, page_words=ctx.words.page, **kwargs)
        canvas.setViewerPreference("DisplayDocTitle", "true")
        return canvas

    doc.build(story, onFirstPage=page, onLaterPages=page, canvasmaker=numbered)
    return out.getvalue()


def signature_markup(signature: SignatureLine, ctx: Context) -> str:
    """DESIGN §5: printed name, date and time, meaning; modified after signature; revoked struck through."""
    w = ctx.words
    meaning = w.meanings.get(signature.meaning, signature.meaning)
    line = f"{text(signature.signer_name)} — {ctx.moment(signature.signed_at)} — {text(meaning)}"
    if signature.modified_after_signature:
        line += f' — <font color="{ERROR}"><b>{text(w.modified_after_signature)}</b></font>'
    if signature.revoked_at is not None:
        reason = w.reasons.get(signature.revoke_reason or "", signature.revoke_reason or "")
        revoked = w.revoked_on.format(date=ctx.moment(signature.revoked_at))
        line = f"<strike>{line}</strike> — " + (
            ctx.labelled(revoked, text(reason)) if reason else text(revoked)
        )
    return line


def signatures_markup(signatures: Sequence[SignatureLine], ctx: Context) -> str:
    return "<br/>".join(signature_markup(s, ctx) for s in signatures) or ctx.words.none


def duration_text(minutes: int | None, w: Words) -> str:
    """A number of minutes as "1 H 5 Mn", "not defined" for none."""
    if not minutes:
        return w.not_defined
    hours, rest = divmod(minutes, 60)
    parts = ([f"{hours} H"] if hours else []) + ([f"{rest} Mn"] if rest else [])
    return " ".join(parts)


def _grade(value: float | None, ctx: Context) -> str:
    return ctx.words.none if value is None else f"{ctx.number(value)} / 10"


def _named_on(name: str | None, when: datetime | None, ctx: Context) -> str:
    if name is None and when is None:
        return ctx.words.none
    if when is None:
        return text(name)
    return text(ctx.words.name_on.format(name=name or ctx.words.none, date=ctx.moment(when)))


# A path and its modules -------------------------------------------------------------------------------


def path_rows(path: PathLine, shown: frozenset[str], ctx: Context) -> Rows:
    """The path's fields its options ask for, as (label, markup) rows."""
    w = ctx.words
    rows: Rows = []
    if "reference" in shown:
        rows.append((w.reference, text(path.reference) if path.reference else w.none))
    if "dates" in shown:
        rows.append(
            (w.dates, text(w.from_to.format(start=ctx.day(path.start_date), stop=ctx.day(path.stop_date))))
        )
        if path.accepted_at is not None:
            rows.append((w.accepted_on, ctx.moment(path.accepted_at)))
    if "status" in shown:
        rows.append((w.status, text(w.path_statuses.get(path.status, path.status))))
    if "creator" in shown:
        rows.append((w.creator, _named_on(path.creator_name, path.created_at, ctx)))
    if "validation" in shown:
        value = _named_on(path.validator_name, path.validated_at, ctx)
        if path.validation_comment:
            value += "<br/>" + text(path.validation_comment)
        rows.append((w.validation, value))
    if "signature" in shown:
        value = ctx.moment(path.signed_at) if path.signed_at is not None else w.none
        if path.signature_satisfaction is not None:
            value += f" — {text(w.satisfaction)} {path.signature_satisfaction} / 5"
        if path.signature_comment:
            value += "<br/>" + text(path.signature_comment)
        rows.append((w.signature, value))
    if "signature" in shown or "validation" in shown:
        rows.append((w.signatures, signatures_markup(path.signatures, ctx)))
    if "completion" in shown:
        rows.append((w.completion, w.not_quantifiable if path.completion < 0 else f"{path.completion} %"))
    if "averageGrade" in shown:
        rows.append((w.average_grade, _grade(path.average_grade, ctx)))
    if "duration" in shown:
        rows.append((w.duration, text(duration_text(path.estimated_duration, w))))
    return rows


def _mediation_markup(mediation: MediationLine, with_mediator: bool, ctx: Context) -> str:
    w = ctx.words
    parts = [text(mediation.title), text(w.mediation_statuses.get(mediation.status, mediation.status))]
    if mediation.date is not None:
        parts.append(ctx.moment(mediation.date))
    if with_mediator:
        parts.append(ctx.labelled(w.mediator, text(mediation.mediator_name or w.none)))
    return " — ".join(parts)


def module_rows(module: ModuleLine, shown: frozenset[str], ctx: Context) -> Rows:
    """The assigned module's fields its options ask for."""
    w = ctx.words
    rows: Rows = []
    if "reference" in shown:
        rows.append((w.reference, text(module.reference) if module.reference else w.none))
    if "goals" in shown:
        rows.append((w.goals, text(module.goals) if module.goals else w.none))
    if "referents" in shown:
        rows.append((w.referents, text(", ".join(module.referents)) if module.referents else w.none))
    if "dates" in shown:
        rows.append(
            (
                w.dates,
                text(w.from_to.format(start=ctx.day(module.start_date), stop=ctx.day(module.stop_date))),
            )
        )
    if "status" in shown:
        rows.append((w.status, text(w.module_statuses.get(module.status, module.status))))
    if "grades" in shown:
        value = _grade(module.grade, ctx)
        if module.grade is not None:
            if module.is_success is not None:
                value += " — " + text(w.passed if module.is_success else w.failed)
            if module.graded_at is not None:
                by = module.grader_name or w.none
                value += " — " + text(w.graded_on_by.format(date=ctx.moment(module.graded_at), name=by))
            if module.valid_until is not None:
                value += f" — {text(w.valid_until)} {ctx.day(module.valid_until)}"
        rows.append((w.grade, value))
    if "comments" in shown:
        rows.append((w.comment, text(module.comment) if module.comment else w.none))
        if module.learner_comment or module.learner_satisfaction is not None:
            value = text(module.learner_comment or "")
            if module.learner_satisfaction is not None:
                value += (
                    "<br/>" if value else ""
                ) + f"{text(w.satisfaction)} {module.learner_satisfaction} / 5"
            rows.append((w.learner_comment, value))
    if "signatures" in shown:
        value = signatures_markup(module.signatures, ctx)
        if module.learner_signed_at is not None and not module.signatures:
            value = f"{text(w.learner_signed_on)} {ctx.moment(module.learner_signed_at)}"
        rows.append((w.signatures, value))
    if "mediations" in shown:
        with_mediator = "mediators" in shown
        value = "<br/>".join(_mediation_markup(m, with_mediator, ctx) for m in module.mediations) or w.none
        rows.append((w.mediations, value))
    if "results" in shown:
        value = (
            w.not_quantifiable
            if not module.total_items
            else w.done_of.format(done=module.done_items, total=module.total_items)
        )
        rows.append((w.results, text(value)))
    return rows


def module_heading(module: ModuleLine, ctx: Context) -> str:
    """The module's heading as plain text: its number in the path, its name and its type."""
    kind = ctx.words.module_types.get(module.module_type, module.module_type)
    return f"{module.index + 1}. {module.name} — {kind}"


def path_story(
    path: PathLine,
    *,
    path_shown: frozenset[str],
    module_shown: frozenset[str],
    styles: Styles,
    ctx: Context,
    after_module: Callable[[ModuleLine], Iterable[Flowable]] | None = None,
) -> list[Flowable]:
    """A path's heading, its fields, then each module (heading and fields)."""
    story: list[Flowable] = [Heading(text(path.title), styles.heading, outline=path.title, level=0)]
    fields = fields_table(path_rows(path, path_shown, ctx), styles)
    if fields is not None:
        story += [fields, Spacer(1, 4)]
    for module in path.modules:
        heading = module_heading(module, ctx)
        rows = module_rows(module, module_shown, ctx)
        table = fields_table(rows, styles, heading=text(heading), outline=heading)
        if table is not None:
            story += [table, Spacer(1, 3)]
        if after_module is not None:
            story += list(after_module(module))
    return story


def learner_markup(learner: LearnerLines, *, external_id: bool, ctx: Context) -> str:
    name = text(learner.name)
    if external_id and learner.external_id:
        name += f" ({text(learner.external_id)})"
    return ctx.labelled(ctx.words.learner, name)


# Documents --------------------------------------------------------------------------------------------


def shown(options: Any) -> frozenset[str]:
    """The camelCase names of the options that are on."""
    return frozenset(name for name, on in options.model_dump(by_alias=True).items() if on)


def learner_report(
    learner: LearnerLines, *, request: ReportRequest, ctx: Context, signature_image: bytes | None
) -> bytes:
    """One learner's report: the document title, the learner, each selected path with the fields its
    options ask for and its modules, then the signature boxes and the signature image."""
    styles = make_styles()
    options = request.document_options
    path_shown = shown(request.path_options)
    module_shown = shown(request.module_options)
    if "mediations" not in module_shown:
        module_shown -= {"mediators"}
    story: list[Flowable] = []
    if options.document_title:
        story.append(Paragraph(text(options.document_title), styles.title))
    story.append(
        Paragraph(learner_markup(learner, external_id=options.display_external_ids, ctx=ctx), styles.person)
    )
    for path in learner.paths:
        story += path_story(path, path_shown=path_shown, module_shown=module_shown, styles=styles, ctx=ctx)
    labels = ([ctx.words.learner_box] if options.learner_signature else []) + (
        [options.manager_signature_label or ""] if options.manager_signature else []
    )
    if labels or signature_image:
        story += [Spacer(1, 16), SignatureBoxes(labels, signature_image, styles.label)]
    return build(story, ctx, title=options.document_title or learner.name)


@dataclass(frozen=True)
class Grading:
    """One grading of an assigned module (training_path_grading), earlier ones included."""

    graded_at: datetime
    grade: float
    is_success: bool
    referent_name: str
    comment: str
    valid_until: date | None


def _history_table(gradings: Sequence[Grading], styles: Styles, ctx: Context) -> list[Flowable]:
    if not gradings:
        return []
    w = ctx.words
    header = [w.graded_at, w.grade, w.referent, w.valid_until, w.comment]
    data: list[list[Any]] = [[Paragraph(text(h), styles.label) for h in header]]
    for g in gradings:
        grade = f"{_grade(g.grade, ctx)} — {w.passed if g.is_success else w.failed}"
        data.append(
            [
                Paragraph(ctx.moment(g.graded_at), styles.small),
                Paragraph(text(grade), styles.small),
                Paragraph(text(g.referent_name), styles.small),
                Paragraph(ctx.day(g.valid_until), styles.small),
                Paragraph(text(g.comment), styles.small),
            ]
        )
    widths = [70.0, 80.0, 90.0, 60.0, WIDTH - 300.0 - 20.0]
    table = Table(data, colWidths=widths, hAlign="LEFT", repeatRows=1, splitInRow=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("GRID", (0, 0), (-1, -1), 0.25, LINE),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ]
        )
    )
    return [Paragraph(text(w.grading_history), styles.caption), table, Spacer(1, 4)]


def path_audit(
    learner: LearnerLines, path: PathLine, *, gradings: dict[int, list[Grading]], ctx: Context
) -> bytes:
    """The audit pack's document of one path: every field, every module with its grading history (by
    module index), every signature; each page stamped."""
    styles = make_styles()
    title = f"{ctx.words.audit_title} — {path.title}"
    story: list[Flowable] = [
        Paragraph(text(title), styles.title),
        Paragraph(learner_markup(learner, external_id=True, ctx=ctx), styles.person),
    ]
    story += path_story(
        path,
        path_shown=PATH_FIELDS,
        module_shown=MODULE_FIELDS,
        styles=styles,
        ctx=ctx,
        after_module=lambda m: _history_table(gradings.get(m.index, []), styles, ctx),
    )
    return build(story, ctx, title=title)


def _validity(remaining: int, valid_until: date | None, ctx: Context) -> str:
    w = ctx.words
    if remaining >= validity.UNLIMITED:
        return w.permanent
    if remaining <= validity.NONE:
        return w.never_validated
    if remaining < 0:
        return w.expired_since.format(days=-remaining)
    return w.days_left.format(date=ctx.day(valid_until), days=remaining)


def qualification_status(learner: LearnerLines, elements: Sequence[dict[str, Any]], *, ctx: Context) -> bytes:
    """The audit pack's document of a person's qualifications (qualifications.dashboards.person): each
    qualification with its state and validity, then each of its modules with theirs."""
    styles = make_styles()
    w = ctx.words
    story: list[Flowable] = [
        Paragraph(text(w.qualification_title), styles.title),
        Paragraph(learner_markup(learner, external_id=True, ctx=ctx), styles.person),
    ]
    if not elements:
        story.append(Paragraph(text(w.no_qualification), styles.body))
    header = [w.qualification + " / " + w.module, w.state, w.validity, w.validation_path]
    data: list[list[Any]] = [[Paragraph(text(h), styles.label) for h in header]]
    commands: list[Any] = [
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("GRID", (0, 0), (-1, -1), 0.25, LINE),
        ("BACKGROUND", (0, 0), (-1, 0), SHADE),
    ]
    for element in elements:
        item = element["item"]
        commands.append(("BACKGROUND", (0, len(data)), (-1, len(data)), colors.HexColor("#F4F4F4")))
        data.append(
            [
                Paragraph(f"<b>{text(item['name'])}</b> ({item['obtained']} / {item['total']})", styles.body),
                Paragraph(text(w.states.get(item["state"], item["state"])), styles.body),
                Paragraph(text(_validity(item["remainingDays"], item["validUntil"], ctx)), styles.body),
                Paragraph("", styles.body),
            ]
        )
        for child in element["children"]:
            path_id = child.get("validationTrainingPath")
            data.append(
                [
                    Paragraph("    " + text(child["name"]), styles.body),
                    Paragraph(text(w.states.get(child["state"], child["state"])), styles.body),
                    Paragraph(text(_validity(child["remainingDays"], child["validUntil"], ctx)), styles.body),
                    Paragraph(f"#{path_id}" if path_id is not None else w.none, styles.body),
                ]
            )
    if elements:
        table = Table(
            data, colWidths=[WIDTH - 290.0, 70.0, 140.0, 80.0], hAlign="LEFT", repeatRows=1, splitInRow=1
        )
        table.setStyle(TableStyle(commands))
        story.append(table)
    return build(story, ctx, title=w.qualification_title)
