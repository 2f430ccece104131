"""A learner's audit pack (GET /reports/auditPack/{userId}): a zip of one PDF per path of the learner,
every module with every grading it had (training_path_grading, earlier ones included) and every
signature, one PDF of their qualification status (qualifications.dashboards.person, the validity
of qualifications.validity, every module of every qualification), and one PDF of their validation
history (qualifications.history: every module they were graded in, every grading of it from every
path, and what it counts for today), and one PDF of their learning-platform record (lms.record: every
course and unit they opened, launches, completions, satisfactions and waivers, quiz attempts), and the
attendance sheet of each validated mediation they took part in (reports.attendance); each page stamped
"generated on <date time> by <user>".

What the pack shows is one person's record: it is read in the stream's own session, a few statements
whatever the number of paths (selection.learner_lines, one statement for the gradings, the
dashboard's), and its PDFs go out one by one (reports.archive)."""

import re
import sys
from collections import defaultdict
from collections.abc import Iterator
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core import time as clock
from spot.core.errors import not_found
from spot.core.i18n import Language, text
from spot.core.principal import Principal
from spot.lms import record
from spot.qualifications import dashboards, history
from spot.reports import archive, attendance, pdf, pdf_history, pdf_learning, selection
from spot.training.paths.models import TrainingPath, TrainingPathGrading, TrainingPathModule
from spot.training.paths.service import validity
from spot.users.models import User, printed_name

_PLAIN_LOGIN = re.compile(r"[A-Za-z0-9._@+-]{1,150}")
# The qualification status prints every module of every qualification, however many (a dashboard on
# screen shows the first ones of each).
EVERY_CHILD = dashboards.Shown(limit=sys.maxsize)


def filename(db: Session, *, user_id: int) -> str:
    """`audit-<login>.zip` (`audit-<id>.zip` when the login is not plain ASCII); 404 userNotFound."""
    login = db.scalar(select(User.login).where(User.id == user_id))
    if login is None:
        raise not_found("userNotFound")
    return f"audit-{login if _PLAIN_LOGIN.fullmatch(login) else user_id}.zip"


def gradings(db: Session, *, user_id: int, language: Language) -> dict[int, dict[int, list[pdf.Grading]]]:
    """Every grading of the learner's paths, by path id then module index, oldest first; a referent
    whose account is gone is the placeholder X, one who left is marked in `language`."""
    M, G = TrainingPathModule, TrainingPathGrading
    rows = db.execute(
        select(
            M.path_id,
            M.position,
            G.graded_at,
            G.grade,
            G.is_success,
            G.referent_id,
            G.referent_name,
            User.active,
            G.comment,
            G.valid_until,
        )
        .join(M, M.id == G.path_module_id)
        .outerjoin(User, User.id == G.referent_id)
        .join(TrainingPath, TrainingPath.id == M.path_id)
        .where(TrainingPath.learner_id == user_id)
        .order_by(G.graded_at, G.id)
    )
    out: dict[int, dict[int, list[pdf.Grading]]] = defaultdict(lambda: defaultdict(list))
    for path_id, position, graded_at, grade, is_success, referent_id, name, active, comment, until in rows:
        referent = (
            selection.UNKNOWN_USER
            if referent_id is None or not name
            else printed_name(name, active, language)
        )
        out[path_id][position].append(
            pdf.Grading(graded_at, grade, is_success, referent, comment, validity(is_success, until))
        )
    return out


def files(
    db: Session, *, user: Principal, user_id: int, language: Language, now: datetime
) -> Iterator[tuple[str, bytes]]:
    """The pack's PDFs: each path (by start date then title), then the qualification status, the
    validation history, the learning-platform record and the attendance sheets (by start)."""
    ctx = pdf.context(language, stamp_by=user.display_name, now=now)
    today = clock.today()
    learner = selection.learner_lines(db, user_id=user_id, language=language)
    graded = gradings(db, user_id=user_id, language=language)
    elements = dashboards.person(db, user_id=user_id, today=today, shown=EVERY_CHILD)["elements"]
    names = archive.FileNames()
    for path in learner.paths:
        content = pdf.path_audit(learner, path, gradings=graded.get(path.id, {}), ctx=ctx)
        yield names.take(f"{path.title} ({path.id})"), content
    status = pdf.qualification_status(learner, elements, ctx=ctx)
    yield names.take(text(language, "audit_pack.qualifications_file")), status
    histories = history.of_person(db, user_id=user_id, today=today)
    validations = pdf_history.validation_history(learner, histories, ctx=ctx)
    yield names.take(text(language, "audit_pack.history_file")), validations
    courses = record.learner_record(db, learner_id=user_id)
    learning = pdf_learning.learning_record(learner, courses, ctx=ctx)
    yield names.take(text(language, "audit_pack.learning_file")), learning
    sheet_title = text(language, "attendance_sheet.title")
    for mediation, sheet in attendance.of_participant(db, user=user, user_id=user_id, ctx=ctx):
        yield names.take(f"{sheet_title} — {mediation.title} ({mediation.id})"), sheet


def pack(db: Session, *, user: Principal, user_id: int, language: Language) -> Iterator[bytes]:
    """The zip (for core.routing.streamed, which gives it its session)."""
    yield from archive.zipped(files(db, user=user, user_id=user_id, language=language, now=clock.utcnow()))
