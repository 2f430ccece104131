"""The demo's e-learning courses, written for Spot in French and imported like any uploaded course: a
small cmi5 course on lockout–tagout (courses/consignation/) and a SCORM 1.2 course on personal
protective equipment (courses/epi/: a reading in three pages that keeps its place, and a quiz with a
mastery score; it shares the first course's style sheet). Idempotent: a course is imported again only
when its files changed since (its items keep their ids)."""

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
from spot.lms.scorm.manifest import course_key
from spot.users.models import User

COURSES = Path(__file__).parent / "courses"
COURSE_FOLDER = COURSES / "consignation"
COURSE_ACTIVITY_ID = "https://courses.spot.example/consignation"
RESOURCE_ACTIVITY_ID = "https://courses.spot.example/consignation/bases"
QUIZ_ACTIVITY_ID = "https://courses.spot.example/consignation/quiz"
SCORM_FOLDER = COURSES / "epi"
SCORM_ACTIVITY_ID = course_key("fr.spot.demo.epi", "Les équipements de protection individuelle")
SCORM_READING_ID = "epi_regles"
SCORM_QUIZ_ID = "epi_quiz"
# The demo's administrator imports them.
IMPORTER = "admin"


def _zipped(entries: list[Path]) -> bytes:
    """These files at the root of a zip, the same bytes every time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(entries, key=lambda entry: entry.name):
            info = zipfile.ZipInfo(path.name, date_time=(2026, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), compress_type=zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def package() -> bytes:
    """The cmi5 course folder as a package (cmi5.xml at the root)."""
    return _zipped([path for path in COURSE_FOLDER.iterdir() if path.is_file()])


def scorm_package() -> bytes:
    """The SCORM course folder as a package (imsmanifest.xml at the root), with the shared style sheet."""
    return _zipped([*(p for p in SCORM_FOLDER.iterdir() if p.is_file()), COURSE_FOLDER / "style.css"])


def item_id(db: Session, activity_id: str, course_activity_id: str = COURSE_ACTIVITY_ID) -> int | None:
    """The id of one of a demo course's items (RESOURCE_ACTIVITY_ID, QUIZ_ACTIVITY_ID; SCORM_READING_ID,
    SCORM_QUIZ_ID with SCORM_ACTIVITY_ID), once imported."""
    return db.scalar(
        select(LmsItem.id)
        .join(LmsCourse, LmsCourse.id == LmsItem.course_id)
        .where(
            LmsCourse.activity_id == course_activity_id,
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


def _seed_course(db: Session, *, activity_id: str, data: bytes) -> None:
    stored = db.scalar(select(LmsCourse.content_key).where(LmsCourse.activity_id == activity_id))
    if stored is not None and _stored_bytes(stored) == data:
        return
    importer = db.scalar(select(User.id).where(User.login == IMPORTER))
    with tempfile.NamedTemporaryFile(dir=files.scratch_folder(), suffix=".part", delete=False) as out:
        out.write(data)
    service.import_course(db, path=Path(out.name), user_id=importer)
    db.flush()


def seed(db: Session) -> None:
    _seed_course(db, activity_id=COURSE_ACTIVITY_ID, data=package())
    _seed_course(db, activity_id=SCORM_ACTIVITY_ID, data=scorm_package())
