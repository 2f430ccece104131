from typing import Annotated

from fastapi import Body, Request, Response

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, hot_read
from spot.core.schemas import Id, json_response
from spot.mapping.routes import IMAGE_RESPONSES, image_response
from spot.permissions.names import Permission
from spot.querylang.lists import list_route
from spot.subjects import function_view, query, service
from spot.subjects.schemas import (
    CreatedId,
    CriticityTable,
    FunctionView,
    PreventionMeasuresSave,
    Ratings,
    StandardizeBody,
    SubjectOut,
    SubjectSave,
    SubjectUpdate,
    Visit,
)

router = api_router(tags=["subjects"])


@router.post("/subject", dependencies=[require(Permission.EditPdv)])
async def create_subject(db: DB, user: CurrentUser, data: SubjectSave) -> CreatedId:
    """Needs perm_EditPdv."""
    return CreatedId(id=service.create(db, user=user, data=data).id)


list_route(
    router,
    "/subject/query",
    query.SUBJECTS,
    name="query_subjects",
    description="A page of the subjects the user may see, filtered and sorted with the query language "
    "(fields: GET /querylang/subject/fields).",
)


@router.get("/subject/criticity")
async def criticity_table(user: CurrentUser) -> CriticityTable:
    """The criticity level of every frequency × gravity rating (spec 1 §4), for any signed-in user."""
    return service.criticity_table()


@router.get("/subject/{subjectId}")
@hot_read
async def subject(db: DB, user: CurrentUser, subjectId: Id) -> SubjectOut:
    """The subject; counts as a read and as a visit."""
    return service.read(db, user=user, subject_id=subjectId)


@router.post("/subject/{subjectId}", dependencies=[require(Permission.EditPdv)])
async def update_subject(db: DB, user: CurrentUser, subjectId: Id, data: SubjectUpdate) -> SubjectOut:
    """Needs perm_EditPdv; the cartography cannot change; a stale version answers 409."""
    subject = service.update(
        db, user=user, subject=service.get(db, user=user, subject_id=subjectId), data=data
    )
    return service.view(db, user=user, subject=subject)


@router.delete("/subject/{subjectId}", status_code=204, dependencies=[require(Permission.RemPdv)])
async def delete_subject(db: DB, user: CurrentUser, subjectId: Id) -> Response:
    """Needs perm_RemPdv."""
    service.delete(db, user=user, subject=service.get(db, user=user, subject_id=subjectId))
    return Response(status_code=204)


@router.post("/subject/{subjectId}/duplicate", dependencies=[require(Permission.EditPdv)])
async def duplicate_subject(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    data: Annotated[SubjectSave | None, Body()] = None,
) -> CreatedId:
    """Needs perm_EditPdv. Without a body the copy keeps the name and links; with the subject
    form's body (CreateFromSubject) it takes those."""
    source = service.get(db, user=user, subject_id=subjectId)
    return CreatedId(id=service.duplicate(db, user=user, subject=source, data=data).id)


@router.post("/subject/{subjectId}/follow")
async def follow(db: DB, user: CurrentUser, subjectId: Id) -> SubjectOut:
    subject = service.follow(db, user=user, subject=service.get(db, user=user, subject_id=subjectId))
    return service.view(db, user=user, subject=subject)


@router.post("/subject/{subjectId}/resolve")
async def resolve(db: DB, user: CurrentUser, subjectId: Id) -> SubjectOut:
    """Also marks the subject followed when it was not."""
    subject = service.resolve(db, user=user, subject=service.get(db, user=user, subject_id=subjectId))
    return service.view(db, user=user, subject=subject)


@router.post("/subject/{subjectId}/rate")
async def rate(db: DB, user: CurrentUser, subjectId: Id, ratings: Ratings) -> SubjectOut:
    """Frequency and gravity 0-5 (0 is 'not defined'); the client sends detectability 0."""
    subject = service.rate(
        db, user=user, subject=service.get(db, user=user, subject_id=subjectId), ratings=ratings
    )
    return service.view(db, user=user, subject=subject)


@router.post("/subject/{subjectId}/standardize", dependencies=[require(Permission.ValidNotHaute)])
async def standardize(
    db: DB,
    user: CurrentUser,
    subjectId: Id,
    body: Annotated[StandardizeBody | None, Body()] = None,
) -> SubjectOut:
    """Needs perm_ValidNotHaute."""
    subject = service.get(db, user=user, subject_id=subjectId)
    subject = service.standardize(db, user=user, subject=subject, comment=body.comment if body else "")
    return service.view(db, user=user, subject=subject)


@router.post("/subject/{subjectId}/preventionMeasures", dependencies=[require(Permission.EditPdv)])
async def prevention_measures(
    db: DB, user: CurrentUser, subjectId: Id, data: PreventionMeasuresSave
) -> SubjectOut:
    """Needs perm_EditPdv, as editing the subject; a stale version answers 409 staleVersion."""
    subject = service.get(db, user=user, subject_id=subjectId)
    subject = service.set_prevention_measures(db, user=user, subject=subject, data=data)
    return service.view(db, user=user, subject=subject)


@router.get("/subject/{subjectId}/picture", response_class=Response, responses=IMAGE_RESPONSES)
async def picture(db: DB, user: CurrentUser, request: Request, subjectId: Id) -> Response:
    return image_response(request, service.picture(db, user=user, subject_id=subjectId))


@router.get("/function/{functionId}", response_model=FunctionView)
@hot_read
async def function(db: DB, user: CurrentUser, functionId: Id) -> Response:
    """The function view: its context and, per top-level activity of the cartography, the
    subjects of this function in that activity and its sub-activities."""
    return json_response(function_view.read(db, user=user, function_id=functionId))


@router.get("/account/visits")
async def visits(db: DB, user: CurrentUser) -> list[Visit]:
    """When the user last visited each subject they may still see."""
    return service.visits(db, user=user)
