"""Zips of PDFs streamed as they are made, and the progress of the path report's zip.

A zip is written file by file: each PDF goes out as soon as it is rendered (its local header, its
bytes), and the central directory at the end; only the directory's entries (a hundred bytes a file)
stay in memory. The PDFs are already compressed: they are stored as they are (ZIP_STORED).

The path report's zip is a job (reports.jobs, POST /reports/trainingPaths/pdf): it reads its learners
by batches (selection.learners), renders one PDF each and writes it to the job's scratch file, telling
the job's progress after each learner."""

import io
import re
import stat
import unicodedata
import zipfile
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.i18n import Language
from spot.core.principal import Principal
from spot.reports import pdf, pdf_blocks, selection
from spot.reports.schemas import ReportRequest

MEDIA_TYPE = "application/zip"
REPORT_FILENAME = "training-paths.zip"
# A file name's length at most, its extension excluded.
_NAME_CHARS = 150
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]+')
# The files of a zip: read and written by their owner, read by everyone else who can read the zip.
FILE_MODE = 0o644


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


# The path report's zip --------------------------------------------------------------------------------


def report_files(
    db: Session,
    *,
    user: Principal,
    request: ReportRequest,
    language: Language,
    progress: Callable[[int], None] | None = None,
) -> Iterator[tuple[str, bytes]]:
    """One PDF per learner of the report, named `<name>[ (<external id>)].pdf`, in the report's order;
    `progress` is told how many are done as they are made."""
    ctx = pdf.context(language)
    image = pdf_blocks.decode_image(request.document_options.signature_image)
    names = FileNames()
    external_ids = request.document_options.display_external_ids
    for done, learner in enumerate(selection.learners(db, user=user, request=request, language=language), 1):
        content = pdf.learner_report(learner, request=request, ctx=ctx, signature_image=image)
        name = learner.name + (f" ({learner.external_id})" if external_ids and learner.external_id else "")
        yield names.take(name), content
        if progress is not None:
            progress(done)


def write_report_zip(
    db: Session,
    *,
    user: Principal,
    request: ReportRequest,
    language: Language,
    path: Path,
    progress: Callable[[int], None] | None = None,
) -> None:
    """The path report's zip written to `path` (the job's scratch file), a PDF at a time."""
    with path.open("wb") as out:
        for chunk in zipped(
            report_files(db, user=user, request=request, language=language, progress=progress)
        ):
            out.write(chunk)
