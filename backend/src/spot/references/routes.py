"""Training references (spec 2 §7 References). `{type}` is module, path, function, subject or
qualification; any other word answers 404."""

from typing import Annotated

from fastapi import Query, Response

from spot.core.auth import DB, CurrentUser, require
from spot.core.errors import ensure, not_found
from spot.core.routing import api_router
from spot.core.schemas import Str
from spot.permissions.names import Permission
from spot.querylang.lists import list_route
from spot.references import policy, query, service
from spot.references.schemas import ReferenceCard, ReferenceOut, ReferenceSave, ReferenceUsage

router = api_router(tags=["references"])
ADMIN = [require(Permission.TrainingReferenceAdmin)]

for _type, _spec in query.LISTS.items():
    list_route(
        router,
        f"/training/references/query/{_type.value}",
        _spec,
        name=f"query_{_type.value}_references",
        description=f"A page of the {_type.value} references, filtered and sorted with the query language "
        f"(fields: GET /querylang/{query.entity_name(_type)}/fields). Needs perm_TrainingReferenceAdmin.",
        dependencies=ADMIN,
    )


@router.post("/training/references/query/{type}", include_in_schema=False, dependencies=ADMIN)
async def query_unknown_type(type: str) -> None:
    """The lists above are one route per type: any other word is an unknown address."""
    raise not_found("referenceTypeNotFound")


@router.get("/training/references/{type}/search")
async def search_references(
    db: DB,
    user: CurrentUser,
    type: str,
    text: Annotated[Str, Query(max_length=300)] = "",
) -> list[ReferenceCard]:
    """The autocomplete: at most 30 enabled references whose code, label or description contains
    `text` (case and accents ignored), in code order. Open to perm_TrainingReferenceAdmin,
    perm_TrainingManagement and perm_TrainingPathAdmin."""
    ensure(policy.can_read(user))
    return service.search(db, type=service.reference_type(type), text=text)


@router.get("/training/references/{type}/{code}")
async def reference(db: DB, user: CurrentUser, type: str, code: str) -> ReferenceOut:
    """Open to perm_TrainingReferenceAdmin, perm_TrainingManagement and perm_TrainingPathAdmin."""
    ensure(policy.can_read(user))
    found = service.get(db, type=service.reference_type(type), code=code)
    return service.view(db, user=user, reference=found)


@router.post("/training/references/{type}", dependencies=ADMIN)
async def save_reference(db: DB, user: CurrentUser, type: str, data: ReferenceSave) -> ReferenceOut:
    """Create or save: without `version` (the spec's payload) creates the reference, or saves the one of
    that code; `version` 0 only creates (409 alreadyExists on `code` when the code is taken); another
    version saves the one of that code (a stale version answers 409 staleVersion; the code never
    changes). Needs perm_TrainingReferenceAdmin."""
    saved = service.save(db, user=user, type=service.reference_type(type), data=data)
    return service.view(db, user=user, reference=saved)


@router.get("/training/references/{type}/{code}/usage", dependencies=ADMIN)
async def reference_usage(db: DB, type: str, code: str) -> ReferenceUsage:
    """Module references: the modules using it; path references: the paths using it; other types: 0."""
    found = service.get(db, type=service.reference_type(type), code=code)
    return ReferenceUsage(usage=service.usage(db, reference=found))


@router.delete("/training/references/{type}/{code}", status_code=204, dependencies=ADMIN)
async def delete_reference(db: DB, user: CurrentUser, type: str, code: str) -> Response:
    """409 referenceInUse while a module or a path uses it. Needs perm_TrainingReferenceAdmin."""
    service.delete(db, user=user, reference=service.get(db, type=service.reference_type(type), code=code))
    return Response(status_code=204)
