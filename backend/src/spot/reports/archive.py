"""Zips of PDFs streamed as they are made, and the progress of the path report's zip.

A zip is written file by file: each PDF goes out as soon as it is rendered (its local header, its
bytes), and the central directory at the end; only the directory's entries (a hundred bytes a file)
stay in memory. The PDFs are already compressed: they are stored as they are (ZIP_STORED).

The path report (POST /reports/trainingPaths/pdf) reads its learners by batches (selection.learners),
renders one PDF each and writes, when the client gave a progress id, how many are done in the
`report_progress` row: each write is a short transaction of its own session, so that the client's
polling (GET /reports/progress/{id}), served by any process, sees it at once."""

import io
import re
import stat
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.errors import ApiError, not_found
from spot.core.i18n import Language
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import session_factory
from spot.reports import pdf, pdf_blocks, selection
from spot.reports.models import ReportProgress
from spot.reports.schemas import ReportRequest

MEDIA_TYPE = "application/zip"
REPORT_FILENAME = "training-paths.zip"
# A file name's length at most, its extension excluded.
_NAME_CHARS = 150
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
# The files of a zip: read and written by their owner, read by everyone else who can read the zip.
FILE_MODE = 0o644
# Progress rows older than this are removed when the same user starts another report.
_PROGRESS_KEPT = timedelta(days=1)


def local_now() -> datetime:
    """Now in the organisation's time zone (zip entries carry a wall-clock time, no zone)."""
    return datetime.now(ZoneInfo(get_settings().timezone))


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


class _Spool(io.RawIOBase):
    """Where the zip is written: it keeps only what the last file wrote, handed on by `drain`, while
    telling the writer the offsets of the whole zip. The writer seeks back only within the file it is
    writing (to complete that file's header), which the spool still holds."""

    def __init__(self) -> None:
        super().__init__()
        self.buffer = bytearray()
        self.drained = 0
        self.position = 0

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        target = {io.SEEK_SET: offset, io.SEEK_CUR: self.position + offset}.get(whence)
        if target is None:
            target = self.drained + len(self.buffer) + offset
        if target < self.drained:
            raise io.UnsupportedOperation("the zip's earlier bytes are already sent")
        self.position = target
        return target

    def write(self, data: Any) -> int:
        start = self.position - self.drained
        chunk = bytes(data)
        self.buffer[start : start + len(chunk)] = chunk
        self.position += len(chunk)
        return len(chunk)

    def drain(self) -> bytes:
        out = bytes(self.buffer)
        self.drained += len(out)
        self.buffer.clear()
        return out


def zipped(files: Iterable[tuple[str, bytes]]) -> Iterator[bytes]:
    """The zip of the (name, content) pairs, each file's bytes given as soon as the pair comes. Files
    are readable by everyone who can read the zip (0644) and dated now in the organisation's time."""
    spool = _Spool()
    with zipfile.ZipFile(spool, mode="w", compression=zipfile.ZIP_STORED) as archive:
        for name, content in files:
            info = zipfile.ZipInfo(name, date_time=local_now().timetuple()[:6])
            info.external_attr = (stat.S_IFREG | FILE_MODE) << 16
            info.compress_type = zipfile.ZIP_STORED
            archive.writestr(info, content)
            yield spool.drain()
    yield spool.drain()


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
    image = pdf_blocks.decode_image(request.document_options.signature_image)
    names = FileNames()
    external_ids = request.document_options.display_external_ids
    for done, learner in enumerate(selection.learners(db, user=user, request=request, language=language), 1):
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
