"""Importing a map bundle as a job (jobs.runner): POST /mapping/import checks the whole bundle first (a bad
one is refused at once, naming its faulty entry), stores it with the job and answers at once; the job
writes it (on SQLite in steps, as before: a run killed midway leaves steps that its retry completes,
since an import updates and never duplicates) and keeps what it created and updated as its summary.
`spot import-map` imports in its own process."""

from sqlalchemy.orm import Session

from spot.jobs import runner
from spot.mapping import bundle

IMPORT = "mapImport"


def apply(db: Session, work: runner.Work) -> runner.Output:
    result = bundle.import_bundle(db, data=work.input(), user=work.owner, in_steps=True)
    return runner.Output(path=None, summary=result.model_dump(mode="json", by_alias=True))


runner.register(IMPORT, apply)
