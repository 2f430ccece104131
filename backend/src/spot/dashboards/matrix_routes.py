"""The skills matrix of a cartography (dashboards.matrix) and its Excel and PDF files
(dashboards.matrix_files): work routes, as the qualification dashboards (they weigh the holds of
everyone the cartography's qualifications concern, in Python: off the event loop, DESIGN §1)."""

from datetime import datetime
from typing import Annotated
from zoneinfo import ZoneInfo

from fastapi import Depends, Header, Query
from fastapi.responses import Response, StreamingResponse

from spot.config import get_settings
from spot.core import time as clock
from spot.core.auth import DB, CurrentUser, require
from spot.core.i18n import language
from spot.core.principal import Principal
from spot.core.routing import api_router, work
from spot.core.schemas import Id, json_response
from spot.dashboards import matrix, matrix_files
from spot.dashboards.matrix import CellState, Sort
from spot.dashboards.matrix_schemas import SkillsMatrix
from spot.permissions.names import Permission

router = api_router(tags=["dashboards"])

_MATRIX = "/dashboards/cartography/{cartographyId}/matrix"
AcceptLanguage = Annotated[str | None, Header(description="fr (the default) or en")]


async def _filters(
    group: Annotated[list[Id] | None, Query(description="Rows: the members of these groups (any)")] = None,
    function: Annotated[list[Id] | None, Query(description="Columns: these functions (default all)")] = None,
    state: Annotated[
        list[CellState] | None,
        Query(description="Rows with a cell shown in one of these states (default all)"),
    ] = None,
    sort: Annotated[
        Sort, Query(description="name, or held: functions held, most first, then name")
    ] = Sort.name,
) -> matrix.Filters:
    return matrix.Filters(
        groups=frozenset(group or ()),
        functions=frozenset(function or ()),
        states=frozenset(s.value for s in state or ()),
        sort=sort,
    )


Filters = Annotated[matrix.Filters, Depends(_filters)]


def _made(user: Principal) -> matrix_files.Made:
    return matrix_files.Made(by=user.display_name, at=datetime.now(ZoneInfo(get_settings().timezone)))


def _download(body: object, media_type: str, name: str) -> StreamingResponse:
    return StreamingResponse(
        body,  # type: ignore[arg-type]
        media_type=media_type,
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


@router.get(_MATRIX, dependencies=[require(Permission.TableauBord)], response_model=SkillsMatrix)
@work
def skills_matrix(db: DB, user: CurrentUser, cartographyId: Id, filters: Filters) -> Response:
    """Needs perm_TableauBord; 404 unknown cartography, 403 hidden from the user. A column per function
    of the cartography the user sees, a row per person concerned by a qualification naming it, each
    cell the person's state for the function (docs/qualifications.md, "The skills matrix"); each
    column's foot: the people qualified, the minimum, the level, the cells shown by state."""
    found = matrix.matrix(db, user=user, cartography_id=cartographyId, today=clock.today(), filters=filters)
    return json_response(found.as_json())


@router.get(
    _MATRIX + "/excel",
    dependencies=[require(Permission.TableauBord)],
    response_class=Response,
    responses={200: {"content": {matrix_files.XLSX_MEDIA_TYPE: {}}, "description": "The xlsx file"}},
)
@work
def skills_matrix_excel(
    db: DB, user: CurrentUser, cartographyId: Id, filters: Filters, accept_language: AcceptLanguage = None
) -> Response:
    """Needs perm_TableauBord; 404, 403 as the matrix. The matrix with the same filters as an xlsx file
    (skills-matrix.xlsx): the matrix sheet (headers and names frozen, cells coloured by state, dates
    as dates, the foot), and a legend sheet; words in the language of Accept-Language."""
    found = matrix.matrix(db, user=user, cartography_id=cartographyId, today=clock.today(), filters=filters)
    body = matrix_files.excel(found, lang=language(accept_language), made=_made(user))
    return _download(body, matrix_files.XLSX_MEDIA_TYPE, matrix_files.filename("xlsx"))


@router.get(
    _MATRIX + "/pdf",
    dependencies=[require(Permission.TableauBord)],
    response_class=Response,
    responses={200: {"content": {matrix_files.PDF_MEDIA_TYPE: {}}, "description": "The PDF file"}},
)
@work
def skills_matrix_pdf(
    db: DB, user: CurrentUser, cartographyId: Id, filters: Filters, accept_language: AcceptLanguage = None
) -> Response:
    """Needs perm_TableauBord; 404, 403 as the matrix. The matrix with the same filters as an A4
    landscape PDF (skills-matrix.pdf), the functions in slices as wide as a page, each page with the
    title, the filters and the legend; words in the language of Accept-Language."""
    found = matrix.matrix(db, user=user, cartography_id=cartographyId, today=clock.today(), filters=filters)
    body = matrix_files.pdf(found, lang=language(accept_language), made=_made(user))
    return _download(iter([body]), matrix_files.PDF_MEDIA_TYPE, matrix_files.filename("pdf"))
