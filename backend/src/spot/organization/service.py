import hashlib
from dataclasses import dataclass
from pathlib import Path

import filetype

from spot.config import get_settings

ASSETS = Path(__file__).parent / "assets"


@dataclass(frozen=True)
class Image:
    content: bytes
    media_type: str
    etag: str


def image(kind: str) -> Image:
    """The organisation's own logo from the data folder when one was put there, else Spot's."""
    for candidate in sorted((get_settings().data_dir / "organization").glob(f"{kind}.*")):
        content = candidate.read_bytes()
        sniffed = filetype.guess_mime(content)
        if sniffed in ("image/png", "image/jpeg"):
            return Image(content, sniffed, _etag(content))
    content = (ASSETS / f"{kind}.svg").read_bytes()
    return Image(content, "image/svg+xml", _etag(content))


def _etag(content: bytes) -> str:
    return '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
