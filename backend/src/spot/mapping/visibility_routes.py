"""Who sees which cartographies, per group (the rule is spot.mapping.policy's): the permission
screen's routes, under /permission with the other permission routes, kept beside the rule they set."""

from typing import Annotated

from fastapi import Path

from spot.core.auth import DB, require
from spot.core.routing import api_router
from spot.core.schemas import Id
from spot.mapping import visibility
from spot.permissions.names import Permission
from spot.permissions.schemas import AllowedGroup, AllowedItems, PermissionItemType, TreeNode
from spot.users import service as users_service
from spot.users.models import User

router = api_router(prefix="/permission", tags=["permissions"])
set_permissions = require(Permission.SetPermissions)


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
