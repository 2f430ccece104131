"""Resources: the gallery of a parent (core.parents) and its rules (spec 1 §5): the general text rule
on name and link, http(s) links, YouTube addresses, a file required on add, images and pdf judged
from their bytes, the type locked on edit. Files are stored through core.files under generated
names; images get a 160 × 100 thumbnail, made once, when they are added (in the upload's worker)."""

import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import filetype  # type: ignore[import-untyped]
from PIL import Image, ImageOps, UnidentifiedImageError
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spot.core import files, history, parents
from spot.core.errors import ApiError, FieldError, conflict, ensure, not_found
from spot.core.files import Served
from spot.core.history import Event
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.discussions.schemas import SystemMessageType
from spot.discussions.service import system_message
from spot.resources import policy
from spot.resources.models import FILE_TYPES, Resource, ResourceType
from spot.resources.schemas import ResourceCreate, ResourceGallery, ResourceOut, ResourceUpdate

log = logging.getLogger("spot.resources")

MAX_FILE_BYTES = 30_000_000
THUMBNAIL_SIZE = (160, 100)
# A PNG is decoded whole to be shrunk (a JPEG at a fraction of its size, Image.draft): beyond this
# many pixels it gets no thumbnail rather than hundreds of megabytes of memory.
THUMBNAIL_MAX_PIXELS = 25_000_000

# What the bytes of an image or a pdf must be (filetype's judgement), and the stored file's extension.
ACCEPTED = {
    ResourceType.image: {"image/jpeg": "jpg", "image/png": "png"},
    ResourceType.pdf: {"application/pdf": "pdf"},
}

LINK_PREFIXES = ("http://", "https://")
# The watch, embed, shorts and youtu.be forms of a YouTube address; the id is 10 to 20 word
# characters or dashes, as in the client (ASCII word characters, as JavaScript's \w).
_YOUTUBE = re.compile(
    r"https?://(?:(?:www|m)\.)?(?:"
    r"youtube(?:-nocookie)?\.com/(?:watch\?(?:[^#]*&)?v=|embed/|shorts/)"
    r"|youtu\.be/"
    r")([\w-]{10,20})(?:[?&#/].*)?",
    re.ASCII | re.DOTALL,
)


def _invalid(field: str, code: str, status: int = 400) -> ApiError:
    return ApiError(status, "atLeastOneErrorLeft", [FieldError(field=field, code=code)])


def youtube_id(address: str) -> str | None:
    """The video id of a YouTube address in one of the accepted forms, else None."""
    match = _YOUTUBE.fullmatch(address)
    return match.group(1) if match else None


def stored_link(resource_type: ResourceType, link: str) -> str:
    """The link as stored: a link's address (http or https), a YouTube video's id, a file's name."""
    if resource_type is ResourceType.link and not link.startswith(LINK_PREFIXES):
        raise _invalid("link", "urlMustBeginBy")
    if resource_type is ResourceType.youtube:
        video = youtube_id(link)
        if video is None:
            raise _invalid("link", "notValidYoutubeUrl")
        return video
    return link


# Files ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StoredUpload:
    file_ref: str
    thumbnail_ref: str | None
    media_type: str
    size: int


def _sniffed(resource_type: ResourceType, path: Path) -> tuple[str, str]:
    """(media type, extension) judged from the file's first bytes, not from its name."""
    kind = filetype.guess(str(path))
    accepted = ACCEPTED.get(resource_type)
    if accepted is None:
        if kind is not None and re.fullmatch(r"[a-z0-9]{1,8}", kind.extension):
            return kind.mime, kind.extension
        return "application/octet-stream", "bin"
    if kind is None or kind.mime not in accepted:
        raise _invalid("file", "badFileFormat")
    return kind.mime, accepted[kind.mime]


def make_thumbnail(path: Path) -> tuple[bytes, str] | None:
    """The image shrunk to fit 160 × 100 (upright, as its EXIF says), as (bytes, extension): PNG when
    it has transparency, else JPEG. None when too big to decode; badFileFormat when not decodable."""
    try:
        with Image.open(path) as image:
            if image.format == "JPEG":
                image.draft("RGB", (THUMBNAIL_SIZE[0] * 2, THUMBNAIL_SIZE[1] * 2))
            elif image.width * image.height > THUMBNAIL_MAX_PIXELS:
                return None
            image.load()
            small = ImageOps.exif_transpose(image)
            small.thumbnail(THUMBNAIL_SIZE)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError, ValueError) as exc:
        raise _invalid("file", "badFileFormat") from exc
    out = io.BytesIO()
    if small.mode in ("RGBA", "LA") or (small.mode == "P" and "transparency" in small.info):
        small.save(out, format="PNG", optimize=True)
        return out.getvalue(), "png"
    small.convert("RGB").save(out, format="JPEG", quality=85)
    return out.getvalue(), "jpg"


def _store(db: Session, resource_type: ResourceType, path: Path) -> StoredUpload:
    """Check the uploaded file and store it with the transaction, with its thumbnail for an image: both
    go into the store when it commits, and are removed if it rolls back (core.files)."""
    size = path.stat().st_size
    if size == 0:
        raise _invalid("file", "emptyFieldError")
    media_type, extension = _sniffed(resource_type, path)
    thumbnail = make_thumbnail(path) if resource_type is ResourceType.image else None
    file_ref = files.store_path(db, path, extension=extension)
    thumbnail_ref = None
    if thumbnail is not None:
        thumbnail_ref = files.store(db, thumbnail[0], extension=thumbnail[1])
    return StoredUpload(file_ref, thumbnail_ref, media_type, size)


# Reading ----------------------------------------------------------------------------------------


def _url(resource: Resource, what: str, ref: str | None) -> str | None:
    """The address of the resource's file or thumbnail; its `v` names the stored file, which never
    changes, so the answer may be cached for good."""
    if ref is None:
        return None
    base = f"{API_PREFIX}/resource/{resource.parent_type}/{resource.parent_id}/{resource.id}"
    return f"{base}/{what}?v={ref.split('.')[0]}"


def view(resource: Resource) -> ResourceOut:
    return ResourceOut(
        id=resource.id,
        parent_type=resource.parent_type,
        parent_id=resource.parent_id,
        resource_type=ResourceType(resource.resource_type),
        name=resource.name,
        link=resource.link,
        comment=resource.comment,
        ordering=resource.ordering,
        media_type=resource.media_type,
        size=resource.size,
        file_url=_url(resource, "file", resource.file_ref),
        thumbnail_url=_url(resource, "thumbnail", resource.thumbnail_ref),
        version=resource.version,
    )


def _resources(db: Session, parent: parents.Parent) -> Sequence[Resource]:
    return db.scalars(
        select(Resource)
        .where(Resource.parent_type == parent.type, Resource.parent_id == parent.id)
        .order_by(Resource.ordering, Resource.id)
    ).all()


def gallery(db: Session, *, user: Principal, parent: parents.Parent) -> ResourceGallery:
    return ResourceGallery(resources=[view(r) for r in _resources(db, parent)], can=policy.can(user))


def get(db: Session, *, parent: parents.Parent, resource_id: int) -> Resource:
    """A resource of this parent (which the caller loaded through core.parents, so may read)."""
    resource = db.get(Resource, resource_id)
    if resource is None or (resource.parent_type, resource.parent_id) != (parent.type, parent.id):
        raise not_found("resourceNotFound")
    return resource


# Writing ----------------------------------------------------------------------------------------


def _written(db: Session, user: Principal, parent: parents.Parent, resource: Resource, event: Event) -> None:
    """A change of a gallery is a write of its parent: a history entry on the parent, and a message of
    the server on its discussion naming the resource."""
    history.record(db, parents.history_entry(parent, user=user, mode="W", event=event))
    args = {"name": resource.name, "resourceType": resource.resource_type}
    system_message(db, parent=parent, user=user, type=SystemMessageType(event.value), args=args)


def _next_position(db: Session, parent: parents.Parent) -> Any:
    """The end of the parent's gallery, computed by the INSERT itself: uploads into one gallery at the
    same time each get a position of their own. On SQLite the statement reads and writes under the
    database's one write lock; on PostgreSQL the writers of one gallery wait for each other (a lock
    until the transaction ends), so the next one's INSERT sees the row of the one before."""
    if db.get_bind().dialect.name == "postgresql":
        db.execute(
            select(func.pg_advisory_xact_lock(GALLERY_LOCK, func.hashtext(f"{parent.type}/{parent.id}")))
        )
    return (
        select(func.coalesce(func.max(Resource.ordering) + 1, 0))
        .where(Resource.parent_type == parent.type, Resource.parent_id == parent.id)
        .scalar_subquery()
    )


# The first key of the galleries' advisory locks on PostgreSQL (the second: the parent's, hashed).
GALLERY_LOCK = 0x5E50


def create(
    db: Session, *, user: Principal, parent: parents.Parent, data: ResourceCreate, upload: Path | None
) -> Resource:
    """A new resource at the end of the gallery. `upload` is the received body (image, pdf, file),
    moved into the store."""
    ensure(policy.can_edit(user))
    link = stored_link(data.resource_type, data.link)
    stored = None
    if data.resource_type in FILE_TYPES:
        if upload is None:
            raise _invalid("file", "emptyFieldError")
        stored = _store(db, data.resource_type, upload)
    now = utcnow()
    resource = Resource(
        parent_type=parent.type,
        parent_id=parent.id,
        resource_type=data.resource_type.value,
        name=data.name,
        link=link,
        comment=data.comment,
        ordering=_next_position(db, parent),
        file_ref=stored and stored.file_ref,
        thumbnail_ref=stored and stored.thumbnail_ref,
        media_type=stored and stored.media_type,
        size=stored and stored.size,
        created_by=user.id,
        created_at=now,
        updated_by=user.id,
        updated_at=now,
    )
    db.add(resource)
    db.flush()
    _written(db, user, parent, resource, Event.resourceCreated)
    log.info(
        "resource created id=%s parent=%s/%s by user_id=%s", resource.id, parent.type, parent.id, user.id
    )
    return resource


def update(
    db: Session, *, user: Principal, parent: parents.Parent, resource: Resource, data: ResourceUpdate
) -> Resource:
    """Name, link and comment; the type cannot change, the file is kept. A version sent must be the
    stored one (409 staleVersion); without one (the spec's payload) the update applies."""
    ensure(policy.can_edit(user))
    kind = ResourceType(resource.resource_type)
    if data.resource_type is not None and data.resource_type is not kind:
        raise _invalid("resourceType", "resourceTypeCannotChange")
    if data.version is not None and data.version != resource.version:
        raise conflict("staleVersion")
    resource.name, resource.link, resource.comment = data.name, stored_link(kind, data.link), data.comment
    resource.updated_by, resource.updated_at = user.id, utcnow()
    db.flush()
    _written(db, user, parent, resource, Event.resourceUpdated)
    return resource


def reorder(db: Session, *, user: Principal, parent: parents.Parent, ids: list[int]) -> ResourceGallery:
    """Put the gallery in the order of `ids`, which must be exactly its resources."""
    ensure(policy.can_edit(user))
    resources = {r.id: r for r in _resources(db, parent)}
    if len(ids) != len(set(ids)) or set(ids) != set(resources):
        raise _invalid("resourceIds", "invalidValue")
    for ordering, resource_id in enumerate(ids):
        if resources[resource_id].ordering != ordering:
            resources[resource_id].ordering = ordering
    db.flush()
    return gallery(db, user=user, parent=parent)


def delete(db: Session, *, user: Principal, parent: parents.Parent, resource: Resource) -> None:
    ensure(policy.can_edit(user))
    files.retired(db, resource.file_ref)
    files.retired(db, resource.thumbnail_ref)
    _written(db, user, parent, resource, Event.resourceDeleted)
    log.info(
        "resource deleted id=%s parent=%s/%s by user_id=%s", resource.id, parent.type, parent.id, user.id
    )
    db.delete(resource)
    db.flush()


def _files_of_removed_parent(db: Session, parent_type: str, parent_id: int) -> None:
    """A deleted parent's resources go with it (a database trigger); their stored files go once the
    deletion commits."""
    refs = db.execute(
        select(Resource.file_ref, Resource.thumbnail_ref).where(
            Resource.parent_type == parent_type, Resource.parent_id == parent_id
        )
    )
    for file_ref, thumbnail_ref in refs:
        files.retired(db, file_ref)
        files.retired(db, thumbnail_ref)


parents.on_removal(_files_of_removed_parent)


# Serving ----------------------------------------------------------------------------------------


def _ascii_name(name: str) -> str:
    kept = "".join(c if c.isascii() and (c.isalnum() or c in " .-_()") else "_" for c in name).strip()
    return kept or "file"


def content_disposition(disposition: str, filename: str) -> str:
    """`inline` or `attachment` with the name as typed (RFC 5987 filename*) and a plain ASCII one for
    older clients; nothing of the name can break out of the header."""
    cleaned = "".join(c for c in filename.replace("/", "_").replace("\\", "_") if c.isprintable()) or "file"
    encoded = "".join(
        c
        if c.isascii() and (c.isalnum() or c in "!#$&+-.^_`|~")
        else "".join(f"%{b:02X}" for b in c.encode())
        for c in cleaned
    )
    return f"{disposition}; filename=\"{_ascii_name(cleaned)}\"; filename*=UTF-8''{encoded}"


def served(resource: Resource, *, thumbnail: bool, version: str | None) -> Served:
    """What the file (or thumbnail) route answers: the stored file's name, type and headers. Stored
    names never change, so an address naming the current one (`v`) may be cached for good."""
    ref = resource.thumbnail_ref if thumbnail else resource.file_ref
    if ref is None:
        raise not_found("thumbnailNotFound" if thumbnail else "fileNotFound")
    kind = ResourceType(resource.resource_type)
    if thumbnail:
        media_type = "image/png" if ref.endswith(".png") else "image/jpeg"
        size = None
        disposition = content_disposition(
            "inline", f"{Path(resource.link).stem or 'thumbnail'}-thumbnail.{ref.split('.')[-1]}"
        )
    else:
        media_type = (
            resource.media_type if kind in ACCEPTED and resource.media_type else "application/octet-stream"
        )
        size = resource.size
        disposition = content_disposition(
            "attachment" if kind is ResourceType.file else "inline", resource.link
        )
    immutable = version is not None and version == ref.split(".")[0]
    headers = {
        "ETag": f'"{ref.split(".")[0]}"',
        "Cache-Control": "private, max-age=31536000, immutable" if immutable else "private, no-cache",
        "Content-Disposition": disposition,
        "X-Content-Type-Options": "nosniff",
    }
    return Served(ref, media_type, headers, size)
