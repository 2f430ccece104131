"""POST /user/import: people and their groups from a file, a dry run or applied (docs/people.md). It
writes the users area's people, under its prefix."""

from typing import Annotated

from fastapi import Depends, Query, Request

from spot.core import files
from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ErrorBody
from spot.core.routing import api_router, work
from spot.people import service
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
    responses={
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
) -> ImportReport:
    """A CSV (UTF-8, comma or semicolon) or XLSX file of people: columns login, firstName, lastName,
    externalId, email, groups (names separated by |), active. Each row matched on its external id, else
    its login. A dry run (the default) tells each row's outcome; applying changes everything or, when
    any row is refused, nothing (applied: false)."""
    return service.run(db, data=data, dry_run=dry_run, deactivate_missing=deactivate_missing, importer=user)
