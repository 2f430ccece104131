"""Helpers of the resource tests: files to upload and the calls of the gallery."""

import io
from pathlib import Path
from urllib.parse import quote

import anyio
import httpx
from PIL import Image

from spot.config import get_settings
from support import API

EDIT = "perm_EditResourcesVideos"

# A minimal PDF: filetype judges a file by its first bytes.
PDF = (
    b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
    b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
    b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n"
    b"trailer<</Root 1 0 R>>\n%%EOF\n"
)


def image(width: int = 800, height: int = 300, fmt: str = "PNG", mode: str = "RGB") -> bytes:
    out = io.BytesIO()
    Image.new(mode, (width, height), "#3388cc" if mode == "RGB" else (30, 90, 200, 128)).save(out, format=fmt)
    return out.getvalue()


def gallery_url(parent_type: str, parent_id: int) -> str:
    return f"{API}/resource/{parent_type}/{parent_id}"


def add(
    client: httpx.Client,
    headers: dict[str, str],
    parent: tuple[str, int],
    resource_type: str,
    name: str,
    link: str,
    body: bytes = b"",
    comment: str = "",
) -> httpx.Response:
    """Create a resource as the client does: the metadata URI-encoded in headers, the file as the body."""
    meta = {
        "resourceType": resource_type,
        "name": quote(name),
        "link": quote(link),
        "comment": quote(comment),
    }
    return client.post(
        gallery_url(*parent),
        content=body,
        headers={**headers, **meta, "Content-Type": "application/octet-stream"},
    )


def stored_files() -> set[Path]:
    """Every file in the store and in the folder where uploads are received."""
    data = get_settings().data_dir
    return {p for folder in ("files", "uploads") for p in (data / folder).rglob("*") if p.is_file()}


def post_in_chunks(app, path: str, headers: dict[str, str], chunks: list[bytes]) -> tuple[int, bytes, int]:
    """POST to the app at the ASGI level, the body in these pieces as a server would pass them on:
    (status, body, how many pieces the app read)."""
    read = 0
    answer: dict[str, object] = {"body": b""}

    async def receive() -> dict[str, object]:
        nonlocal read
        if read < len(chunks):
            read += 1
            return {"type": "http.request", "body": chunks[read - 1], "more_body": read < len(chunks)}
        await anyio.sleep_forever()
        raise AssertionError

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] = answer["body"] + message.get("body", b"")  # type: ignore[operator]

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
    }

    async def run() -> None:
        with anyio.fail_after(60):
            await app(scope, receive, send)

    anyio.run(run)
    return int(answer["status"]), bytes(answer["body"]), read  # type: ignore[call-overload]
