"""Applying a people import as a job (jobs.runner): POST /user/import?dryRun=false stores the file with the
job and answers at once; the job applies it (all or nothing, in its transaction) and keeps its report as
the job's summary: the counts, and in the file's order every refused row and the first 100 others (the
import tab shows as many: a file may hold 20,000 people). A dry run stays an answer of its own request."""

from sqlalchemy.orm import Session

from spot.jobs import runner
from spot.people import service

IMPORT = "peopleImport"
# The rows kept besides the refused ones (the import tab's table shows as many).
ROWS_KEPT = 100


def apply(db: Session, work: runner.Work) -> runner.Output:
    report = service.run(
        db,
        data=work.input(),
        dry_run=False,
        deactivate_missing=bool(work.parameters.get("deactivateMissing")),
        importer=work.owner,
    )
    others = 0
    rows = []
    for row in report.rows:  # in the file's order
        if row.outcome == "refused" or others < ROWS_KEPT:
            rows.append(row)
            others += row.outcome != "refused"
    kept = report.model_copy(update={"rows": rows})
    return runner.Output(path=None, summary={"report": kept.model_dump(mode="json", by_alias=True)})


runner.register(IMPORT, apply)
