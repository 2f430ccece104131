"""The group permissions' routes, under /permission: groups are the users area's, their permissions
the names of spot.permissions (which imports no area)."""

from typing import Annotated

from fastapi import Body, Path

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id, Text
from spot.permissions.names import ALL_PERMISSIONS, Permission
from spot.users import service
from spot.users.schemas import GroupOut

router = api_router(prefix="/permission", tags=["permissions"])
set_permissions = require(Permission.SetPermissions)


@router.get("")
async def permission_names(_: CurrentUser) -> list[str]:
    return ALL_PERMISSIONS


@router.get("/list", dependencies=[set_permissions])
async def groups_with_permissions(db: DB) -> list[GroupOut]:
    return [GroupOut.model_validate(g) for g in service.list_groups(db)]


@router.put("/group/{groupId}", dependencies=[set_permissions])
async def set_group_permissions(
    db: DB,
    group_id: Annotated[Id, Path(alias="groupId")],
    names: Annotated[list[Text], Body(max_length=len(ALL_PERMISSIONS))],
) -> GroupOut:
    group = service.get_group(db, group_id=group_id)
    group = service.set_group_permissions(db, group=group, names=names)
    return GroupOut.model_validate(group)
