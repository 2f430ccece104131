"""Helpers shared by the test modules (plain functions; fixtures live in conftest.py)."""

import io
import zipfile
from functools import cache
from typing import Any

import httpx

API = "/backend/api/v2"
# The password of every user made by the make_user fixture.
PASSWORD = "correct-horse-battery"


def assert_error(response: httpx.Response, status: int, message: str | None = None) -> dict[str, Any]:
    """The response is the uniform error body with this status (and message, when given)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"status", "reason", "message", "errors"}, body
    assert body["status"] == status
    assert isinstance(body["reason"], str) and body["reason"]
    if message is not None:
        assert body["message"] == message, body
    return body


@cache
def openapi_document() -> dict[str, Any]:
    """The app's OpenAPI document, made once a test process for the modules that read it as they are
    collected (about a second each)."""
    from spot.main import create_app

    return create_app().openapi()


def field_codes(response: httpx.Response) -> set[tuple[str, str]]:
    return {(e["field"], e["code"]) for e in response.json()["errors"]}


def damaged_deflate_zip(files: dict[str, bytes], damaged: str) -> bytes:
    """A zip of `files`, compressed, whose entry `damaged` has a broken deflate stream but intact headers:
    zipfile raises zlib.error reading it (neither BadZipFile nor OSError)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    data = bytearray(out.getvalue())
    info = zipfile.ZipFile(io.BytesIO(bytes(data))).getinfo(damaged)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start, start + 8):
        data[offset] ^= 0xFF
    return bytes(data)
