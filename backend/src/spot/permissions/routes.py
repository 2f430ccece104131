from typing import Annotated

from fastapi import Body, Path

from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router
from spot.core.schemas import Id, Text
from spot.mapping import visibility
from spot.permissions import service
from spot.permissions.names import ALL_PERMISSIONS, Permission
from spot.permissions.schemas import AllowedGroup, AllowedItems, PermissionItemType, TreeNode
from spot.users import service as users_service
from spot.users.models import User
from spot.users.schemas import GroupOut

router = api_router(prefix="/permission", tags=["permissions"])
set_permissions = require(Permission.SetPermissions)


@router.get("")
async def permission_names(_: CurrentUser) -> list[str]:
    return ALL_PERMISSIONS


@router.get("/list", dependencies=[set_permissions])
async def groups_with_permissions(db: DB) -> list[GroupOut]:
    return [GroupOut.model_validate(g) for g in users_service.list_groups(db)]


@router.put("/group/{groupId}", dependencies=[set_permissions])
async def set_group_permissions(
    db: DB,
    group_id: Annotated[Id, Path(alias="groupId")],
    names: Annotated[list[Text], Body(max_length=len(ALL_PERMISSIONS))],
) -> GroupOut:
    group = users_service.get_group(db, group_id=group_id)
    group = service.set_group_permissions(db, group=group, names=names)
    return GroupOut.model_validate(group)


# Cartography visibility per group (rule: spot.mapping.policy) -------------------------------------


@router.get("/cartographiesTree", dependencies=[set_permissions])
async def cartographies_tree(db: DB) -> list[TreeNode]:
    """Every site, cartography, activity (nested) and function, whatever one's own visibility."""
    return visibility.cartographies_tree(db)


@router.get("/allowedItemsForGroup/{groupId}", dependencies=[set_permissions])
async def allowed_items_for_group(db: DB, group_id: Annotated[Id, Path(alias="groupId")]) -> AllowedItems:
    """The items the group is restricted to; `restricted: false` (no item) means it sees every cartography."""
    group = users_service.get_group(db, group_id=group_id)
    return visibility.allowed_items(db, group=group)


@router.post("/allowedItemsForGroup/{groupId}")
async def set_allowed_items_for_group(
    db: DB,
    user: Annotated[User, set_permissions],
    group_id: Annotated[Id, Path(alias="groupId")],
    data: AllowedItems,
) -> AllowedItems:
    """Replace the group's items. `restricted: false` with no item lifts the restriction; `restricted: true`
    needs at least one item (400 mustNotBeEmpty), and every item must exist (400, invalidValue on each
    unknown one). The group then sees the cartographies among its items whole, and those of its functions
    and activities limited to them (spot.mapping.policy)."""
    group = users_service.get_group(db, group_id=group_id)
    return visibility.set_allowed_items(db, group=group, data=data, by=user)


@router.get("/allowedGroupsForItem/{itemType}/{itemId}", dependencies=[set_permissions])
async def allowed_groups_for_item(
    db: DB,
    item_type: Annotated[PermissionItemType, Path(alias="itemType")],
    item_id: Annotated[Id, Path(alias="itemId")],
) -> list[AllowedGroup]:
    """The groups that see the item (spot.mapping.policy's rule), the unrestricted ones flagged."""
    return visibility.allowed_groups(db, item_type=item_type, item_id=item_id)
