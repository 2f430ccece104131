from typing import Annotated, TypeVar

from fastapi import Body, Path, Query, Response
from sqlalchemy.orm import Session

from spot.core.auth import DB, CurrentUser, require
from spot.core.principal import Principal
from spot.core.routing import api_router
from spot.core.schemas import Id, Str, UserName
from spot.permissions.names import Permission
from spot.users import policy, service
from spot.users.models import User
from spot.users.schemas import (
    GroupOut,
    GroupRef,
    GroupSave,
    UserCreate,
    UserGroups,
    UserOut,
    UserUpdate,
    UserWithPermissions,
)

router = api_router(prefix="/user", tags=["users"])
manage = require(Permission.UserManagement)
U = TypeVar("U", bound=UserOut)
Ids = Annotated[list[Id], Body(max_length=1000)]
Name = Annotated[Str, Query(max_length=200)]
UserId = Annotated[Id, Path(alias="userId")]
GroupId = Annotated[Id, Path(alias="groupId")]
# "First Last" as displayed, hence longer than one name.
RequiredName = Annotated[Str, Query(min_length=1, max_length=400)]


class GroupWithMembers(GroupOut):
    members_count: int


class UserGroupsOut(UserName):
    groups: list[GroupRef]


def _names(users: list[User]) -> list[UserName]:
    return [UserName(id=u.id, name=u.display_name) for u in users]


def _shown(viewer: Principal, user: User, model: type[U]) -> U:
    """The user as `viewer` may see them: without the login and e-mail address unless they are their own
    or the viewer manages users."""
    out = model.model_validate(user)
    if not policy.sees_login(viewer, user.id):
        out.login = None
        out.email = None
    return out


@router.get("/search")
async def search_users(
    db: DB,
    viewer: CurrentUser,
    name: Name = "",
    include_inactive: Annotated[bool, Query(alias="includeInactive")] = False,
) -> list[UserOut]:
    """Active users by part of their name or external id (or login, for those who manage users);
    `includeInactive` adds those who left, for filters on what people did."""
    found = service.search(
        db, name=name, by_login=policy.manages_users(viewer), include_inactive=include_inactive
    )
    return [_shown(viewer, u, UserOut) for u in found]


@router.post("/getUserNames")
async def user_names(db: DB, _: CurrentUser, ids: Ids) -> list[UserName]:
    return _names(service.by_ids(db, ids=ids))


@router.post("/byIds")
async def users_by_ids(db: DB, viewer: CurrentUser, ids: Ids) -> list[UserOut]:
    return [_shown(viewer, u, UserOut) for u in service.by_ids(db, ids=ids)]


@router.post("/byGroups")
async def users_by_groups(db: DB, viewer: CurrentUser, ids: Ids) -> list[UserOut]:
    return [_shown(viewer, u, UserOut) for u in service.by_groups(db, group_ids=ids)]


@router.get("/byId/{userId}")
async def get_user(db: DB, viewer: CurrentUser, user_id: UserId) -> UserWithPermissions | UserOut:
    """With the permissions for those who manage users and for the user themself; without, for anyone
    else (people pickers need names, not permissions)."""
    user = service.get(db, user_id=user_id)
    if policy.sees_permissions(viewer, user.id):
        return _shown(viewer, user, UserWithPermissions)
    return _shown(viewer, user, UserOut)


@router.post("/byId/{userId}", dependencies=[manage])
async def update_user(db: DB, user_id: UserId, data: UserUpdate) -> UserWithPermissions:
    user = service.update(db, user=service.get(db, user_id=user_id), data=data)
    return UserWithPermissions.model_validate(user)


@router.delete("/byId/{userId}", status_code=204)
async def delete_user(db: DB, user_id: UserId, user: Annotated[Principal, manage]) -> Response:
    """Only a person nothing refers to yet (created by mistake); anyone else is deactivated instead:
    409 userHasHistory."""
    service.remove(db, user=service.get(db, user_id=user_id), by=user)
    return Response(status_code=204)


@router.post("/byId/{userId}/deactivate")
async def deactivate_user(db: DB, user_id: UserId, user: Annotated[Principal, manage]) -> UserWithPermissions:
    """The person left: they can no longer sign in, their sessions end now, they leave the pickers and
    the current figures, and stay, named, wherever they appear. 409 cannotDeactivateYourself,
    lastAdministrator."""
    person = service.set_active(db, user=service.get(db, user_id=user_id), active=False, by=user)
    return UserWithPermissions.model_validate(person)


@router.post("/byId/{userId}/reactivate")
async def reactivate_user(db: DB, user_id: UserId, user: Annotated[Principal, manage]) -> UserWithPermissions:
    person = service.set_active(db, user=service.get(db, user_id=user_id), active=True, by=user)
    return UserWithPermissions.model_validate(person)


@router.post("/byId/{userId}/groups", dependencies=[manage])
async def set_user_groups(db: DB, user_id: UserId, data: UserGroups) -> UserWithPermissions:
    user = service.set_groups(db, user=service.get(db, user_id=user_id), group_ids=data.group_ids)
    return UserWithPermissions.model_validate(user)


@router.get("/byExternalId/{externalId}")
async def user_by_external_id(
    db: DB, viewer: CurrentUser, external_id: Annotated[Str, Path(alias="externalId", max_length=200)]
) -> UserOut:
    return _shown(viewer, service.get_by(db, external_id=external_id), UserOut)


@router.get("/byName")
async def user_by_name(db: DB, viewer: CurrentUser, name: RequiredName) -> UserOut:
    return _shown(viewer, service.by_name(db, name=name), UserOut)


@router.get("/byLogin", dependencies=[manage])
async def user_by_login(db: DB, login: Annotated[Str, Query(min_length=1, max_length=200)]) -> UserOut:
    """Needs perm_UserManagement: whether a login exists is for those who manage users."""
    return UserOut.model_validate(service.get_by(db, login=login))


@router.put("/create", dependencies=[manage])
async def create_user(db: DB, data: UserCreate) -> UserWithPermissions:
    return UserWithPermissions.model_validate(await service.create(db, data=data))


@router.get("/searchGroup")
async def search_groups(db: DB, _: CurrentUser, name: Name = "") -> list[GroupRef]:
    return [GroupRef.model_validate(g) for g in service.search_groups(db, name=name)]


@router.post("/getGroupNames")
async def group_names(db: DB, _: CurrentUser, ids: Ids) -> list[GroupRef]:
    return [GroupRef.model_validate(g) for g in service.groups_by_ids(db, ids=ids)]


@router.post("/getUserGroups")
async def user_groups(db: DB, _: CurrentUser, ids: Ids) -> list[UserGroupsOut]:
    return [
        UserGroupsOut(id=u.id, name=u.display_name, groups=[GroupRef.model_validate(g) for g in u.groups])
        for u in service.by_ids(db, ids=ids)
    ]


def _with_members(db: Session) -> list[GroupWithMembers]:
    counts = service.member_counts(db)
    return [
        GroupWithMembers(
            id=g.id, name=g.name, permissions=g.permission_names, members_count=counts.get(g.id, 0)
        )
        for g in service.list_groups(db)
    ]


@router.get("/groups", dependencies=[manage])
async def list_groups(db: DB) -> list[GroupWithMembers]:
    return _with_members(db)


@router.put("/group", dependencies=[manage])
async def create_group(db: DB, data: GroupSave) -> GroupOut:
    return GroupOut.model_validate(service.save_group(db, name=data.name))


@router.post("/group/{groupId}", dependencies=[manage])
async def rename_group(db: DB, group_id: GroupId, data: GroupSave) -> GroupOut:
    group = service.save_group(db, name=data.name, group=service.get_group(db, group_id=group_id))
    return GroupOut.model_validate(group)


@router.delete("/group/{groupId}", status_code=204, dependencies=[manage])
async def delete_group(db: DB, group_id: GroupId) -> Response:
    service.remove_group(db, group=service.get_group(db, group_id=group_id))
    return Response(status_code=204)
