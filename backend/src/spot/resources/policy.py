"""Who may do what with a gallery (spec 1 §6). Reading follows the parent's visibility
(core.parents); these rules apply to galleries the user can already see."""

from spot.core.principal import Principal
from spot.permissions.names import Permission
from spot.resources.schemas import ResourceCan


def can_edit(user: Principal) -> bool:
    """Add, edit, delete and reorder resources."""
    return Permission.EditResourcesVideos in user.permission_names


def can(user: Principal) -> ResourceCan:
    return ResourceCan(edit=can_edit(user))
