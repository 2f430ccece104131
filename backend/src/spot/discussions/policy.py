"""Who may do what in a discussion. Reading follows the item's own visibility (core.parents: hidden
403, unknown 404); whoever may read an item's discussion may post in it (spec 1 §6 names no permission
for it, and the panel is offered on every page of the map)."""

from spot.core.parents import Parent
from spot.core.principal import Principal
from spot.discussions.schemas import DiscussionCan


def can_post(user: Principal, parent: Parent) -> bool:
    return True


def can(user: Principal, parent: Parent) -> DiscussionCan:
    return DiscussionCan(post=can_post(user, parent))
