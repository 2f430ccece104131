"""Who may do what with a training module (spec 2 §2 'Training module list and view', §4 Training
module, §6): every module call needs perm_TrainingManagement (declared on each route); editing only
while no accepted path uses the module, deleting only while no path uses it; enabling and disabling
always (a disabled module is how one in use is retired: no new path may take it)."""

from spot.core.errors import conflict, forbidden
from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.training.modules.schemas import ModuleCan, ModuleUsage

USED_BY_ACCEPTED_PATH = "trainingModuleUsedByAcceptedPath"
IN_USE = "trainingModuleInUse"


def can_manage(user: Principal) -> bool:
    return Permission.TrainingManagement in user.permission_names


def can_edit(user: Principal, usage: ModuleUsage) -> bool:
    return can_manage(user) and not usage.has_accepted_training_path


def can_delete(user: Principal, usage: ModuleUsage) -> bool:
    return can_manage(user) and usage.training_path == 0


def can_set_enabled(user: Principal) -> bool:
    return can_manage(user)


def can(user: Principal, usage: ModuleUsage) -> ModuleCan:
    return ModuleCan(
        edit=can_edit(user, usage), delete=can_delete(user, usage), set_enabled=can_set_enabled(user)
    )


def ensure_editable(user: Principal, usage: ModuleUsage) -> None:
    """403 without the permission; 409 trainingModuleUsedByAcceptedPath once an accepted path uses it."""
    if not can_manage(user):
        raise forbidden()
    if not can_edit(user, usage):
        raise conflict(USED_BY_ACCEPTED_PATH)


def ensure_deletable(user: Principal, usage: ModuleUsage) -> None:
    """403 without the permission; 409 trainingModuleInUse while a path uses it."""
    if not can_manage(user):
        raise forbidden()
    if not can_delete(user, usage):
        raise conflict(IN_USE)
