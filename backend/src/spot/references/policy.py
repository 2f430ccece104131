"""Who may do what with training references (spec 2 §6): perm_TrainingReferenceAdmin manages them;
those who edit modules or paths (perm_TrainingManagement, perm_TrainingPathAdmin) also read one and
search them to choose one."""

from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.references.schemas import ReferenceCan

READERS = (Permission.TrainingReferenceAdmin, Permission.TrainingManagement, Permission.TrainingPathAdmin)


def can_manage(user: Principal) -> bool:
    return Permission.TrainingReferenceAdmin in user.permission_names


def can_read(user: Principal) -> bool:
    return any(permission in user.permission_names for permission in READERS)


def can_delete(user: Principal, usage: int) -> bool:
    """Only a reference nothing uses may go."""
    return can_manage(user) and usage == 0


def can(user: Principal, usage: int) -> ReferenceCan:
    return ReferenceCan(edit=can_manage(user), delete=can_delete(user, usage))
