"""The path report's long outputs as jobs (jobs.runner): the zip of PDFs (POST /reports/trainingPaths/pdf),
and the Excel file of more than EXCEL_JOB_PATHS paths (POST /reports/trainingPaths/excel), both asked by
a request that answers at once. The job writes its file into its scratch file, telling its progress
after each learner, and its owner downloads it from GET /jobs/{id}/result once it is ready."""

from collections.abc import Iterator

from sqlalchemy.orm import Session

from spot.core.errors import ApiError
from spot.jobs import runner
from spot.reports import archive, excel, selection, service
from spot.reports.schemas import ReportRequest

ZIP = "reportZip"
EXCEL = "reportExcel"
NOTHING_TO_PRINT = "nothingToPrint"
# An Excel report of more paths than this is a job; a smaller one is answered at once (DESIGN §8: 1,000
# paths within 5 s).
EXCEL_JOB_PATHS = 1_000


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


def make_excel(db: Session, work: runner.Work) -> runner.Output:
    """The Excel file of the report asked, as its owner may see it now."""
    request = ReportRequest.model_validate(work.parameters["request"])
    service.check(db, request)
    work.progress(0, selection.count_learners(db, user=work.owner, request=request))
    learners = selection.learners(db, user=work.owner, request=request, language=work.language)

    def told() -> Iterator[selection.LearnerLines]:
        for done, learner in enumerate(learners, 1):
            yield learner
            work.progress(done)

    path = work.scratch(".xlsx")
    with path.open("wb") as out:
        rows = excel.write(out, rows=told(), request=request, lang=work.language)
    if rows == 0:
        raise ApiError(422, excel.NOTHING_TO_EXPORT)
    return runner.Output(
        path=path,
        download_name=excel.FILENAME,
        media_type=excel.MEDIA_TYPE,
        extension="xlsx",
        summary={"rows": rows},
    )


runner.register(ZIP, make_zip)
runner.register(EXCEL, make_excel)
