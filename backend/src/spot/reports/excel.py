"""The path report as an xlsx file (spec 2 §9 report outputs): one sheet, a header row, then a row per
module shown of each path selected, in the report's order (reports.selection), with the learner and
path columns then the columns the path and module options ask for. Headers and the words of statuses
are in the language of the request; dates as the client shows them (French DD/MM/YYYY, English
YYYY-MM-DD), times in the organisation's time zone.

Written by XlsxWriter in constant-memory mode as the learners are read by batches, into a spooled
temporary file streamed once complete (core.xlsx): the server's memory stays flat whatever the number
of paths."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import IO, Any
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core import xlsx
from spot.core.errors import ApiError
from spot.core.i18n import LANGUAGES, Language, fill, language
from spot.core.principal import Principal
from spot.reports import selection, service
from spot.reports.pdf import WORDS as STATUS_WORDS
from spot.reports.schemas import ReportRequest
from spot.reports.selection import LearnerLines, ModuleLine, PathLine, SignatureLine

MEDIA_TYPE = xlsx.MEDIA_TYPE
FILENAME = "training-paths.xlsx"
NOTHING_TO_EXPORT = "nothingToExport"


@dataclass(frozen=True)
class Words:
    sheet: str
    learner: str
    external_id: str
    path: str
    path_reference: str
    path_start: str
    path_stop: str
    path_status: str
    creator: str
    created_on: str
    validator: str
    validated_on: str
    validation_comment: str
    path_signed_on: str
    path_signature_comment: str
    path_satisfaction: str
    completion: str
    not_quantifiable: str
    average_grade: str
    duration: str
    module: str
    module_reference: str
    goals: str
    referents: str
    module_start: str
    module_stop: str
    module_status: str
    grade: str
    passed: str
    yes: str
    no: str
    graded_on: str
    graded_by: str
    valid_until: str
    grading_comment: str
    learner_comment: str
    signatures: str
    module_signed_on: str
    module_satisfaction: str
    mediations: str
    mediators: str
    done_items: str
    total_items: str
    modified_after_signature: str
    revoked: str
    date_format: str
    time_format: str
    # A date and time written in a text (the signatures' column).
    text_time: str


WORDS: dict[Language, Words] = {lang: fill(Words, lang, "paths_sheet") for lang in LANGUAGES}

# What a cell shows of one row (learner, path, module): text, a number, a date or a time, or nothing.
Cell = str | int | float | date | datetime | None
Value = Callable[[LearnerLines, PathLine, ModuleLine], Cell]


@dataclass(frozen=True)
class Column:
    header: str
    value: Value
    width: int = 16


def duration(minutes: int) -> str | None:
    """Hours 'H' and minutes 'Mn' (spec 2 §9); nothing when not defined (0)."""
    if minutes <= 0:
        return None
    hours, rest = divmod(minutes, 60)
    return " ".join(part for part in (f"{hours} H" if hours else "", f"{rest} Mn" if rest else "") if part)


def columns(request: ReportRequest, lang: Language) -> list[Column]:
    """The sheet's columns, as the options ask for them (mediators only with mediations)."""
    w, s = WORDS[lang], STATUS_WORDS[lang]
    p, m = request.path_options, request.module_options
    zone = ZoneInfo(get_settings().timezone)

    def local(value: datetime | None) -> datetime | None:
        return None if value is None else value.astimezone(zone).replace(tzinfo=None)

    def stamp(value: datetime) -> str:
        return value.astimezone(zone).strftime(w.text_time)

    def signature(line: SignatureLine) -> str:
        text = f"{line.signer_name}, {stamp(line.signed_at)}, {s.meanings.get(line.meaning, line.meaning)}"
        if line.modified_after_signature:
            text += f", {w.modified_after_signature}"
        if line.revoked_at is not None:
            reason = s.reasons.get(line.revoke_reason or "", line.revoke_reason or "")
            text += f", {w.revoked} {stamp(line.revoked_at)} ({reason})"
        return text

    def passed(value: bool | None) -> str | None:
        return None if value is None else w.yes if value else w.no

    out = [Column(w.learner, lambda le, _p, _m: le.name, 28)]
    if request.document_options.display_external_ids:
        out.append(Column(w.external_id, lambda le, _p, _m: le.external_id))
    out.append(Column(w.path, lambda _l, pa, _m: pa.title, 32))
    if p.reference:
        out.append(Column(w.path_reference, lambda _l, pa, _m: pa.reference))
    if p.dates:
        out += [
            Column(w.path_start, lambda _l, pa, _m: pa.start_date, 12),
            Column(w.path_stop, lambda _l, pa, _m: pa.stop_date, 12),
        ]
    if p.status:
        out.append(Column(w.path_status, lambda _l, pa, _m: s.path_statuses.get(pa.status, pa.status)))
    if p.creator:
        out += [
            Column(w.creator, lambda _l, pa, _m: pa.creator_name, 24),
            Column(w.created_on, lambda _l, pa, _m: local(pa.created_at)),
        ]
    if p.validation:
        out += [
            Column(w.validator, lambda _l, pa, _m: pa.validator_name, 24),
            Column(w.validated_on, lambda _l, pa, _m: local(pa.validated_at)),
            Column(w.validation_comment, lambda _l, pa, _m: pa.validation_comment, 32),
        ]
    if p.signature:
        out += [
            Column(w.path_signed_on, lambda _l, pa, _m: local(pa.signed_at)),
            Column(w.path_signature_comment, lambda _l, pa, _m: pa.signature_comment, 32),
            Column(w.path_satisfaction, lambda _l, pa, _m: pa.signature_satisfaction, 12),
        ]
    if p.completion:
        out.append(
            Column(
                w.completion, lambda _l, pa, _m: pa.completion if pa.completion >= 0 else w.not_quantifiable
            )
        )
    if p.average_grade:
        out.append(Column(w.average_grade, lambda _l, pa, _m: pa.average_grade, 12))
    if p.duration:
        out.append(Column(w.duration, lambda _l, pa, _m: duration(pa.estimated_duration), 12))
    out.append(Column(w.module, lambda _l, _p, mo: mo.name, 32))
    if m.reference:
        out.append(Column(w.module_reference, lambda _l, _p, mo: mo.reference))
    if m.goals:
        out.append(Column(w.goals, lambda _l, _p, mo: mo.goals, 40))
    if m.referents:
        out.append(Column(w.referents, lambda _l, _p, mo: ", ".join(mo.referents) or None, 28))
    if m.dates:
        out += [
            Column(w.module_start, lambda _l, _p, mo: mo.start_date, 12),
            Column(w.module_stop, lambda _l, _p, mo: mo.stop_date, 12),
        ]
    if m.status:
        out.append(Column(w.module_status, lambda _l, _p, mo: s.module_statuses.get(mo.status, mo.status)))
    if m.grades:
        out += [
            Column(w.grade, lambda _l, _p, mo: mo.grade, 10),
            Column(w.passed, lambda _l, _p, mo: passed(mo.is_success), 10),
            Column(w.graded_on, lambda _l, _p, mo: local(mo.graded_at)),
            Column(w.graded_by, lambda _l, _p, mo: mo.grader_name, 24),
            Column(w.valid_until, lambda _l, _p, mo: mo.valid_until, 12),
        ]
    if m.comments:
        out += [
            Column(w.grading_comment, lambda _l, _p, mo: mo.comment, 40),
            Column(w.learner_comment, lambda _l, _p, mo: mo.learner_comment, 40),
        ]
    if m.signatures:
        out += [
            Column(w.signatures, lambda _l, _p, mo: "\n".join(map(signature, mo.signatures)) or None, 60),
            Column(w.module_signed_on, lambda _l, _p, mo: local(mo.learner_signed_at)),
            Column(w.module_satisfaction, lambda _l, _p, mo: mo.learner_satisfaction, 12),
        ]
    if m.mediations:
        out.append(
            Column(w.mediations, lambda _l, _p, mo: "\n".join(x.title for x in mo.mediations) or None, 40)
        )
        if m.mediators:
            out.append(
                Column(
                    w.mediators,
                    lambda _l, _p, mo: "\n".join(x.mediator_name or "" for x in mo.mediations) or None,
                    28,
                )
            )
    if m.results:
        out += [
            Column(w.done_items, lambda _l, _p, mo: mo.done_items, 10),
            Column(w.total_items, lambda _l, _p, mo: mo.total_items, 10),
        ]
    return out


def write(out: IO[bytes], *, rows: Iterator[LearnerLines], request: ReportRequest, lang: Language) -> int:
    """Writes the sheet; answers how many module rows it has."""
    w = WORDS[lang]
    cols = columns(request, lang)
    workbook = xlsx.workbook(out)
    bold = workbook.add_format({"bold": True})
    day = workbook.add_format({"num_format": w.date_format})
    moment = workbook.add_format({"num_format": w.time_format})
    sheet = workbook.add_worksheet(w.sheet)
    sheet.freeze_panes(1, 0)
    for index, column in enumerate(cols):
        sheet.set_column(index, index, column.width)
        sheet.write_string(0, index, column.header, bold)
    count = 0
    for learner in rows:
        for path in learner.paths:
            for module in path.modules:
                count += 1
                for index, column in enumerate(cols):
                    value: Any = column.value(learner, path, module)
                    if value is None:
                        continue
                    if isinstance(value, str):
                        sheet.write_string(count, index, value)
                    elif isinstance(value, datetime):
                        sheet.write_datetime(count, index, value, moment)
                    elif isinstance(value, date):
                        sheet.write_datetime(count, index, datetime(value.year, value.month, value.day), day)
                    else:
                        sheet.write_number(count, index, value)
    workbook.close()
    return count


def export(
    db: Session, *, user: Principal, request: ReportRequest, accept_language: str | None
) -> Iterator[bytes]:
    """The file's bytes, in chunks, once it is complete; 422 nothingToExport when the report selects
    nothing, and the errors of a report's parameters (service.check)."""
    service.check(db, request)

    def produce(out: IO[bytes]) -> None:
        lang = language(accept_language)
        rows = selection.learners(db, user=user, request=request, language=lang)
        if write(out, rows=rows, request=request, lang=lang) == 0:
            raise ApiError(422, NOTHING_TO_EXPORT)

    return xlsx.spooled(produce)
