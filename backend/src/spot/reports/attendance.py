"""The attendance sheet of a mediation (feuille d'émargement, docs/documents.md 'Attendance sheets'): one
A4 PDF in the reader's language with the mediation's title, mediator and description, each tracking
period, one row per participant with their electronic signatures (core.signatures: printed name, date
and time, meaning, "modified after signature", revoked ones struck through with when and why), and the
mediator's row (their validation of the report, the only act by which a mediator closes a mediation
today, and any signature of theirs). A row without a live signature shows an empty box, to be signed by
hand on paper. Made of reports.pdf's pages (logo, stamp, "Page n / total") and words.

What it shows is the mediation page's own reading (mediations.service.view): the same signatures, with
the same content to tell those made over an earlier version. The rule of when a sheet exists, and who
may have it, is the mediations area's (policy.can_get_attendance_sheet, service.load); this area only
prints it, as its PDFs need reportlab's pieces (mediations cannot import reports: reports imports it)."""

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from reportlab.platypus import Flowable, KeepTogether, Paragraph, Spacer, Table, TableStyle
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, not_found
from spot.core.i18n import LANGUAGES, Language, fill
from spot.core.principal import Principal
from spot.core.signatures import SignatureOut
from spot.mediations import policy
from spot.mediations import service as mediations
from spot.mediations.models import Mediation, MediationParticipant
from spot.mediations.schemas import MediationOut, Period
from spot.reports.pdf import Context, build, duration_text, signature_markup
from spot.reports.pdf_blocks import (
    LINE,
    SHADE,
    WIDTH,
    SignatureBoxes,
    Styles,
    fields_table,
    make_styles,
    text,
)
from spot.reports.selection import UNKNOWN_USER, SignatureLine
from spot.users.models import printed_name

NOT_VALIDATED = "mediationNotValidated"
MEDIA_TYPE = "application/pdf"
# Name | signature, and the periods' number | date | start | end | duration.
_PEOPLE_WIDTHS = (170.0, WIDTH - 170.0)
_PERIOD_WIDTHS = (32.0, 105.0, 105.0, 150.0, WIDTH - 392.0)


@dataclass(frozen=True)
class SheetWords:
    title: str
    file: str
    mediator: str
    description: str
    no_description: str
    status: str
    periods: str
    number: str
    date: str
    start: str
    end: str
    duration: str
    total_duration: str
    running: str
    no_period: str
    participants: str
    participant: str
    no_participant: str
    signature: str
    unsigned: str
    not_participant: str
    validation: str
    validated_by: str
    note: str


SHEET_WORDS: dict[Language, SheetWords] = {
    lang: fill(SheetWords, lang, "attendance_sheet") for lang in LANGUAGES
}


@dataclass(frozen=True)
class Row:
    """A person's row: their printed name, what they signed and whether a live signature is among it."""

    name: str
    signatures: list[SignatureOut]
    note: str | None = None

    @property
    def signed(self) -> bool:
        return any(s.revoked is None for s in self.signatures)


def _person(person_id: int, name: str, inactive: Sequence[int], language: Language) -> str:
    return printed_name(name, False if person_id in inactive else None, language)


def _line(signature: SignatureOut, language: Language) -> SignatureLine:
    """A signature as reports.pdf prints it: the signer's printed name as it was, marked once they left."""
    return SignatureLine(
        signer_name=printed_name(signature.user_name, signature.user_active, language),
        signed_at=signature.date,
        meaning=signature.meaning,
        modified_after_signature=signature.modified_after_signature,
        revoked_at=signature.revoked.date if signature.revoked is not None else None,
        revoke_reason=signature.revoked.reason if signature.revoked is not None else None,
    )


def rows(page: MediationOut, language: Language) -> tuple[Row | None, list[Row]]:
    """The mediator's row and the participants' (by name), then a row for each other signer (a person
    who signed and is no longer a participant, e.g. removed before a second validation), so that every
    signature of the record is printed (DESIGN §5)."""
    words = SHEET_WORDS[language]
    by_signer: dict[int | str, list[SignatureOut]] = {}
    for signature in page.signatures:
        key: int | str = signature.user_id if signature.user_id is not None else signature.user_name
        by_signer.setdefault(key, []).append(signature)
    inactive = page.inactive_people
    mediator = None
    if page.mediator is not None:
        name = _person(page.mediator.id, page.mediator.name, inactive, language)
        mediator = Row(name, by_signer.pop(page.mediator.id, []))
    participants = [
        Row(_person(p.id, p.name, inactive, language), by_signer.pop(p.id, []))
        for p in sorted(page.participants, key=lambda p: (p.name.casefold(), p.id))
    ]
    others = [
        Row(printed_name(signed[0].user_name, signed[0].user_active, language), signed, words.not_participant)
        for signed in sorted(by_signer.values(), key=lambda s: s[0].user_name.casefold())
    ]
    return mediator, participants + others


def _signature_cell(row: Row, styles: Styles, ctx: Context, words: SheetWords) -> list[Flowable]:
    """The row's signatures, each on its line; an empty box when none is live."""
    cell: list[Flowable] = []
    if row.note:
        cell.append(Paragraph(f"<i>{text(row.note)}</i>", styles.small))
    cell += [Paragraph(signature_markup(_line(s, ctx.language), ctx), styles.body) for s in row.signatures]
    if not row.signed:
        cell.append(SignatureBoxes([words.unsigned], None, styles.small))
    return cell


def _people_table(
    heading: str, people: Sequence[Row], styles: Styles, ctx: Context, extra: dict[int, list[Flowable]]
) -> Table:
    """A shaded header row (the heading and "Signature"), then a row per person; `extra` adds flowables
    before a row's signatures (the mediator's validation)."""
    words = SHEET_WORDS[ctx.language]
    data: list[list[object]] = [
        [Paragraph(text(heading), styles.label), Paragraph(text(words.signature), styles.label)]
    ]
    for index, row in enumerate(people):
        data.append(
            [
                Paragraph(text(row.name), styles.body),
                [*extra.get(index, []), *_signature_cell(row, styles, ctx, words)],
            ]
        )
    table = Table(data, colWidths=list(_PEOPLE_WIDTHS), hAlign="LEFT", repeatRows=1, splitInRow=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("GRID", (0, 0), (-1, -1), 0.25, LINE),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 3),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
            ]
        )
    )
    return table


def _period_cells(index: int, period: Period, ctx: Context, words: SheetWords) -> list[str]:
    """Its number, the day it started, its start and end times (the end's day too when it is another),
    and its duration (whole minutes, as the mediation page counts them)."""
    start = period.start.astimezone(ctx.zone)
    if period.stop is None:
        end, minutes = words.running, None
    else:
        stop = period.stop.astimezone(ctx.zone)
        end = stop.strftime("%H:%M") if stop.date() == start.date() else ctx.moment(period.stop)
        minutes = mediations.duration_minutes([period])
    return [
        str(index + 1),
        ctx.day(start.date()),
        start.strftime("%H:%M"),
        end,
        duration_text(minutes, ctx.words) if minutes is not None else ctx.words.none,
    ]


def _periods_table(periods: Sequence[Period], styles: Styles, ctx: Context, words: SheetWords) -> Table:
    header = [words.number, words.date, words.start, words.end, words.duration]
    data = [[Paragraph(text(h), styles.label) for h in header]]
    data += [
        [Paragraph(text(cell), styles.body) for cell in _period_cells(i, p, ctx, words)]
        for i, p in enumerate(periods)
    ]
    table = Table(data, colWidths=list(_PERIOD_WIDTHS), hAlign="LEFT", repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("GRID", (0, 0), (-1, -1), 0.25, LINE),
                ("BACKGROUND", (0, 0), (-1, 0), SHADE),
                ("TOPPADDING", (0, 0), (-1, -1), 1.5),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
            ]
        )
    )
    return table


def _validated_by(
    validation: mediations.Validation | None, styles: Styles, ctx: Context, words: SheetWords
) -> list[Flowable]:
    if validation is None:
        return []
    name = (
        UNKNOWN_USER
        if validation.name is None
        else printed_name(validation.name, validation.active, ctx.language)
    )
    line = words.validated_by.format(name=name, date=ctx.moment(validation.at))
    return [Paragraph(text(line), styles.body)]


def sheet(page: MediationOut, validation: mediations.Validation | None, *, ctx: Context) -> bytes:
    """The PDF of one mediation as `page` (mediations.service.view) shows it."""
    styles = make_styles()
    words = SHEET_WORDS[ctx.language]
    w = ctx.words
    mediator, people = rows(page, ctx.language)
    description = text(page.description) if page.description.strip() else text(words.no_description)
    fields = fields_table(
        [
            (words.mediator, text(mediator.name) if mediator else w.none),
            (words.status, text(w.mediation_statuses.get(page.status, page.status))),
            (words.description, description),
        ],
        styles,
    )
    story: list[Flowable] = [
        Paragraph(text(words.title), styles.title),
        Paragraph(text(page.title), styles.person),
    ]
    if fields is not None:
        story += [fields, Spacer(1, 6)]
    story.append(Paragraph(text(words.periods), styles.heading))
    if page.tracking_periods:
        story.append(_periods_table(page.tracking_periods, styles, ctx, words))
        total = duration_text(page.duration_minutes, w)
        story += [Spacer(1, 3), Paragraph(ctx.labelled(words.total_duration, text(total)), styles.label)]
    else:
        story.append(Paragraph(text(words.no_period), styles.body))
    story.append(Paragraph(text(words.participants), styles.heading))
    if people:
        story.append(_people_table(words.participant, people, styles, ctx, {}))
    else:
        story.append(Paragraph(text(words.no_participant), styles.body))
    story.append(Paragraph(text(words.validation), styles.heading))
    mediator_row = mediator or Row(w.none, [])
    validated = {0: _validated_by(validation, styles, ctx, words)}
    story.append(KeepTogether([_people_table(words.mediator, [mediator_row], styles, ctx, validated)]))
    story += [Spacer(1, 8), Paragraph(text(words.note), styles.small)]
    return build(story, ctx, title=f"{words.title} — {page.title}")


def filename(mediation_id: int, language: Language) -> str:
    return f"{SHEET_WORDS[language].file}-{mediation_id}.pdf"


def for_reader(db: Session, *, user: Principal, mediation_id: int, ctx: Context) -> bytes:
    """The sheet for a reader of the mediation: 404 mediationNotFound, 403 when they may not read it,
    409 mediationNotValidated (errors: the status) until it is validated. Counts as a read of the
    mediation in its history, as its page does."""
    page = mediations.read(db, user=user, mediation_id=mediation_id)
    if not page.can.attendance_sheet:
        raise ApiError(409, NOT_VALIDATED, [FieldError(field="status", code=page.status)])
    mediation = db.get(Mediation, mediation_id)
    if mediation is None:
        raise not_found("mediationNotFound")
    return sheet(page, mediations.validation(db, mediation), ctx=ctx)


def of_participant(
    db: Session, *, user: Principal, user_id: int, ctx: Context
) -> Iterator[tuple[Mediation, bytes]]:
    """The sheets of the mediations a person took part in (the audit pack), whoever asks: the pack is
    that person's whole record. Those that have a sheet, by start then id."""
    found = db.scalars(
        select(Mediation)
        .join(MediationParticipant, MediationParticipant.mediation_id == Mediation.id)
        .where(
            MediationParticipant.user_id == user_id,
            Mediation.status.in_(sorted(policy.ATTENDANCE_SHEET_STATUSES)),
        )
        .order_by(Mediation.execution_start, Mediation.id)
    ).all()
    for mediation in found:
        page = mediations.view(db, user=user, mediation=mediation)
        yield mediation, sheet(page, mediations.validation(db, mediation), ctx=ctx)
