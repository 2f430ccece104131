import logging
from collections.abc import Callable, Iterable

from sqlalchemy import ColumnElement, delete, exists, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from spot.core.errors import ApiError, FieldError, conflict, not_found
from spot.core.passwords import hash_password
from spot.core.principal import Principal
from spot.core.time import utcnow
from spot.db import Base
from spot.permissions.models import GroupPermission
from spot.permissions.names import ALL_PERMISSIONS, Permission
from spot.users import policy
from spot.users.models import Group, User, user_group
from spot.users.schemas import UserCreate, UserUpdate

log = logging.getLogger("spot.security")

SEARCH_LIMIT = 30

# What is the person's own and goes with them when they are deleted: sessions, memberships, visibility
# grants, what they read or saved for themselves. Any other row that names a person is history (a
# signature, a grading, a path, a mediation, an entry of the journal...): a person named there is
# deactivated, never deleted (has_history).
OWN_STATE = frozenset(
    {
        "session_token",
        "user_group",
        "discussion_read",
        "subject_visit",
        "saved_filter",
        "saved_filter_set",
        "report_configuration",
        "job",
        "mediation_visible_person",
        "training_path_visible_person",
        "lms_state",
    }
)

# Called with (db, user id) when a person is deactivated, in the same transaction: the account area
# ends their sessions there.
on_deactivation: list[Callable[[Session, int], None]] = []
# Called with (db, user id) before a person is deleted, in the same transaction: an area whose rows of
# the person's own state (OWN_STATE) hold stored files retires them there (the jobs' results).
on_removal: list[Callable[[Session, int], None]] = []


def holders(db: Session, permission: Permission) -> list[int]:
    """The active people holding a permission (through one of their groups), by id."""
    return list(
        db.scalars(
            select(User.id)
            .join(user_group, user_group.c.user_id == User.id)
            .join(GroupPermission, GroupPermission.group_id == user_group.c.group_id)
            .where(GroupPermission.name == str(permission), User.active.is_(True))
            .distinct()
            .order_by(User.id)
        )
    )


def ensure_an_administrator_remains(db: Session) -> None:
    """Refuse a change that would leave nobody able to manage permissions."""
    db.flush()
    holder = select(GroupPermission.group_id).where(GroupPermission.name == Permission.SetPermissions)
    active = select(User.id).where(User.active)
    if not db.scalar(
        select(exists().where(user_group.c.group_id.in_(holder), user_group.c.user_id.in_(active)))
    ):
        raise conflict("lastAdministrator")


def set_group_permissions(db: Session, *, group: Group, names: list[str]) -> Group:
    unknown = sorted(set(names) - set(ALL_PERMISSIONS))
    if unknown:
        errors = [FieldError(field=name, code="unknownPermission") for name in unknown]
        raise ApiError(400, "unknownPermission", errors)
    group.permissions = [GroupPermission(group_id=group.id, name=n) for n in sorted(set(names))]
    ensure_an_administrator_remains(db)
    log.info("group permissions changed group_id=%s permissions=%s", group.id, sorted(set(names)))
    return group


def get(db: Session, *, user_id: int) -> User:
    user = db.get(User, user_id)
    if user is None:
        raise not_found("userNotFound")
    return user


def get_by(db: Session, **where: str) -> User:
    user = db.scalar(select(User).filter_by(**where))
    if user is None:
        raise not_found("userNotFound")
    return user


def _name_filter(name: str, *, by_login: bool) -> ColumnElement[bool]:
    """Part of the name in either order, of the external id, and of the login when `by_login`; % and _
    are plain characters."""
    text = name.strip().lower()
    columns = [
        User.first_name + " " + User.last_name,
        User.last_name + " " + User.first_name,
        User.external_id,
        *([User.login] if by_login else []),
    ]
    return or_(*(func.lower(column).contains(text, autoescape=True) for column in columns))


def search(
    db: Session, *, name: str, by_login: bool, include_inactive: bool = False, limit: int = SEARCH_LIMIT
) -> list[User]:
    """Active people only unless `include_inactive` (those who left are not picked, but a filter on
    what people did finds them); `by_login`: whether the login is searched too (only for those who may
    see logins)."""
    query = select(User).order_by(User.last_name, User.first_name, User.id).limit(limit)
    if not include_inactive:
        query = query.where(User.active)
    if name.strip():
        query = query.where(_name_filter(name, by_login=by_login))
    return list(db.scalars(query))


def by_name(db: Session, *, name: str) -> User:
    """The one user whose display name (first + last) is exactly this, ignoring case."""
    user = db.scalar(
        select(User)
        .where(func.lower(User.first_name + " " + User.last_name) == name.strip().lower())
        .order_by(User.id)
        .limit(1)
    )
    if user is None:
        raise not_found("userNotFound")
    return user


def by_ids(db: Session, *, ids: list[int]) -> list[User]:
    if not ids:
        return []
    return list(db.scalars(select(User).where(User.id.in_(ids)).order_by(User.last_name, User.first_name)))


def by_groups(db: Session, *, group_ids: list[int]) -> list[User]:
    """The active members of the groups (a picker adding a group adds the people it holds now)."""
    if not group_ids:
        return []
    query = (
        select(User)
        .where(User.active)
        .where(User.id.in_(select(user_group.c.user_id).where(user_group.c.group_id.in_(group_ids))))
        .order_by(User.last_name, User.first_name)
    )
    return list(db.scalars(query))


def _groups(db: Session, group_ids: list[int]) -> list[Group]:
    groups = list(db.scalars(select(Group).where(Group.id.in_(group_ids)))) if group_ids else []
    if len(groups) != len(set(group_ids)):
        raise ApiError(400, "unknownGroup", [FieldError(field="groupIds", code="invalidValue")])
    return groups


def _taken(field: str, code: str) -> ApiError:
    return ApiError(409, code, [FieldError(field=field, code=code)])


def _check_unique(
    db: Session, *, login: str, external_id: str | None, email: str | None, user_id: int | None
) -> None:
    others = select(User.id).where(User.id != (user_id or 0))
    if db.scalar(others.where(User.login == login)):
        raise _taken("login", "loginAlreadyUsed")
    if external_id and db.scalar(others.where(User.external_id == external_id)):
        raise _taken("externalId", "externalIdAlreadyUsed")
    if email and db.scalar(others.where(User.email == email)):
        raise _taken("email", "emailAlreadyUsed")


def _flush_unique(
    db: Session, *, login: str, external_id: str | None, email: str | None, user_id: int | None
) -> None:
    """A concurrent request may take the login, external id or e-mail between the check and the write."""
    try:
        db.flush()
    except IntegrityError as exc:
        db.rollback()
        _check_unique(db, login=login, external_id=external_id, email=email, user_id=user_id)
        raise _taken("login", "loginAlreadyUsed") from exc


async def create(db: Session, *, data: UserCreate) -> User:
    """The password is hashed in the thread pool, before anything is read or written."""
    password_hash = await run_in_threadpool(hash_password, data.password)
    external_id = (data.external_id or "").strip() or None
    _check_unique(db, login=data.login, external_id=external_id, email=data.email, user_id=None)
    user = User(
        login=data.login,
        first_name=data.first_name.strip(),
        last_name=data.last_name.strip(),
        external_id=external_id,
        email=data.email,
        language=data.language,
        password_hash=password_hash,
        groups=_groups(db, data.group_ids),
    )
    db.add(user)
    _flush_unique(db, login=data.login, external_id=external_id, email=data.email, user_id=None)
    log.info("user created user_id=%s login=%r", user.id, user.login)
    return user


def update(db: Session, *, user: User, data: UserUpdate) -> User:
    external_id = (data.external_id or "").strip() or None
    _check_unique(db, login=data.login, external_id=external_id, email=data.email, user_id=user.id)
    user.login = data.login
    user.first_name = data.first_name.strip()
    user.last_name = data.last_name.strip()
    user.external_id = external_id
    user.email = data.email
    if data.language is not None:
        user.language = data.language
    _flush_unique(db, login=data.login, external_id=external_id, email=data.email, user_id=user.id)
    if data.group_ids is not None:
        set_groups(db, user=user, group_ids=data.group_ids)
    return user


def provision(
    db: Session,
    *,
    user: User | None,
    login: str,
    first_name: str,
    last_name: str,
    external_id: str | None,
    email: str | None,
    language: str | None,
) -> User:
    """A person as another system describes them (SCIM): created without a password (they sign in
    through the identity provider), or updated; the same uniqueness as on the users screen."""
    user_id = user.id if user else None
    _check_unique(db, login=login, external_id=external_id, email=email, user_id=user_id)
    if user is None:
        user = User(login=login)
        db.add(user)
    user.login = login
    user.first_name = first_name.strip()
    user.last_name = last_name.strip()
    user.external_id = external_id
    user.email = email
    if language is not None:
        user.language = language
    _flush_unique(db, login=login, external_id=external_id, email=email, user_id=user_id)
    return user


def set_groups(db: Session, *, user: User, group_ids: list[int]) -> User:
    user.groups = _groups(db, group_ids)
    ensure_an_administrator_remains(db)
    log.info("user groups changed user_id=%s groups=%s", user.id, sorted(group_ids))
    return user


async def change_password(db: Session, *, user: User, password: str) -> None:
    user.password_hash = await run_in_threadpool(hash_password, password)
    log.info("password changed user_id=%s", user.id)


def has_history(db: Session, *, user_id: int) -> bool:
    """Whether any row outside the person's own state names them (OWN_STATE)."""
    checks = [
        exists().where(fk.parent == user_id)
        for table in Base.metadata.sorted_tables
        if table.name not in OWN_STATE
        for fk in table.foreign_keys
        if fk.column.table is User.__table__
    ]
    return any(db.scalar(select(check)) for check in checks)


def remove(db: Session, *, user: User, by: Principal) -> None:
    """Only a person nothing refers to yet is deleted (one created by mistake); anyone else is
    deactivated: 409 userHasHistory."""
    if not policy.can_delete(by, user.id):
        raise conflict("cannotDeleteYourself")
    if has_history(db, user_id=user.id):
        raise conflict("userHasHistory")
    for listener in on_removal:
        listener(db, user.id)
    db.delete(user)
    ensure_an_administrator_remains(db)
    log.info("user deleted user_id=%s by=%s", user.id, by.id)


def set_active(db: Session, *, user: User, active: bool, by: Principal | None) -> User:
    """Deactivate a person who left (they can no longer sign in, their sessions end now, they leave the
    pickers and the current figures, and stay named wherever they appear), or reactivate them. `by`:
    who does it; None for the server's operator (spot import-users)."""
    if user.active == active:
        return user
    if not active and by is not None and not policy.can_deactivate(by, user.id):
        raise conflict("cannotDeactivateYourself")
    user.active = active
    user.deactivated_at = None if active else utcnow()
    if active:
        user.deprovisioned_at = None
    if not active:
        ensure_an_administrator_remains(db)
        for listener in on_deactivation:
            listener(db, user.id)
    action = "reactivated" if active else "deactivated"
    log.info("user %s user_id=%s by=%s", action, user.id, by.id if by else "operator")
    return user


def inactive_among(db: Session, ids: Iterable[int | None]) -> list[int]:
    """Those of these people who left (deactivated), in id order: a record that names them marks them
    as inactive."""
    wanted = sorted({i for i in ids if i is not None})
    if not wanted:
        return []
    return list(db.scalars(select(User.id).where(User.id.in_(wanted), ~User.active).order_by(User.id)))


def set_language(db: Session, *, user: User, language: str) -> User:
    user.language = language
    return user


def get_group(db: Session, *, group_id: int) -> Group:
    group = db.get(Group, group_id)
    if group is None:
        raise not_found("groupNotFound")
    return group


def list_groups(db: Session) -> list[Group]:
    return list(db.scalars(select(Group).order_by(Group.name)))


def search_groups(db: Session, *, name: str, limit: int = SEARCH_LIMIT) -> list[Group]:
    query = select(Group).order_by(Group.name).limit(limit)
    if name.strip():
        query = query.where(func.lower(Group.name).contains(name.strip().lower(), autoescape=True))
    return list(db.scalars(query))


def groups_by_ids(db: Session, *, ids: list[int]) -> list[Group]:
    if not ids:
        return []
    return list(db.scalars(select(Group).where(Group.id.in_(ids)).order_by(Group.name)))


def member_counts(db: Session) -> dict[int, int]:
    rows = db.execute(select(user_group.c.group_id, func.count()).group_by(user_group.c.group_id))
    return {group_id: count for group_id, count in rows}


def save_group(db: Session, *, name: str, group: Group | None = None) -> Group:
    if db.scalar(select(Group.id).where(Group.name == name, Group.id != (group.id if group else 0))):
        raise _taken("name", "groupNameAlreadyUsed")
    if group is None:
        group = Group(name=name)
        db.add(group)
    else:
        group.name = name
    try:
        db.flush()
    except IntegrityError as exc:
        raise _taken("name", "groupNameAlreadyUsed") from exc
    return group


def remove_group(db: Session, *, group: Group) -> None:
    db.execute(delete(user_group).where(user_group.c.group_id == group.id))
    db.delete(group)
    ensure_an_administrator_remains(db)
    log.info("group deleted group_id=%s name=%r", group.id, group.name)
