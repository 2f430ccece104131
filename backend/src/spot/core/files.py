"""Where uploaded and imported files live. Callers only ever see generated names, so a
stored file can never be addressed by a user-chosen path; an object store can replace the
folder by implementing the same interface."""

import re
import secrets
from pathlib import Path
from typing import Protocol

from spot.config import get_settings
from spot.core.errors import not_found

_NAME = re.compile(r"^[0-9a-f]{32}\.[a-z0-9]{1,8}$")


class FileStore(Protocol):
    def put(self, data: bytes, *, extension: str) -> str: ...

    def get(self, name: str) -> bytes: ...

    def delete(self, name: str) -> None: ...


class FolderFileStore:
    def __init__(self, root: Path) -> None:
        self.root = root

    def _path(self, name: str) -> Path:
        if not _NAME.match(name):
            raise ValueError(f"not a stored file name: {name!r}")
        # Two levels of fan-out keep folders small with many files.
        return self.root / name[:2] / name

    def put(self, data: bytes, *, extension: str) -> str:
        if not re.fullmatch(r"[a-z0-9]{1,8}", extension):
            raise ValueError(f"bad extension {extension!r}")
        name = f"{secrets.token_hex(16)}.{extension}"
        path = self._path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".part")
        temporary.write_bytes(data)
        temporary.replace(path)
        return name

    def get(self, name: str) -> bytes:
        try:
            return self._path(name).read_bytes()
        except (FileNotFoundError, ValueError) as exc:
            raise not_found("fileNotFound") from exc

    def delete(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)


def get_file_store() -> FileStore:
    return FolderFileStore(get_settings().data_dir / "files")
