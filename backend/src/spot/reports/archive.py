"""Zips of PDFs streamed as they are made (zipstream-ng), and the progress of the path report's zip.

A zip is written file by file: each PDF goes out as soon as it is rendered (its local header, its
bytes), and the central directory at the end; only the directory's entries (a hundred bytes a file)
stay in memory. The PDFs are already compressed: they are stored as they are (ZIP_STORED).

The path report (POST /reports/trainingPaths/pdf) reads its learners by batches (selection.learners),
renders one PDF each and writes, when the client gave a progress id, how many are done in the
`report_progress` row: each write is a short transaction of its own session, so that the client's
polling (GET /reports/progress/{id}), served by any process, sees it at once."""

import re
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session
from zipstream import ZIP_STORED, ZipStream

from spot.core.errors import ApiError, not_found
from spot.core.i18n import Language
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import session_factory
from spot.reports import pdf, selection
from spot.reports.models import ReportProgress
from spot.reports.schemas import ReportRequest

MEDIA_TYPE = "application/zip"
REPORT_FILENAME = "training-paths.zip"
# A file name's length at most, its extension excluded.
_NAME_CHARS = 150
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
# Progress rows older than this are removed when the same user starts another report.
_PROGRESS_KEPT = timedelta(days=1)


def safe_name(name: str, fallback: str = "document") -> str:
    """A file name from a person's or a path's name: no separator, control or reserved character, no
    leading dot, at most 150 characters."""
    cleaned = _UNSAFE.sub("_", unicodedata.normalize("NFC", name)).strip().lstrip(".").strip()
    return cleaned[:_NAME_CHARS].rstrip() or fallback


class FileNames:
    """Unique names inside one zip: a second "Jean Dupont.pdf" is "Jean Dupont (2).pdf" (whatever the
    case: some file systems ignore it)."""

    def __init__(self) -> None:
        self.taken: set[str] = set()

    def take(self, name: str, extension: str = ".pdf") -> str:
        base = safe_name(name)
        candidate, n = base + extension, 1
        while candidate.casefold() in self.taken:
            n += 1
            candidate = f"{base} ({n}){extension}"
        self.taken.add(candidate.casefold())
        return candidate


def zipped(files: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    """The zip of the (name, content) pairs, each file's bytes given as soon as the pair comes."""
    stream = ZipStream(compress_type=ZIP_STORED)
    for name, content in files:
        stream.add(content, name)
        yield from stream.all_files()
    yield from stream.footer()


# Progress ---------------------------------------------------------------------------------------------


def _write(statement: object) -> None:
    """One statement in a short transaction of its own session (not the stream's)."""
    with session_factory()() as db:
        db.execute(statement)  # type: ignore[call-overload]
        db.commit()


def start_progress(*, user: Principal, progress_id: str, total: int) -> None:
    """The caller's progress row for a report of `total` learners, none done; 409 when
    another user's row has that id (reportProgressIdInUse). Their rows older than a day go."""
    now = utcnow()
    with session_factory()() as db:
        db.execute(
            delete(ReportProgress).where(
                ReportProgress.user_id == user.id, ReportProgress.updated_at < now - _PROGRESS_KEPT
            )
        )
        row = db.get(ReportProgress, progress_id)
        if row is None:
            db.add(ReportProgress(id=progress_id, user_id=user.id, total=total, done=0, updated_at=now))
        elif row.user_id != user.id:
            raise ApiError(409, "reportProgressIdInUse")
        else:
            row.total, row.done, row.updated_at = total, 0, now
        db.commit()


def advance_progress(*, progress_id: str, done: int) -> None:
    _write(
        update(ReportProgress).where(ReportProgress.id == progress_id).values(done=done, updated_at=utcnow())
    )


def progress(db: Session, *, user: Principal, progress_id: str) -> tuple[int, int]:
    """(done, total) of the caller's report; 404 reportProgressNotFound (unknown, or another user's)."""
    row = db.execute(
        select(ReportProgress.done, ReportProgress.total).where(
            ReportProgress.id == progress_id, ReportProgress.user_id == user.id
        )
    ).first()
    if row is None:
        raise not_found("reportProgressNotFound")
    return row[0], row[1]


# The path report's zip --------------------------------------------------------------------------------


def report_files(
    db: Session,
    *,
    user: Principal,
    request: ReportRequest,
    language: Language,
    progress_id: str | None,
) -> Iterator[tuple[str, bytes]]:
    """One PDF per learner of the report, named `<name>[ (<external id>)].pdf`, in the report's order;
    the progress row counts them as they are made."""
    ctx = pdf.context(language)
    image = pdf.decode_image(request.document_options.signature_image)
    names = FileNames()
    external_ids = request.document_options.display_external_ids
    for done, learner in enumerate(selection.learners(db, user=user, request=request), 1):
        content = pdf.learner_report(learner, request=request, ctx=ctx, signature_image=image)
        name = learner.name + (f" ({learner.external_id})" if external_ids and learner.external_id else "")
        yield names.take(name), content
        if progress_id is not None:
            advance_progress(progress_id=progress_id, done=done)


def report_zip(
    db: Session, *, user: Principal, request: ReportRequest, language: Language, progress_id: str | None
) -> Iterator[bytes]:
    """The body of the path report's answer (for core.routing.streamed, which gives it its session)."""
    yield from zipped(
        report_files(db, user=user, request=request, language=language, progress_id=progress_id)
    )
