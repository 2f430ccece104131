from typing import Annotated

from fastapi import Body, Query, Response
from pydantic import BeforeValidator

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id, Str
from spot.permissions.names import Permission
from spot.querylang.lists import list_route
from spot.training.modules import query, service
from spot.training.modules.schemas import (
    CreatedId,
    EnabledBody,
    ModuleFound,
    ModuleName,
    ModuleOut,
    ModuleSave,
    ModuleUpdate,
    ModuleUsage,
)

router = api_router(tags=["training modules"])
# Every module call needs perm_TrainingManagement (spec 2 §2, §6), except finding modules by name: the
# qualification form picks its modules too (perm_TableauBord, perm_QualificationAdmin).
MANAGE = [require(Permission.TrainingManagement)]
PICK = [require(Permission.TrainingManagement, Permission.TableauBord, Permission.QualificationAdmin)]

Ids = Annotated[list[Id], Body(max_length=1000)]
# `enabled=` left empty (as a form sends it) means either.
Enabled = Annotated[bool | None, BeforeValidator(lambda value: None if value == "" else value), Query()]

list_route(
    router,
    "/training/module/query",
    query.TRAINING_MODULES,
    name="query_training_modules",
    description="A page of the training modules, filtered and sorted with the query language (fields: GET "
    "/querylang/trainingModule/fields). Needs perm_TrainingManagement.",
    dependencies=MANAGE,
)


@router.post("/training/module/getTrainingModuleNames", dependencies=PICK)
async def training_module_names(db: DB, ids: Ids) -> list[ModuleName]:
    """Needs perm_TrainingManagement, perm_TableauBord or perm_QualificationAdmin. The names of these
    modules, in the order given; unknown ids are left out."""
    return service.names(db, ids=ids)


@router.get("/training/module/search", dependencies=PICK)
async def search_training_modules(
    db: DB,
    name: Annotated[Str, Query(max_length=300)] = "",
    enabled: Enabled = None,
) -> list[ModuleFound]:
    """Needs perm_TrainingManagement, perm_TableauBord or perm_QualificationAdmin. At most 30 modules
    whose name contains `name` (case and accents ignored), by name; `enabled` keeps only enabled (true)
    or disabled (false) ones."""
    return service.search(db, name=name, enabled=enabled)


@router.post("/training/module", dependencies=MANAGE)
async def create_training_module(db: DB, user: CurrentUser, data: ModuleSave) -> CreatedId:
    """A new module, enabled, the user its creator."""
    return CreatedId(id=service.create(db, user=user, data=data))


@router.get("/training/module/{trainingModuleId}", dependencies=MANAGE)
async def training_module(db: DB, user: CurrentUser, trainingModuleId: Id) -> ModuleOut:
    """The module with its elements resolved for the reader: a spot element the reader may not see has
    `readable` false (insufficientRightsToView), a course item removed from the learning platform `found`
    false (lmsElementNotFound)."""
    return service.read(db, user=user, module_id=trainingModuleId)


@router.post("/training/module/{trainingModuleId}", dependencies=MANAGE)
async def update_training_module(
    db: DB,
    user: CurrentUser,
    trainingModuleId: Id,
    data: ModuleUpdate,
) -> ModuleOut:
    """409 trainingModuleUsedByAcceptedPath once a path using it was accepted; 409 staleVersion."""
    service.update(db, user=user, module_id=trainingModuleId, data=data)
    return service.read(db, user=user, module_id=trainingModuleId)


@router.delete("/training/module/{trainingModuleId}", status_code=204, dependencies=MANAGE)
async def delete_training_module(db: DB, user: CurrentUser, trainingModuleId: Id) -> Response:
    """409 trainingModuleInUse while a path uses it."""
    service.delete_module(db, user=user, module_id=trainingModuleId)
    return Response(status_code=204)


@router.post("/training/module/{trainingModuleId}/setEnabled", dependencies=MANAGE)
async def set_training_module_enabled(
    db: DB,
    user: CurrentUser,
    trainingModuleId: Id,
    data: EnabledBody,
) -> ModuleOut:
    """Whatever uses the module; a disabled module cannot be added to a new path."""
    service.set_enabled(db, user=user, module_id=trainingModuleId, enabled=data.enabled)
    return service.read(db, user=user, module_id=trainingModuleId)


@router.get("/training/module/{trainingModuleId}/usage", dependencies=MANAGE)
async def training_module_usage(db: DB, trainingModuleId: Id) -> ModuleUsage:
    """How many paths assign it, and whether one of them was accepted (the module is then frozen)."""
    service.exists_or_404(db, module_id=trainingModuleId)
    return service.usage(db, module_id=trainingModuleId)
