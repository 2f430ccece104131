"""Where uploaded and imported files live. Callers only ever see generated names, so a
stored file can never be addressed by a user-chosen path; an object store can replace the
folder by implementing the same interface."""

import logging
import lzma
import re
import secrets
import shutil
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse

from spot.config import get_settings
from spot.core.errors import ApiError, not_found

log = logging.getLogger("spot.files")

# What zipfile raises reading a damaged or hostile archive (map bundles, course packages): a bad header or
# checksum (BadZipFile), an encrypted entry (RuntimeError), an unknown compression method
# (NotImplementedError), a truncated stream (EOFError, or OSError from bz2), a broken deflate or lzma stream
# (zlib.error, lzma.LZMAError: neither of the others), an impossible offset or size (ValueError).
ZIP_READ_ERRORS = (
    zipfile.BadZipFile,
    RuntimeError,
    NotImplementedError,
    OSError,
    EOFError,
    ValueError,
    zlib.error,
    lzma.LZMAError,
)

_NAME = re.compile(r"^[0-9a-f]{32}\.[a-z0-9]{1,8}$")


class FileStore(Protocol):
    def put(self, data: bytes, *, extension: str) -> str: ...

    def put_path(self, path: Path, *, extension: str) -> str:
        """Store the file at `path` (moved, not copied: a large upload never goes through memory)."""
        ...

    def get(self, name: str) -> bytes: ...

    def open(self, name: str) -> BinaryIO:
        """The stored file to read in chunks (a large file is streamed, never read whole)."""
        ...

    def delete(self, name: str) -> None: ...


class FolderFileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, name: str) -> Path:
        if not _NAME.match(name):
            raise ValueError(f"not a stored file name: {name!r}")
        # Two levels of fan-out keep folders small with many files.
        return self.root / name[:2] / name

    def _new_path(self, extension: str) -> tuple[str, Path]:
        if not re.fullmatch(r"[a-z0-9]{1,8}", extension):
            raise ValueError(f"bad extension {extension!r}")
        name = f"{secrets.token_hex(16)}.{extension}"
        path = self._path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        return name, path

    def put(self, data: bytes, *, extension: str) -> str:
        name, path = self._new_path(extension)
        temporary = path.with_suffix(".part")
        temporary.write_bytes(data)
        temporary.replace(path)
        return name

    def put_path(self, path: Path, *, extension: str) -> str:
        name, target = self._new_path(extension)
        # A rename when both are on one file system (uploads are received under the data folder).
        shutil.move(path, target)
        return name

    def get(self, name: str) -> bytes:
        try:
            return self._path(name).read_bytes()
        except (FileNotFoundError, ValueError) as exc:
            raise not_found("fileNotFound") from exc

    def open(self, name: str) -> BinaryIO:
        try:
            return self._path(name).open("rb")
        except (FileNotFoundError, ValueError) as exc:
            raise not_found("fileNotFound") from exc

    def delete(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)


def get_file_store() -> FileStore:
    return FolderFileStore(get_settings().data_dir / "files")


# Stored files follow the transactions that refer to them --------------------------------------
#
# A file stored during a transaction that rolls back is removed; a file a transaction stopped
# referring to (a replaced image, a deleted subject's picture) is removed once it commits, unless
# another row still refers to it (a duplicated subject shares its original's picture).

# Every column holding stored file names; each area registers its own.
REFERENCES: list[Any] = []
_STORED = "spot_files_stored"
_RETIRED = "spot_files_retired"


def stored(db: Session, name: str) -> None:
    """`name` was stored for this transaction: it goes if the transaction rolls back."""
    db.info.setdefault(_STORED, []).append(name)


def retired(db: Session, name: str | None) -> None:
    """A row of this transaction stops referring to `name`: it goes once the transaction commits,
    if no row refers to it any more."""
    if name:
        db.info.setdefault(_RETIRED, set()).add(name)


def _unreferenced(engine: Engine, names: set[str]) -> set[str]:
    with engine.connect() as connection:
        for column in REFERENCES:
            names -= set(connection.scalars(select(column).where(column.in_(names))))
    return names


@event.listens_for(Session, "after_commit")
def _after_commit(db: Session) -> None:
    db.info.pop(_STORED, None)
    names = db.info.pop(_RETIRED, None)
    if not names:
        return
    store = get_file_store()
    for name in _unreferenced(db.get_bind().engine, set(names)):
        store.delete(name)
        log.info("stored file removed name=%s", name)


@event.listens_for(Session, "after_rollback")
def _after_rollback(db: Session) -> None:
    db.info.pop(_RETIRED, None)
    store = get_file_store()
    for name in db.info.pop(_STORED, ()):
        store.delete(name)


async def bounded_body(request: Request, limit: int) -> bytes:
    """A request body held in memory (an archive, an xAPI document), refused (413 fileTooBig) as soon as
    its declared or read size passes `limit`; large files go through resources.upload, streamed to disk."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "fileTooBig")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "fileTooBig")
        chunks.append(chunk)
    return b"".join(chunks)


@dataclass(frozen=True)
class Served:
    """A stored file as a route answers it: its stored name, type, headers (its ETag among them) and
    size when known (resources, thumbnails, a subject's diagram)."""

    ref: str
    media_type: str
    headers: dict[str, str]
    size: int | None = None


def serve(request: Request, served: Served) -> Response:
    """The stored file streamed in chunks, or 304 when If-None-Match names its ETag."""
    etag = served.headers["ETag"]
    if request.headers.get("if-none-match", "").strip() in (etag, f"W/{etag}"):
        return Response(status_code=304, headers=served.headers)
    stream = get_file_store().open(served.ref)

    def chunks() -> Iterator[bytes]:
        with stream:
            while chunk := stream.read(256 * 1024):
                yield chunk

    headers = dict(served.headers)
    if served.size is not None:
        headers["Content-Length"] = str(served.size)
    return StreamingResponse(chunks(), media_type=served.media_type, headers=headers)
