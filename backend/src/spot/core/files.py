"""Where uploaded and imported files live: a folder (the default) or an S3-compatible object store
(SPOT_FILE_STORE, core.object_store). Callers only ever see generated names, so a stored file can
never be addressed by a user-chosen path."""

import contextlib
import fcntl
import hashlib
import logging
import lzma
import os
import re
import secrets
import shutil
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, Protocol

from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session, SessionTransaction
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
    def adopt(self, path: Path, name: str) -> None:
        """Store the file at `path` under `name` (moved, not copied: a large upload never goes through
        memory). Called once the transaction that refers to it has committed (store, store_path)."""
        ...

    def get(self, name: str) -> bytes: ...

    def open(self, name: str) -> BinaryIO:
        """The stored file to read in chunks (a large file is streamed, never read whole)."""
        ...

    def delete(self, name: str) -> None: ...

    def names(self) -> Iterator[str]:
        """Every stored file's name (backups, spot migrate-files, an empty store's check)."""
        ...

    def check(self) -> None:
        """Raise OSError unless the store takes files now (the readiness check, operations.service):
        ConnectionError when it does not answer."""
        ...


def check_name(name: str) -> None:
    """ValueError unless `name` is one Spot generated (a store never addresses anything else)."""
    if not _NAME.match(name):
        raise ValueError(f"not a stored file name: {name!r}")


class FolderFileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, name: str) -> Path:
        check_name(name)
        # Two levels of fan-out keep folders small with many files.
        return self.root / name[:2] / name

    def adopt(self, path: Path, name: str) -> None:
        target = self._path(name)
        target.parent.mkdir(parents=True, exist_ok=True)
        # A rename: the scratch folder is under the data folder too.
        shutil.move(path, target)

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

    def names(self) -> Iterator[str]:
        if self.root.is_dir():
            for path in self.root.glob("*/*"):
                if _NAME.match(path.name) and path.parent.name == path.name[:2]:
                    yield path.name

    def check(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        if not os.access(self.root, os.W_OK | os.X_OK):
            raise PermissionError(f"{self.root} cannot be written to")


_STORES: dict[tuple[str, str, str], FileStore] = {}


def store_at(address: str) -> FileStore:
    """The store at `address`: s3://bucket/prefix (with SPOT_S3_ENDPOINT_URL and SPOT_S3_REGION), or a
    folder. One object a store and process: an object store's client keeps its connections."""
    settings = get_settings()
    key = (address, settings.s3_endpoint_url, settings.s3_region)
    found = _STORES.get(key)
    if found is None:
        if address.startswith("s3:"):
            from spot.core.object_store import S3FileStore  # boto3 is loaded only when used

            found = S3FileStore(
                address,
                endpoint_url=settings.s3_endpoint_url,
                region=settings.s3_region,
                check_name=check_name,
            )
        else:
            found = FolderFileStore(Path(address))
        _STORES[key] = found
    return found


def get_file_store() -> FileStore:
    return store_at(get_settings().file_store or str(get_settings().data_dir / "files"))


@dataclass(frozen=True)
class Copied:
    copied: int
    present: int

    @property
    def checked(self) -> int:
        return self.copied + self.present


def _digest(store: FileStore, name: str, into: Path | None = None) -> str:
    """The SHA-256 of a stored file, read in chunks (and written to `into` on the way)."""
    digest = hashlib.sha256()
    with store.open(name) as stream, into.open("wb") if into else contextlib.nullcontext() as out:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
            if out is not None:
                out.write(chunk)
    return digest.hexdigest()


def copy_store(source: FileStore, target: FileStore) -> Copied:
    """Every file of `source` into `target` (spot migrate-files), each read back from `target` and
    checked against its SHA-256 (ValueError when one differs). A file already in `target` with the
    same content is left as it is, so that a copy stopped half-way goes on where it was."""
    present_names = set(target.names())
    copied = present = 0
    for name in sorted(source.names()):
        scratch = scratch_folder() / f"copy-{name}"
        try:
            wanted = _digest(source, name, into=scratch)
            if name in present_names and _digest(target, name) == wanted:
                present += 1
                continue
            target.adopt(scratch, name)
        finally:
            scratch.unlink(missing_ok=True)
        if _digest(target, name) != wanted:
            raise ValueError(f"{name}: the copy differs from the original")
        copied += 1
    return Copied(copied, present)


# Files not yet committed: each process's scratch folder ---------------------------------------
#
# A file being received, or stored by a transaction that has not committed yet, waits in the scratch
# folder of the process writing it (under the data folder: moving it into the store is a rename).
# The process holds a lock on its folder's lock file while it lives; the lock goes with the process,
# however it ends (kill -9 included), so that Spot's next start knows the folder's owner is dead and
# cleans it (clean_scratch), while the folders of the other workers, alive, are left alone.

_SCRATCH_GUARD = threading.Lock()
# By process id: a worker forked from a process that had made its folder makes its own.
_SCRATCH: dict[int, tuple[Path, IO[bytes]]] = {}
_LOCK_SUFFIX = ".lock"


def _scratch_root() -> Path:
    return get_settings().data_dir / "uploads"


def _new_scratch(root: Path) -> tuple[Path, IO[bytes]]:
    root.mkdir(parents=True, exist_ok=True)
    while True:
        token = secrets.token_hex(8)
        lock_path = root / f"{token}{_LOCK_SUFFIX}"
        lock = lock_path.open("xb")
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Another process's clean may have taken the file for a dead one's between its creation and
        # the lock: it is ours only if it is still the file at that path.
        try:
            if os.fstat(lock.fileno()).st_ino == lock_path.stat().st_ino:
                break
        except FileNotFoundError:
            pass
        lock.close()
    folder = root / token
    folder.mkdir()
    return folder, lock


def scratch_folder() -> Path:
    """This process's folder for files not committed yet (made at first use, kept while it lives)."""
    root = _scratch_root()
    with _SCRATCH_GUARD:
        held = _SCRATCH.get(os.getpid())
        if held is None or held[0].parent != root:
            held = _new_scratch(root)
            _SCRATCH[os.getpid()] = held
        return held[0]


def _owner_is_dead(lock_path: Path) -> IO[bytes] | None:
    """The lock file opened and locked when its process is gone (None while it lives)."""
    try:
        lock = lock_path.open("rb")
    except FileNotFoundError:
        return None
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def clean_scratch(engine: Engine) -> None:
    """At start-up: the scratch folders of processes that died. A file a row refers to (left by a
    version of Spot that moved files into the store after the commit, whose process died between
    the two) goes into the store; anything else (a partial upload, a file being checked) is removed."""
    root = _scratch_root()
    if not root.is_dir():
        return
    store = get_file_store()
    for entry in root.iterdir():
        if entry.is_file() and not entry.name.endswith(_LOCK_SUFFIX):
            entry.unlink(missing_ok=True)  # left in the folder itself by an older version
            continue
        if not entry.name.endswith(_LOCK_SUFFIX):
            continue
        lock = _owner_is_dead(entry)
        if lock is None:
            continue
        with lock:
            folder = root / entry.name.removesuffix(_LOCK_SUFFIX)
            files = [f for f in folder.iterdir() if f.is_file()] if folder.is_dir() else []
            names = {f.name for f in files if _NAME.match(f.name)}
            referenced = names - _unreferenced(engine, set(names)) if names else set()
            for file in files:
                if file.name in referenced:
                    store.adopt(file, file.name)
                    log.info("stored file recovered name=%s", file.name)
                else:
                    file.unlink(missing_ok=True)
            shutil.rmtree(folder, ignore_errors=True)
            entry.unlink(missing_ok=True)
        log.info("scratch folder of a stopped process cleaned name=%s files=%s", folder.name, len(files))


# Stored files follow the transactions that refer to them --------------------------------------
#
# A file stored during a transaction goes into the store at once, before the transaction's first
# write in most cases, so that an object store's upload never holds SQLite's write lock; a store that
# fails (an object store that stops answering) fails the call that stores, with 503
# fileStoreUnavailable, and the request's transaction rolls back: no row ever refers to a file the store
# lacks. If the transaction does not commit (rolled back, or its session closed), its files are removed
# from the store again: under its random name, no one could reach such a file meanwhile. A file a
# transaction stopped referring to (a replaced image, a deleted subject's picture) is removed once it
# commits, unless another row still refers to it (a duplicated subject shares its original's picture).

# Every column holding stored file names; each area registers its own.
REFERENCES: list[Any] = []
# What may hold back the deletion of unreferenced files: each takes the engine and the names, and answers
# those to delete now (it keeps the others to delete later). A backup running holds them all: its
# database snapshot may still refer to a file retired since (operations.models registers it).
DELETION_HOLDS: list[Callable[[Engine, set[str]], set[str]]] = []
_ADOPTED = "spot_files_adopted"
_RETIRED = "spot_files_retired"


def _new_name(extension: str) -> str:
    if not re.fullmatch(r"[a-z0-9]{1,8}", extension):
        raise ValueError(f"bad extension {extension!r}")
    return f"{secrets.token_hex(16)}.{extension}"


def _adopt(db: Session, path: Path, name: str) -> None:
    # The transaction begins now if it has not: whether it commits decides the file's fate.
    db.connection()
    try:
        get_file_store().adopt(path, name)
    finally:
        path.unlink(missing_ok=True)  # gone into the store (moved), or refused
    db.info.setdefault(_ADOPTED, []).append(name)


def store(db: Session, data: bytes, *, extension: str) -> str:
    """Store `data` with this transaction: its generated name, which a row of the transaction keeps."""
    name = _new_name(extension)
    path = scratch_folder() / name
    path.write_bytes(data)
    _adopt(db, path, name)
    return name


def store_path(db: Session, path: Path, *, extension: str) -> str:
    """Store the file at `path` (moved, not copied) with this transaction, as store does."""
    name = _new_name(extension)
    moved = scratch_folder() / name
    shutil.move(path, moved)
    _adopt(db, moved, name)
    return name


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


def _delete(store: FileStore, names: Iterable[str], why: str) -> None:
    """Remove files no row refers to; one the store fails to remove stays there, unreferenced (the
    commit, or the rollback, has happened: nothing is undone for it)."""
    for name in names:
        try:
            store.delete(name)
            log.info("stored file removed name=%s (%s)", name, why)
        except Exception:
            log.warning("stored file not removed name=%s (%s)", name, why, exc_info=True)


@event.listens_for(Session, "after_commit")
def _after_commit(db: Session) -> None:
    db.info.pop(_ADOPTED, None)
    names = db.info.pop(_RETIRED, None)
    if not names:
        return
    engine = db.get_bind().engine
    unreferenced = _unreferenced(engine, set(names))
    for hold in DELETION_HOLDS:
        unreferenced = hold(engine, unreferenced)
    _delete(get_file_store(), unreferenced, "no longer referred to")


@event.listens_for(Session, "after_transaction_end")
def _after_transaction_end(db: Session, transaction: SessionTransaction) -> None:
    """A transaction that ended without committing (rolled back, or its session closed): the files it
    stored leave the store."""
    if transaction.parent is not None:
        return
    db.info.pop(_RETIRED, None)
    adopted = db.info.pop(_ADOPTED, ())
    if adopted:
        _delete(get_file_store(), adopted, "its transaction did not commit")


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


_RANGE = re.compile(r"bytes=(\d*)-(\d*)")
_CHUNK = 256 * 1024


def _range(request: Request, served: Served) -> tuple[int, int] | None | Literal[False]:
    """The part asked by a Range header (RFC 9110 §14), as (first, last) byte: None for the whole
    file (no Range, several ranges, an If-Range that is not the file's ETag, a size not known), False
    when the range lies outside the file (416)."""
    asked = request.headers.get("range")
    if not asked or served.size is None:
        return None
    if_range = request.headers.get("if-range")
    if if_range is not None and if_range.strip() != served.headers["ETag"]:
        return None
    match = _RANGE.fullmatch(asked.strip())
    if match is None or not any(match.groups()):
        return None  # another unit, several ranges: the whole file, as the RFC allows
    size = served.size
    first, last = match.groups()
    if not first:  # the last N bytes
        start, end = max(size - int(last), 0), size - 1
        return (start, end) if int(last) > 0 and size > 0 else False
    start = int(first)
    end = min(int(last), size - 1) if last else size - 1
    if start >= size or (last and int(last) < start):
        return False
    return start, end


def serve(request: Request, served: Served) -> Response:
    """The stored file streamed in chunks; 304 when If-None-Match names its ETag; 206 with the part a
    Range header asks (a video's seek), 416 for a range outside the file."""
    etag = served.headers["ETag"]
    if request.headers.get("if-none-match", "").strip() in (etag, f"W/{etag}"):
        return Response(status_code=304, headers=served.headers)
    headers = dict(served.headers)
    part = _range(request, served)
    if part is False:
        return Response(status_code=416, headers={**headers, "Content-Range": f"bytes */{served.size}"})
    stream = get_file_store().open(served.ref)
    start, end = part or (0, (served.size or 0) - 1)
    if part is not None:
        stream.seek(start)
        headers["Content-Range"] = f"bytes {start}-{end}/{served.size}"
    if served.size is not None:
        headers["Accept-Ranges"] = "bytes"
        headers["Content-Length"] = str(end - start + 1)

    def chunks() -> Iterator[bytes]:
        left = end - start + 1 if served.size is not None else None
        with stream:
            while left is None or left > 0:
                chunk = stream.read(_CHUNK if left is None else min(_CHUNK, left))
                if not chunk:
                    return
                if left is not None:
                    left -= len(chunk)
                yield chunk

    status = 206 if part is not None else 200
    return StreamingResponse(chunks(), status_code=status, media_type=served.media_type, headers=headers)
