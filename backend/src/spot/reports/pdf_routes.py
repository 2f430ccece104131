"""The report's PDFs: the zip of one PDF per learner (a job, reports.jobs), a learner's audit pack, and a
mediation's attendance sheet. Work routes: the report's checks its parameters in a worker thread and
queues its job; the audit pack's streams its zip from a session of its own (core.routing.streamed), each
PDF leaving as soon as it is rendered; the sheet, one small PDF, is made in the worker and answered
whole."""

from functools import partial
from typing import Annotated, Any

from fastapi import Header, Path
from fastapi.responses import Response, StreamingResponse

from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ApiError
from spot.core.i18n import language
from spot.core.routing import api_router, streamed, work
from spot.core.schemas import Id
from spot.core.time import utcnow
from spot.jobs import runner
from spot.jobs import service as jobs_service
from spot.jobs.schemas import JobOut
from spot.reports import archive, attendance, audit, jobs, pdf, policy, selection, service
from spot.reports.routes import REPORTS
from spot.reports.schemas import ReportRequest

router = api_router(tags=["reports"])

NOTHING_TO_PRINT = jobs.NOTHING_TO_PRINT
_ZIP: dict[int | str, dict[str, Any]] = {
    200: {"content": {archive.MEDIA_TYPE: {}}, "description": "The zip of PDFs, streamed"}
}
AcceptLanguage = Annotated[str | None, Header(description="fr (the default) or en")]


def _zip_response(body: object, filename: str, headers: dict[str, str] | None = None) -> StreamingResponse:
    return StreamingResponse(
        body,  # type: ignore[arg-type]
        media_type=archive.MEDIA_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{filename}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        }
        | (headers or {}),
    )


@router.post("/reports/trainingPaths/pdf", dependencies=[REPORTS], status_code=202)
@work
def report_pdf(
    db: DB,
    user: CurrentUser,
    body: ReportRequest,
    accept_language: AcceptLanguage = None,
) -> JobOut:
    """Needs a report permission (whoAmI's can.reportOnPaths). Starts the report as a zip
    (training-paths.zip) of one PDF per learner selected, and answers at once (202) with its job:
    GET /jobs/{id} tells how many learners are done of the total, GET /jobs/{id}/result downloads the
    zip once the job succeeded (the bell and an e-mail tell its owner). Each PDF, named after the
    learner (with their external id when displayExternalIds), in name order (A4, texts in the language
    of Accept-Language), shows the document title, the learner, each path with the fields its options
    ask for and its modules with theirs, and the signature boxes asked for. 422 nothingToPrint when
    nothing is selected, and the errors of saving a parameter set."""
    service.check(db, body)
    if selection.count_learners(db, user=user, request=body) == 0:
        raise ApiError(422, NOTHING_TO_PRINT)
    job = runner.enqueue(
        db,
        owner_id=user.id,
        kind=jobs.ZIP,
        parameters=jobs.parameters(body),
        language=language(accept_language),
    )
    return jobs_service.out(user, job)


@router.get(
    "/reports/auditPack/{userId}",
    dependencies=[require(policy.AUDIT_PACK_READERS)],
    response_class=Response,
    responses=_ZIP,
)
@work
def audit_pack(
    db: DB,
    user: CurrentUser,
    userId: Annotated[Id, Path()],
    accept_language: AcceptLanguage = None,
) -> Response:
    """Needs perm_TableauBord. A learner's audit pack, a zip (audit-<login>.zip): a PDF per path of
    theirs (every module, every grading with the earlier ones, every signature), a PDF of their
    qualification status, and the attendance sheet of each validated mediation they took part in, each
    page stamped with when and by whom it was generated, in the language of Accept-Language. 404
    userNotFound."""
    filename = audit.filename(db, user_id=userId)
    produce = partial(audit.pack, user=user, user_id=userId, language=language(accept_language))
    return _zip_response(streamed(produce), filename)


@router.get(
    "/mediation/{mediationId}/attendanceSheet",
    tags=["mediations"],
    response_class=Response,
    responses={200: {"content": {attendance.MEDIA_TYPE: {}}, "description": "The attendance sheet (PDF)"}},
)
@work
def attendance_sheet(
    db: DB,
    user: CurrentUser,
    mediationId: Annotated[Id, Path()],
    accept_language: AcceptLanguage = None,
) -> Response:
    """The mediation's attendance sheet (A4 PDF, texts in the language of Accept-Language): its title,
    mediator and description, each tracking period, each participant with their electronic signatures
    (printed name, date and time, meaning, modified after signature, revoked) or an empty box, and the
    mediator's validation. For whoever may read the mediation (403 otherwise, 404 mediationNotFound),
    once it is validated (its can.attendanceSheet; 409 mediationNotValidated, errors: the status).
    Counts as a read of the mediation."""
    spoken = language(accept_language)
    ctx = pdf.context(spoken, stamp_by=user.display_name, now=utcnow())
    content = attendance.for_reader(db, user=user, mediation_id=mediationId, ctx=ctx)
    return Response(
        content,
        media_type=attendance.MEDIA_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{attendance.filename(mediationId, spoken)}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )
