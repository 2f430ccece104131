"""The signed-in user as routes, policies and services see it (DESIGN §4)."""

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Principal:
    """Who makes the request: read in the one statement of the session lookup
    (account.service.principal_for), never an ORM row, so nothing can load lazily from it and it
    can cross threads (work routes). `group_ids` are the user's groups (visibleByGroups);
    `sees_every_cartography` is whether one of them is unrestricted (mapping.policy)."""

    id: int
    display_name: str
    permission_names: frozenset[str]
    group_ids: frozenset[int]
    sees_every_cartography: bool

    def may(self, permission: str) -> bool:
        return permission in self.permission_names
