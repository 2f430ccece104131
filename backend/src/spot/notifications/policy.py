"""Who reads the outbox and sends a test message: those who manage users (the people messages go to)."""

from spot.core.principal import Principal
from spot.permissions.names import Permission


def can_read_outbox(user: Principal) -> bool:
    return user.may(Permission.UserManagement)
