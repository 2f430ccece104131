import logging

from sqlalchemy import exists, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, conflict
from spot.permissions.models import GroupPermission
from spot.permissions.names import ALL_PERMISSIONS, Permission
from spot.users.models import Group, user_group

log = logging.getLogger("spot.security")


def ensure_an_administrator_remains(db: Session) -> None:
    """Refuse a change that would leave nobody able to manage permissions."""
    db.flush()
    holder = select(GroupPermission.group_id).where(GroupPermission.name == Permission.SetPermissions)
    if not db.scalar(select(exists().where(user_group.c.group_id.in_(holder)))):
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
