"""A subject's diagram (docs/mind-map.md): an image (JPEG, PNG) or a PDF, stored through core.files under the
resources' upload rules (at most 30,000,000 bytes, the type judged from the bytes); perm_EditNotBasse
sets or removes it, `has_diagram` follows. A subject imported with has_diagram and no stored file (the
legacy application keeps its diagram) keeps has_diagram without a Diagram."""

import hashlib
from pathlib import Path

import filetype  # type: ignore[import-untyped]
from PIL import Image
from sqlalchemy.orm import Session

from spot.core import files
from spot.core.errors import ApiError, FieldError, ensure, not_found
from spot.core.files import Served
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.mapping.models import Subject
from spot.resources.models import ResourceType
from spot.resources.service import ACCEPTED, MAX_FILE_BYTES, content_disposition
from spot.subjects import policy
from spot.subjects import service as subjects
from spot.subjects.mindmap.schemas import Diagram

# The resources' limit and types: JPEG and PNG images, PDF documents.
MAX_BYTES = MAX_FILE_BYTES
TYPES = {**ACCEPTED[ResourceType.image], **ACCEPTED[ResourceType.pdf]}
MAX_NAME = 300


def _invalid(code: str) -> ApiError:
    return ApiError(400, "atLeastOneErrorLeft", [FieldError(field="file", code=code)])


def view(subject: Subject) -> Diagram | None:
    """The stored diagram; None without one (also for a legacy diagram: has_diagram without a file)."""
    if not subject.diagram_ref or not subject.diagram_media_type or not subject.diagram_sha256:
        return None
    return Diagram.model_validate(
        {
            "name": subject.diagram_name or f"diagram.{subject.diagram_ref.split('.')[-1]}",
            "media_type": subject.diagram_media_type,
            "url": f"{API_PREFIX}/subject/{subject.id}/diagram/file?v={subject.diagram_sha256[:12]}",
        }
    )


def _checked(path: Path | None) -> tuple[str, str]:
    """(media type, extension) of the received file, judged from its bytes: a JPEG or a PNG that opens,
    or a PDF. emptyFieldError without a body, badFileFormat for another type, fileUploadError for an
    image that does not open."""
    if path is None:
        raise _invalid("emptyFieldError")
    kind = filetype.guess(str(path))
    if kind is None or kind.mime not in TYPES:
        raise _invalid("badFileFormat")
    if kind.mime != "application/pdf":
        try:
            with Image.open(path) as image:
                image.verify()
        except Exception as exc:  # whatever a damaged image makes Pillow raise
            raise _invalid("fileUploadError") from exc
    return kind.mime, TYPES[kind.mime]


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _name(name: str, extension: str) -> str:
    kept = "".join(c for c in name if c.isprintable()).strip()[:MAX_NAME].strip()
    return kept or f"diagram.{extension}"


def store(db: Session, *, user: Principal, subject: Subject, path: Path | None, name: str) -> Subject:
    """Set the subject's diagram from the received file (moved into the store), replacing the former
    one, whose file goes once the transaction commits; a history entry `updated`."""
    ensure(policy.can_edit_diagram(user, subject))
    media_type, extension = _checked(path)
    assert path is not None
    sha256 = _sha256(path)
    ref = files.store_path(db, path, extension=extension)
    files.retired(db, subject.diagram_ref)
    values = {
        "diagram_ref": ref,
        "diagram_media_type": media_type,
        "diagram_sha256": sha256,
        "diagram_name": _name(name, extension),
        "has_diagram": True,
    }
    return subjects._mark(db, user, subject, Event.updated, utcnow(), values)


def remove(db: Session, *, user: Principal, subject: Subject) -> None:
    """Remove the subject's diagram (a stored one, or the legacy application's): has_diagram false."""
    ensure(policy.can_edit_diagram(user, subject))
    files.retired(db, subject.diagram_ref)
    values = {
        "diagram_ref": None,
        "diagram_media_type": None,
        "diagram_sha256": None,
        "diagram_name": None,
        "has_diagram": False,
    }
    subjects._mark(db, user, subject, Event.updated, utcnow(), values)


def served(subject: Subject, *, version: str | None) -> Served:
    """What GET …/diagram/file answers: the stored file, inline, with its hash as ETag; an address
    naming the current hash (`v`, as in Diagram.url) may be cached for good. 404 diagramNotFound."""
    diagram = view(subject)
    if diagram is None or subject.diagram_ref is None or subject.diagram_sha256 is None:
        raise not_found("diagramNotFound")
    immutable = version is not None and len(version) >= 12 and subject.diagram_sha256.startswith(version)
    headers = {
        "ETag": f'"{subject.diagram_sha256}"',
        "Cache-Control": "private, max-age=31536000, immutable" if immutable else "private, no-cache",
        "Content-Disposition": content_disposition("inline", diagram.name),
        "X-Content-Type-Options": "nosniff",
    }
    return Served(subject.diagram_ref, diagram.media_type, headers)
