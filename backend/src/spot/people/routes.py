"""POST /user/import: people and their groups from a file, a dry run or applied (docs/people.md). It
writes the users area's people, under its prefix."""

from typing import Annotated, Any

from fastapi import Depends, Query, Request
from fastapi.responses import JSONResponse

from spot.core import files
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ErrorBody
from spot.core.routing import api_router, work
from spot.jobs import runner
from spot.jobs import service as jobs_service
from spot.jobs.schemas import JobOut
from spot.people import jobs, service
from spot.people.schemas import ImportReport
from spot.permissions.names import Permission

router = api_router(prefix="/user", tags=["users"])

# The upload limit of every file (DESIGN §5).
MAX_FILE_BYTES = 30_000_000

FILE_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "text/csv": {"schema": {"type": "string", "format": "binary"}},
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {
                "schema": {"type": "string", "format": "binary"}
            },
        },
    }
}


async def file_body(request: Request) -> bytes:
    return await files.bounded_body(request, MAX_FILE_BYTES)


@router.post(
    "/import",
    dependencies=[require(Permission.UserManagement)],
    openapi_extra=FILE_BODY,
    response_model=ImportReport,
    responses={
        202: {"model": JobOut, "description": "Applying: the job that applies the file"},
        400: {"model": ErrorBody, "description": "Bad Request"},
        413: {"model": ErrorBody, "description": "Content Too Large"},
    },
)
@work
def import_people(
    db: DB,
    user: CurrentUser,
    data: Annotated[bytes, Depends(file_body)],
    dry_run: Annotated[bool, Query(alias="dryRun")] = True,
    deactivate_missing: Annotated[bool, Query(alias="deactivateMissing")] = False,
) -> Any:
    """A CSV (UTF-8, comma or semicolon) or XLSX file of people: columns login, firstName, lastName,
    externalId, email, groups (names separated by |), active. Each row matched on its external id, else
    its login. A dry run (the default) answers each row's outcome (200). Applying answers at once with
    its job (202; GET /jobs/{id} tells when it ended): the job changes everything or, when any row is
    refused, nothing (its summary's report: applied false); its summary.report gives the counts, every
    refused row and the first 100 others; a file it cannot read, or the last administrator deactivated,
    fail the job with that message key."""
    if dry_run:
        return service.run(db, data=data, dry_run=True, deactivate_missing=deactivate_missing, importer=user)
    job = runner.enqueue(
        db,
        owner_id=user.id,
        kind=jobs.IMPORT,
        parameters={"deactivateMissing": deactivate_missing},
        language="fr",
        input=data,
        input_extension="xlsx" if data.startswith(b"PK") else "csv",
    )
    return JSONResponse(jobs_service.out(user, job).model_dump(mode="json", by_alias=True), status_code=202)
