"""Receiving an upload: the body goes to a temporary file under the data folder as it streams in, so
the server's memory does not grow with it, and is refused (413 fileTooBig) as soon as it passes the
limit, with nothing of it kept. The metadata comes in URI-encoded headers, checked before the body
is read."""

import secrets
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated
from urllib.parse import unquote

from fastapi import Header, Request
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from spot.core import files
from spot.core.errors import ApiError, FieldError
from spot.db import request_session
from spot.resources import service
from spot.resources.models import ResourceType
from spot.resources.schemas import ResourceCreate

# Writes go to the disk in pieces of this size at most: the memory an upload holds.
_WRITE_BYTES = 1 << 20


def uploads_folder() -> Path:
    """Where bodies are received: this process's scratch folder (core.files), so that storing one is a
    rename and what a process killed mid-upload leaves is removed at the next start."""
    return files.scratch_folder()


def _metadata(resource_type: ResourceType, name: str, link: str, comment: str) -> ResourceCreate:
    try:
        data = ResourceCreate.model_validate(
            {
                "resourceType": resource_type,
                "name": unquote(name, errors="replace"),
                "link": unquote(link, errors="replace"),
                "comment": unquote(comment, errors="replace"),
            }
        )
    except ValidationError as exc:
        errors = [FieldError(field=str(e["loc"][0]), code=e["type"]) for e in exc.errors()]
        raise ApiError(422, "atLeastOneErrorLeft", errors) from exc
    service.stored_link(data.resource_type, data.link)
    return data


@dataclass(frozen=True)
class Upload:
    data: ResourceCreate
    # The received body; None when it was empty.
    path: Path | None


def _header(description: str) -> str:
    return description + " (URI-encoded: encodeURIComponent)"


async def received(
    request: Request,
    resource_type: Annotated[ResourceType, Header(alias="resourceType")],
    name: Annotated[
        str, Header(alias="name", max_length=4000, description=_header("The resource's name"))
    ] = "",
    link: Annotated[
        str,
        Header(
            alias="link",
            max_length=8000,
            description=_header("The file's name, the link's address or the YouTube video's address"),
        ),
    ] = "",
    comment: Annotated[str, Header(alias="comment", max_length=8000, description=_header("A comment"))] = "",
) -> AsyncIterator[Upload]:
    """The new resource's metadata, checked first, and its body in a temporary file, removed once the
    request is over whatever happened (the route moves it into the store when it is kept)."""
    data = _metadata(resource_type, name, link, comment)
    async with body_file(request, service.MAX_FILE_BYTES) as path:
        yield Upload(data, path)


@asynccontextmanager
async def body_file(request: Request, limit: int) -> AsyncIterator[Path | None]:
    """The request's body in a temporary file under the data folder (None when it is empty), refused
    (413 fileTooBig) as soon as its declared or received size passes `limit`, with nothing of it kept;
    the file is removed when the block ends (a route moves it into the store when it is kept)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise ApiError(413, "fileTooBig", [FieldError(field="file", code="fileTooBig")])
    # Nothing more is read from the database until the route runs: the signed-in user's lookup ends
    # its transaction now rather than hold it open while the body comes in.
    request_session(request).commit()
    path = uploads_folder() / f"{secrets.token_hex(16)}.part"
    try:
        size = 0
        with path.open("wb") as out:
            pending = bytearray()
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise ApiError(413, "fileTooBig", [FieldError(field="file", code="fileTooBig")])
                pending += chunk
                if len(pending) >= _WRITE_BYTES:
                    # Off the loop: a disk busy elsewhere would hold every other request.
                    await run_in_threadpool(out.write, bytes(pending))
                    pending.clear()
            await run_in_threadpool(out.write, bytes(pending))
        yield path if size > 0 else None
    finally:
        path.unlink(missing_ok=True)
