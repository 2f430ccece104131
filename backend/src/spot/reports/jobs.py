"""The path report's zip of PDFs as a job (jobs.runner): asked by POST /reports/trainingPaths/pdf, which
answers at once; the job renders one PDF per learner into its scratch file, telling its progress after
each, and its owner downloads the zip from GET /jobs/{id}/result once it is ready."""

from sqlalchemy.orm import Session

from spot.core.errors import ApiError
from spot.jobs import runner
from spot.reports import archive, selection, service
from spot.reports.schemas import ReportRequest

ZIP = "reportZip"
NOTHING_TO_PRINT = "nothingToPrint"


def parameters(request: ReportRequest) -> dict[str, object]:
    return {"request": request.model_dump(mode="json", by_alias=True)}


def make_zip(db: Session, work: runner.Work) -> runner.Output:
    """The zip of the report asked, as its owner may see it now (their permissions when it runs)."""
    request = ReportRequest.model_validate(work.parameters["request"])
    service.check(db, request)
    total = selection.count_learners(db, user=work.owner, request=request)
    if total == 0:
        raise ApiError(422, NOTHING_TO_PRINT)
    work.progress(0, total)
    path = work.scratch(".zip")
    archive.write_report_zip(
        db, user=work.owner, request=request, language=work.language, path=path, progress=work.progress
    )
    return runner.Output(
        path=path,
        download_name=archive.REPORT_FILENAME,
        media_type=archive.MEDIA_TYPE,
        extension="zip",
        summary={"learners": total},
    )


runner.register(ZIP, make_zip)
