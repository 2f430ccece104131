from typing import Annotated

from fastapi import Header, Path
from fastapi.responses import JSONResponse, Response, StreamingResponse

from spot.core.auth import DB, CurrentUser, require
from spot.core.i18n import language
from spot.core.routing import api_router, work
from spot.core.schemas import Str
from spot.jobs import runner
from spot.jobs import service as jobs_service
from spot.jobs.schemas import JobOut
from spot.reports import excel, jobs, policy, selection, service
from spot.reports.schemas import ReportConfiguration, ReportConfigurationSave, ReportPaths, ReportRequest

router = api_router(tags=["reports"])

# Every report call (spec 2 §2 'Path report page').
REPORTS = require(*policy.REPORT_PERMISSIONS)
_CONFIGURATIONS = "/account/configuration/trainingPathReports"


@router.get(_CONFIGURATIONS, dependencies=[REPORTS])
async def configurations(db: DB, user: CurrentUser) -> list[ReportConfiguration]:
    """Needs a report permission (whoAmI's can.reportOnPaths). The user's saved report parameter sets, by
    name."""
    return service.configurations(db, user=user)


@router.post(_CONFIGURATIONS, dependencies=[REPORTS], status_code=204)
async def save_configuration(db: DB, user: CurrentUser, body: ReportConfigurationSave) -> None:
    """Needs a report permission (whoAmI's can.reportOnPaths). Saves a parameter set under its name: an
    existing name is overwritten, keeping its default flag unless isDefault is given; isDefault true
    makes it the user's only default. 422 atLeastOneErrorLeft with the report's field errors
    (defineAtLeastOneLearnerOrGroup, selectAtLeastOneStatus, selectAtLeastOneType, dateRangeReversed,
    emptyFieldError, beginEndWhitespaceError, userNotFound, groupNotFound, badFileFormat,
    fileUploadError, fileTooBig, imageTooLarge)."""
    service.save_configuration(db, user=user, body=body)


@router.delete(_CONFIGURATIONS + "/{name:path}", dependencies=[REPORTS], status_code=204)
async def delete_configuration(db: DB, user: CurrentUser, name: Annotated[Str, Path(max_length=200)]) -> None:
    """Needs a report permission (whoAmI's can.reportOnPaths). Deletes the user's parameter set of that
    name (which may hold a slash); 404 reportConfigurationNotFound when they have none."""
    service.delete_configuration(db, user=user, name=name)


@router.get("/reports/trainingPaths/defaults", dependencies=[REPORTS])
async def defaults(user: CurrentUser) -> ReportRequest:
    """Needs a report permission (whoAmI's can.reportOnPaths). The parameters a report starts from (spec 2
    §9): this year (organisation's time zone), every path status, every module status but disabled,
    training modules, every option but mediators, both signature boxes; documentTitle and
    managerSignatureLabel empty (the client gives its translated defaults)."""
    return service.defaults()


@router.post("/reports/trainingPaths/paths", dependencies=[REPORTS])
@work
def paths(db: DB, user: CurrentUser, body: ReportRequest) -> ReportPaths:
    """Needs a report permission (whoAmI's can.reportOnPaths). The paths the report selects, among those the
    user may see (every path with perm_TableauBord or perm_TrainingPathAdmin, else the readable ones):
    learners by name, their paths by start date then title; at most 1,000 rows, totalItems exact; an
    empty list when nothing is selected. 422 atLeastOneErrorLeft as when saving a parameter set. Runs in
    a worker thread (it may count tens of thousands of paths)."""
    return service.paths(db, user=user, request=body)


@router.post(
    "/reports/trainingPaths/excel",
    dependencies=[REPORTS],
    response_class=Response,
    responses={
        200: {"content": {excel.MEDIA_TYPE: {}}, "description": "The xlsx file"},
        202: {"model": JobOut, "description": "More than 1,000 paths: the job making the file"},
    },
)
@work
def export_excel(
    db: DB,
    user: CurrentUser,
    body: ReportRequest,
    accept_language: Annotated[str | None, Header(description="fr (the default) or en")] = None,
) -> Response:
    """Needs a report permission (whoAmI's can.reportOnPaths). The report as an xlsx file
    (training-paths.xlsx): one sheet, a header row, a row per module shown of each path selected
    (learner, external id when displayExternalIds, path title, then the columns the path and module
    options ask for), headers in the language of Accept-Language (French by default). Up to 1,000 paths
    selected, the file itself (200); more, a job that makes it (202 with the job: GET /jobs/{id} tells its
    progress, GET /jobs/{id}/result downloads it). 422 nothingToExport when nothing is selected, and the
    errors of saving a parameter set."""
    service.check(db, body)
    if selection.count_paths(db, user=user, request=body) > jobs.EXCEL_JOB_PATHS:
        job = runner.enqueue(
            db,
            owner_id=user.id,
            kind=jobs.EXCEL,
            parameters=jobs.parameters(body),
            language=language(accept_language),
        )
        return JSONResponse(
            jobs_service.out(user, job).model_dump(mode="json", by_alias=True), status_code=202
        )
    return StreamingResponse(
        excel.export(db, user=user, request=body, accept_language=accept_language),
        media_type=excel.MEDIA_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{excel.FILENAME}"',
            "X-Content-Type-Options": "nosniff",
        },
    )
