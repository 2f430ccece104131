"""Who manages API tokens: those who manage users, since a SCIM token creates, changes and
deactivates people (the command line is the server's operator)."""

from spot.core.principal import Principal
from spot.permissions.names import Permission


def can_manage(user: Principal) -> bool:
    return user.may(Permission.UserManagement)
