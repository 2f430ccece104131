"""The demo's e-learning course: a small French cmi5 course on lockout–tagout (courses/consignation/, written
for Spot), packaged as a zip and imported like any uploaded course. Idempotent: the course is imported
again only when its files changed since (its items keep their ids)."""

import io
import tempfile
import zipfile
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core import files
from spot.core.errors import ApiError
from spot.lms import service
from spot.lms.models import LmsCourse, LmsItem
from spot.users.models import User

COURSE_FOLDER = Path(__file__).parent / "courses" / "consignation"
COURSE_ACTIVITY_ID = "https://courses.spot.example/consignation"
RESOURCE_ACTIVITY_ID = "https://courses.spot.example/consignation/bases"
QUIZ_ACTIVITY_ID = "https://courses.spot.example/consignation/quiz"
# The demo's administrator imports it.
IMPORTER = "admin"


def package() -> bytes:
    """The course folder as a cmi5 package (cmi5.xml at the root), the same bytes every time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(COURSE_FOLDER.iterdir()):
            if path.is_file():
                info = zipfile.ZipInfo(path.name, date_time=(2026, 1, 1, 0, 0, 0))
                archive.writestr(info, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def item_id(db: Session, activity_id: str) -> int | None:
    """The id of one of the demo course's items (RESOURCE_ACTIVITY_ID, QUIZ_ACTIVITY_ID), once imported."""
    return db.scalar(
        select(LmsItem.id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(
            LmsCourse.activity_id == COURSE_ACTIVITY_ID,
            LmsCourse.removed_at.is_(None),
            LmsItem.activity_id == activity_id,
            LmsItem.removed_at.is_(None),
        )
    )


def _stored_bytes(key: str) -> bytes | None:
    try:
        return files.get_file_store().get(key)
    except ApiError:
        return None


def seed(db: Session) -> None:
    data = package()
    stored = db.scalar(select(LmsCourse.content_key).where(LmsCourse.activity_id == COURSE_ACTIVITY_ID))
    if stored is not None and _stored_bytes(stored) == data:
        return
    importer = db.scalar(select(User.id).where(User.login == IMPORTER))
    with tempfile.NamedTemporaryFile(dir=files.scratch_folder(), suffix=".part", delete=False) as out:
        out.write(data)
    service.import_course(db, path=Path(out.name), user_id=importer)
    db.flush()
