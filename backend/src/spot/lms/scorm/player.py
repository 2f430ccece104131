"""Where a launched SCO meets its SCORM runtime (docs/learning-platform.md, "SCORM", "Security choices").

The runtime is scorm-again's API (frontend/src/lms-runtime, built to /spotv2/lms-runtime/scorm12.js and
scorm2004.js), created as `window.API` or `window.API_1484_11` in a document the SCO finds by the ADL
discovery (its own window, then its parents). Content written for LMS frames declares `var API = null` in
its own document (the golf examples do), so the API lives in a frame ABOVE the SCO:

- with a content origin (core.security_headers.content_origin), the launch address is the frame page,
  the root of the launch (`/lms/play/{key}/`), which holds the runtime and frames the SCO; both are on the
  content origin, so the SCO, its own frames and the runtime reach one another;
- without one, content stays in the opaque sandbox of Spot's origin, where no two frames share an origin:
  the launch address is the SCO itself, and the runtime is written at the start of its `<head>` (what
  content that looks in its own window first still runs).

The script tag carries the launch's runtime address (`data-api`, `…/lms/scorm/{key}`, relative: the
content's own origin answers it) and Spot's origin (`data-player`), where the runtime tells the player
page what the SCO did."""

import html
import re
from urllib.parse import quote, unquote, urlsplit, urlunsplit

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core.errors import ApiError
from spot.core.routing import API_PREFIX
from spot.core.security_headers import content_origin, public_origin
from spot.core.time import utcnow
from spot.lms.models import LmsCourse, LmsItem, LmsLaunch
from spot.lms.scorm.models import ScormCourse

RUNTIME_PATH = "/spotv2/lms-runtime"
_HEAD = re.compile(rb"<head(\s[^>]*)?>", re.IGNORECASE)


def _play(key: str) -> str:
    return f"{API_PREFIX}/lms/play/{key}/"


def _sco_address(item_url: str) -> str:
    """The SCO relative to the package root: its path (quoted) and the manifest's parameters."""
    parts = urlsplit(item_url)
    return urlunsplit(("", "", quote(unquote(parts.path)), parts.query, parts.fragment))


def launch_url(*, key: str, item_url: str) -> str:
    """The address the player frames for a launch of a SCORM unit: the frame page on the content origin,
    or, where there is none, the SCO itself on Spot's public address. An asset at an absolute address
    is opened where it is."""
    if urlsplit(item_url).scheme:
        return item_url
    origin = content_origin()
    if origin is not None:
        return f"{origin}{_play(key)}"
    return f"{get_settings().public_url.rstrip('/')}{_play(key)}{_sco_address(item_url)}"


def _runtime_tag(key: str, edition: str) -> str:
    script = "scorm12" if edition == "1.2" else "scorm2004"
    return (
        f'<script src="{RUNTIME_PATH}/{script}.js" data-api="{API_PREFIX}/lms/scorm/{html.escape(key)}" '
        f'data-player="{html.escape(public_origin())}"></script>'
    )


def _scorm_launch(db: Session, key: str) -> tuple[LmsItem, ScormCourse, str] | None:
    """The launched item, its course's SCORM edition and the course's language, for a live launch."""
    row = db.execute(
        select(LmsLaunch.expires_at, LmsItem, LmsCourse.removed_at, LmsCourse.lang, ScormCourse)
        .join(LmsItem, LmsItem.id == LmsLaunch.item_id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .join(ScormCourse, ScormCourse.course_id == LmsCourse.id)
        .where(LmsLaunch.key == key)
    ).first()
    if row is None or row.expires_at <= utcnow() or row.removed_at is not None:
        return None
    return row.LmsItem, row.ScormCourse, row.lang


def frame_page(db: Session, *, key: str) -> tuple[bytes, str]:
    """The frame around a launched SCO: the runtime, then the SCO filling the page (`data-sco`: the frame
    the runtime removes when the player asks it to let the SCO go). 404 for anything but a live SCORM
    launch."""
    found = _scorm_launch(db, key)
    if found is None:
        raise ApiError(404, "notFound")
    item, course, lang = found
    title = html.escape(item.name)
    page = (
        f'<!doctype html><html lang="{html.escape(lang or "und")}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>"
        "<style>html,body{margin:0;height:100%;overflow:hidden}"
        "iframe{display:block;border:0;width:100%;height:100%}</style>"
        f"{_runtime_tag(key, course.edition)}"
        f'</head><body><iframe data-sco src="{html.escape(_sco_address(item.url))}" title="{title}"></iframe>'
        "</body></html>"
    )
    return page.encode(), "text/html; charset=utf-8"


def with_runtime(db: Session, *, key: str, path: str, data: bytes) -> bytes:
    """The launched SCO's document with the runtime at the start of its `<head>`, where there is no content
    origin (no frame page above it); any other file as it is."""
    if content_origin() is not None:
        return data
    found = _scorm_launch(db, key)
    if found is None or unquote(urlsplit(found[0].url).path) != path:
        return data
    tag = _runtime_tag(key, found[1].edition).encode()
    head = _HEAD.search(data)
    if head is None:
        return tag + data
    return data[: head.end()] + tag + data[head.end() :]
