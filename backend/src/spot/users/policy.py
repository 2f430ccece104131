"""Who may do what with users: pure functions of the signed-in Principal and the user concerned.

Everyone signed in reads other users' names and groups (people pickers); those who manage users
(perm_UserManagement) and the user themself see more of them."""

from spot.core.principal import Principal
from spot.permissions.names import Permission


def manages_users(viewer: Principal) -> bool:
    """Logins are theirs to see and to search by; the people pickers of everyone else need names."""
    return viewer.may(Permission.UserManagement)


def sees_login(viewer: Principal, user_id: int) -> bool:
    """The login and the e-mail address."""
    return viewer.id == user_id or manages_users(viewer)


def sees_permissions(viewer: Principal, user_id: int) -> bool:
    return viewer.id == user_id or manages_users(viewer)


def can_change_password(viewer: Principal, user_id: int) -> bool:
    return viewer.id == user_id or manages_users(viewer)


def can_delete(viewer: Principal, user_id: int) -> bool:
    """Those who manage users (the route requires it) delete anyone but themselves."""
    return viewer.id != user_id


def can_deactivate(viewer: Principal, user_id: int) -> bool:
    """Those who manage users (the route requires it) deactivate anyone but themselves."""
    return viewer.id != user_id
