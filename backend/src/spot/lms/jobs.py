"""Importing a course package as a job (jobs.runner): POST /lms/courses streams the package in, checks it
whole (a bad one is refused at once, naming its faulty entry or element), stores it with the job and
answers at once; the job imports it in its own transaction (the course, its items, its content key) and
keeps what the upload dialog shows as the job's summary ({id, title, created, items}). `spot
import-course` and the demo seed import in their own process, without a job."""

from sqlalchemy.orm import Session

from spot.jobs import runner
from spot.lms import service

IMPORT = "courseImport"


def apply(db: Session, work: runner.Work) -> runner.Output:
    # A copy the import moves into the store as the course's content (the job's input goes once it ended).
    result = service.import_course(db, path=work.input_copy(".zip"), user_id=work.owner.id)
    return runner.Output(path=None, summary=result.model_dump(mode="json", by_alias=True))


runner.register(IMPORT, apply)
