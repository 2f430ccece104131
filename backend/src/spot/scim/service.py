"""SCIM provisioning (RFC 7644) of Spot's people and groups, through the users area's rules: the same
uniqueness as the users screen, deactivation instead of deletion, an administrator always remaining.
Identity providers' habits are accepted as scim2-models' policy allows them (ScimPolicy below):
attributes Spot does not keep are ignored, Entra ID's `remove` with a value, and its paths whose filter
matches nothing yet."""

from __future__ import annotations

import logging
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError
from scim2_models import (
    Context,
    InvalidValueException,
    NotFoundException,
    PatchOp,
    Resource,
    ScimPolicy,
    SearchRequest,
    UniquenessException,
)
from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.orm import Session

from spot.apitokens.models import ApiToken
from spot.core.schemas import Email
from spot.core.time import utcnow
from spot.scim import filters
from spot.scim.resources import (
    GROUP_SCHEMA,
    USER_SCHEMA,
    _Group,
    _User,
    _UserIn,
    group_resource,
    patchable_user,
)
from spot.users import service as users
from spot.users.models import Group, User, user_group

log = logging.getLogger("spot.security")

POLICY = ScimPolicy(
    unknown=ScimPolicy.Unknown.ignore,
    remove_value_as_filter=ScimPolicy.RemoveValue.apply,
    unmatched_path_filter=ScimPolicy.UnmatchedPathFilter.create,
)
# A page holds at most this many resources (ServiceProviderConfig's filter.maxResults).
MAX_RESULTS = 1000
_email = TypeAdapter(Email)
R = TypeVar("R", bound=Resource[Any])


def parse(model: type[R], body: bytes, context: Context) -> R:
    """A request's resource; 400 invalidValue (or invalidSyntax for what is not JSON) otherwise."""
    try:
        return model.model_validate_json(body, scim_ctx=context, scim_policy=POLICY)
    except ValidationError as exc:
        raise _invalid(exc) from exc


def parse_patch(model: type[R], body: bytes) -> PatchOp[R]:
    try:
        return PatchOp[model].model_validate_json(  # type: ignore[valid-type]
            body, scim_ctx=Context.RESOURCE_PATCH_REQUEST, scim_policy=POLICY
        )
    except ValidationError as exc:
        raise _invalid(exc) from exc


def parse_search(model: type[R], body: bytes) -> SearchRequest[R]:
    try:
        return SearchRequest[model].model_validate_json(  # type: ignore[valid-type]
            body, scim_ctx=Context.SEARCH_REQUEST, scim_policy=POLICY
        )
    except ValidationError as exc:
        raise _invalid(exc) from exc


def _invalid(exc: ValidationError) -> InvalidValueException:
    first = exc.errors()[0] if exc.errors() else {"msg": str(exc)}
    where = ".".join(str(part) for part in first.get("loc", ()))
    return InvalidValueException(detail=f"{where}: {first['msg']}" if where else str(first["msg"]))


def page(start_index: int | None, count: int | None) -> tuple[int, int]:
    """RFC 7644 §3.4.2.4: a start below 1 is 1, a negative count is 0."""
    return max(start_index or 1, 1), min(max(count if count is not None else MAX_RESULTS, 0), MAX_RESULTS)


# People


def get_user(db: Session, user_id: str) -> User:
    """A person the provider sees: 404 for an unknown id and for one it deleted (RFC 7644 §3.6)."""
    digits = user_id.isascii() and user_id.isdigit() and len(user_id) <= 10
    user = db.get(User, int(user_id)) if digits else None
    if user is None or user.deprovisioned_at is not None:
        raise NotFoundException(detail=f"no user {user_id}")
    return user


def list_users(db: Session, *, filter: str | None, start: int, count: int) -> tuple[int, list[User]]:
    query = select(User).where(User.deprovisioned_at.is_(None))
    if filter:
        query = query.where(filters.condition(filter, filters.USER_ATTRIBUTES, USER_SCHEMA))
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    if not count:
        return total, []
    return total, list(db.scalars(query.order_by(User.id).offset(start - 1).limit(count)))


def save_user(db: Session, *, user: User | None, resource: _User, token: ApiToken) -> User:
    """Create a person, or replace what Spot keeps of one (PUT, and a PATCH once applied)."""
    login = (resource.user_name or "").strip()
    if not login or len(login) > 200:
        raise InvalidValueException(detail="userName is required, 200 characters at most")
    name = resource.name
    email = _chosen_email(resource)
    try:
        email = _email.validate_python(email)
    except ValidationError as exc:
        raise InvalidValueException(detail=f"emails: {email!r} is not an e-mail address") from exc
    created = user is None
    # A person the provider deleted comes back under their login or external id (a rehire): the same
    # person, history included, reactivated.
    user = user or _deprovisioned(db, login, resource.external_id)
    user = users.provision(
        db,
        user=user,
        login=login,
        first_name=(name.given_name if name else None) or "",
        last_name=(name.family_name if name else None) or "",
        external_id=(resource.external_id or "").strip() or None,
        email=email,
        language=None,
    )
    active = resource.active is not False
    if user.active != active:
        users.set_active(db, user=user, active=active, by=None)
    log.info("scim user %s user_id=%s token=%s", "created" if created else "saved", user.id, token.id)
    return user


def _deprovisioned(db: Session, login: str, external_id: str | None) -> User | None:
    same = User.login == login
    if external_id and external_id.strip():
        same = or_(same, User.external_id == external_id.strip())
    return db.scalars(select(User).where(User.deprovisioned_at.is_not(None), same).limit(1)).first()


def _chosen_email(resource: _User) -> str | None:
    """Spot keeps one address: the primary one, else the work one, else the first."""
    entries = [entry for entry in resource.emails or [] if entry.value]
    for wanted in (lambda e: getattr(e, "primary", None), lambda e: getattr(e, "type", None) == "work"):
        entries = sorted(entries, key=lambda e: not wanted(e))
    return entries[0].value if entries else None


def patch_user(db: Session, *, user: User, patch: PatchOp[_UserIn], token: ApiToken) -> User:
    """A person's groups are read-only here (scim2-models refuses such an operation as it reads it):
    a provider changes a group's members."""
    resource = patchable_user(user)
    patch.patch(resource, scim_policy=POLICY)
    return save_user(db, user=user, resource=resource, token=token)


def deactivate_user(db: Session, *, user: User, token: ApiToken) -> None:
    """DELETE: a person is never deleted by provisioning, only deactivated (their history stays), and
    the provider no longer sees them."""
    users.set_active(db, user=user, active=False, by=None)
    user.deprovisioned_at = utcnow()
    log.info("scim user deactivated user_id=%s token=%s", user.id, token.id)


# Groups


def get_group(db: Session, group_id: str) -> Group:
    digits = group_id.isascii() and group_id.isdigit() and len(group_id) <= 10
    found = db.get(Group, int(group_id)) if digits else None
    if found is None:
        raise NotFoundException(detail=f"no group {group_id}")
    return found


def member_ids(db: Session, group: Group) -> list[int]:
    """The group's members the provider sees (not those it deleted)."""
    query = (
        select(user_group.c.user_id)
        .join(User, User.id == user_group.c.user_id)
        .where(user_group.c.group_id == group.id, User.deprovisioned_at.is_(None))
        .order_by(user_group.c.user_id)
    )
    return list(db.scalars(query))


def list_groups(db: Session, *, filter: str | None, start: int, count: int) -> tuple[int, list[Group]]:
    query = select(Group)
    if filter:
        query = query.where(filters.condition(filter, filters.GROUP_ATTRIBUTES, GROUP_SCHEMA))
    total = db.scalar(select(func.count()).select_from(query.subquery())) or 0
    if not count:
        return total, []
    return total, list(db.scalars(query.order_by(Group.id).offset(start - 1).limit(count)))


def group_view(db: Session, group: Group, *, with_members: bool = True) -> _Group:
    return group_resource(group, member_ids(db, group) if with_members else None)


def save_group(db: Session, *, group: Group | None, resource: _Group, token: ApiToken) -> Group:
    """Create a group, or replace its name, external id and members (PUT, and a PATCH once applied)."""
    name = (resource.display_name or "").strip()
    if not name or len(name) > 200:
        raise InvalidValueException(detail="displayName is required, 200 characters at most")
    wanted = _member_ids(db, resource)
    external_id = (resource.external_id or "").strip() or None
    if external_id and db.scalar(
        select(Group.id).where(Group.external_id == external_id, Group.id != (group.id if group else 0))
    ):
        raise UniquenessException(detail="externalId is already another group's")
    group = users.save_group(db, name=name, group=group)
    group.external_id = external_id
    current = set(member_ids(db, group))
    leaving, joining = current - wanted, wanted - current
    if leaving:
        db.execute(
            delete(user_group).where(user_group.c.group_id == group.id, user_group.c.user_id.in_(leaving))
        )
    if joining:
        db.execute(insert(user_group), [{"user_id": uid, "group_id": group.id} for uid in sorted(joining)])
    db.flush()
    db.expire_all()
    if leaving:
        users.ensure_an_administrator_remains(db)
    log.info(
        "scim group saved group_id=%s joined=%s left=%s token=%s",
        group.id,
        len(joining),
        len(leaving),
        token.id,
    )
    return group


def _member_ids(db: Session, resource: _Group) -> set[int]:
    """The people the resource names as members, each one known, or 400 invalidValue."""
    values = [
        member.value or (str(member.ref).rsplit("/", 1)[-1] if member.ref else "")
        for member in resource.members or []
    ]
    ids = {int(value) for value in values if value.isascii() and value.isdigit() and len(value) <= 10}
    if len(ids) != len(set(values)):
        raise InvalidValueException(detail="members: each member is a user's id")
    visible = select(User.id).where(User.id.in_(ids), User.deprovisioned_at.is_(None))
    known = set(db.scalars(visible)) if ids else set()
    if known != ids:
        raise InvalidValueException(
            detail=f"members: no user {', '.join(str(i) for i in sorted(ids - known))}"
        )
    return ids


def patch_group(db: Session, *, group: Group, patch: PatchOp[_Group], token: ApiToken) -> Group:
    resource = group_view(db, group)
    patch.patch(resource, scim_policy=POLICY)
    return save_group(db, group=group, resource=resource, token=token)


def delete_group(db: Session, *, group: Group, token: ApiToken) -> None:
    users.remove_group(db, group=group)
    log.info("scim group deleted group_id=%s token=%s", group.id, token.id)
