"""The contributions export (spec 1 §9, spec 2 §5 and §9): an xlsx file of two sheets, the writes
(contributions) then the views, each with a header row (user, each period: its first day for a week,
its month for a month; total), a row per user with their count per period and their total, and an
average row (the mean over the users listed, one decimal). Its sheet names and headers are in the
language of the request, and so is the mark of a person who left (users.models.printed_name).

Written by XlsxWriter in constant-memory mode (a row goes to disk once the next begins) as the per-user
counts stream from the database, into a spooled file (core.xlsx): the server's memory stays flat
whatever the number of users."""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import IO

from sqlalchemy.orm import Session

from spot.core import xlsx
from spot.core.i18n import LANGUAGES, Language, fill, language
from spot.core.principal import Principal
from spot.history import service
from spot.history.schemas import ContributionsQuery, Granularity
from spot.users.models import printed_name

MEDIA_TYPE = xlsx.MEDIA_TYPE
FILENAME = "contributions.xlsx"


@dataclass(frozen=True)
class Words:
    writes: str
    views: str
    user: str
    total: str
    average: str
    deleted_account: str
    # Dates as the client shows them (spec 2 §9): French DD/MM/YYYY, English YYYY-MM-DD.
    date_format: str
    # A month: French "novembre 2026" (French month names whatever the spreadsheet's language),
    # English "2026-11".
    month_format: str


WORDS: dict[Language, Words] = {lang: fill(Words, lang, "contributions_sheet") for lang in LANGUAGES}


def write(
    out: IO[bytes],
    *,
    starts: list[date],
    rows: Iterable[service.UserContributions],
    lang: Language,
    granularity: Granularity,
) -> None:
    words = WORDS[lang]
    workbook = xlsx.workbook(out)
    bold = workbook.add_format({"bold": True})
    pattern = words.month_format if granularity is Granularity.month else words.date_format
    day = workbook.add_format({"bold": True, "num_format": pattern})
    mean = workbook.add_format({"bold": True, "num_format": "0.0"})
    writes, views = workbook.add_worksheet(words.writes), workbook.add_worksheet(words.views)
    last = len(starts) + 1
    for sheet in (writes, views):
        sheet.set_column(0, 0, 32)
        sheet.set_column(1, last, 11)
        sheet.freeze_panes(1, 1)
        sheet.write_string(0, 0, words.user, bold)
        for column, start in enumerate(starts, 1):
            sheet.write_datetime(0, column, datetime.combine(start, time()), day)
        sheet.write_string(0, last, words.total, bold)
    sums = {writes: [0] * last, views: [0] * last}
    users = 0
    for users, entry in enumerate(rows, 1):
        name = (
            printed_name(entry.name, entry.active, lang)
            if entry.user_id is not None and entry.name is not None
            else words.deleted_account
        )
        for sheet, counts in ((writes, entry.contributions), (views, entry.views)):
            sheet.write_string(users, 0, name)
            for column, count in enumerate(counts, 1):
                sheet.write_number(users, column, count)
                sums[sheet][column - 1] += count
            sheet.write_number(users, last, sum(counts))
            sums[sheet][last - 1] += sum(counts)
    for sheet in (writes, views):
        sheet.write_string(users + 1, 0, words.average, bold)
        for column, total in enumerate(sums[sheet], 1):
            sheet.write_number(users + 1, column, round(total / users, 1) if users else 0, mean)
    workbook.close()


def export(
    db: Session, *, user: Principal, query: ContributionsQuery, accept_language: str | None
) -> Iterator[bytes]:
    """The file's bytes, in chunks; 422 valueMustBeBetween on count beyond 78 weeks or 18 months, and
    the errors of POST /history/contributions (404 unknown item or group, 403 hidden item)."""
    service.check_export(query)
    starts, rows = service.contributions_by_user(db, user=user, query=query)
    lang = language(accept_language)
    return xlsx.spooled(
        lambda out: write(out, starts=starts, rows=rows, lang=lang, granularity=query.granularity)
    )
