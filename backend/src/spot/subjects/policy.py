"""Who may do what with a subject (spec 1 §6). Reading is decided by cartography visibility
(spot.mapping.policy); these rules apply to subjects the user can already see."""

from spot.core.errors import forbidden
from spot.core.principal import Principal
from spot.mapping.models import Function
from spot.permissions.names import Permission
from spot.subjects.models import Subject
from spot.subjects.schemas import FunctionCan, SubjectCan


def can_create(user: Principal) -> bool:
    return Permission.EditPdv in user.permission_names


def can_edit(user: Principal, subject: Subject) -> bool:
    return Permission.EditPdv in user.permission_names


def can_duplicate(user: Principal, subject: Subject) -> bool:
    return Permission.EditPdv in user.permission_names


def can_delete(user: Principal, subject: Subject) -> bool:
    return Permission.RemPdv in user.permission_names


def can_standardize(user: Principal, subject: Subject) -> bool:
    return Permission.ValidNotHaute in user.permission_names


def can_mark(user: Principal, subject: Subject) -> bool:
    """Follow, resolve and rate: any signed-in user who sees the subject."""
    return True


def can(user: Principal, subject: Subject) -> SubjectCan:
    mark = can_mark(user, subject)
    return SubjectCan(
        edit=can_edit(user, subject),
        delete=can_delete(user, subject),
        duplicate=can_duplicate(user, subject),
        standardize=can_standardize(user, subject),
        follow=mark,
        resolve=mark,
        rate=mark,
    )


def can_on_function(user: Principal, function: Function) -> FunctionCan:
    """The function's page offers to add subjects to it to those who may create subjects."""
    return FunctionCan(create=can_create(user))


def ensure(allowed: bool) -> None:
    if not allowed:
        raise forbidden()
