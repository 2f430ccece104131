"""The items that carry a resource gallery and a discussion (a cartography, a function, a subject;
later a mediation and a qualification). Resources and discussions name their parent by type and id;
the area that owns the parent registers how to load it for a user, so that reading or changing a
gallery or a thread follows the parent's own visibility (unknown: 404, hidden: 403)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from spot.core import history
from spot.core.errors import not_found
from spot.core.principal import Principal


@dataclass(frozen=True)
class Parent:
    """What resources and discussions need of their parent: who it is, for history, and the
    cartography it belongs to, for the cartography's counters."""

    type: str
    id: int
    key: str
    name: str
    cartography_id: int | None = None


Loader = Callable[[Session, Principal, int], Parent]
_LOADERS: dict[str, Loader] = {}


def register(parent_type: str, loader: Loader) -> None:
    """`loader(db, user, id)` answers the parent, raising 404 when unknown and 403 when hidden."""
    _LOADERS[parent_type] = loader


# What other areas keep of a parent (its resources' stored files…), told when the parent goes.
Removal = Callable[[Session, str, int], None]
_REMOVALS: list[Removal] = []


def on_removal(removal: Removal) -> None:
    """`removal(db, parent_type, parent_id)` runs in the transaction that deletes that parent."""
    _REMOVALS.append(removal)


def removing(db: Session, *, parent_type: str, parent_id: int) -> None:
    """Call before deleting a parent: database triggers remove the rows that name it, but what lies
    outside the database (stored files) needs the areas' own hands."""
    for removal in _REMOVALS:
        removal(db, parent_type, parent_id)


# What other areas make for a new parent (its discussion), told when an import writes one.
Creation = Callable[[Session, str, Any], None]
_CREATIONS: list[Creation] = []


def on_creation(creation: Creation) -> None:
    """`creation(db, parent_type, item)` runs for an item just written and flushed (it has its id)."""
    _CREATIONS.append(creation)


def created(db: Session, *, parent_type: str, item: Any) -> None:
    """Call once a new parent is flushed, for what the other areas keep of it to be made with it."""
    for creation in _CREATIONS:
        creation(db, parent_type, item)


def types() -> list[str]:
    return sorted(_LOADERS)


def get(db: Session, *, user: Principal, parent_type: str, parent_id: int) -> Parent:
    """The parent as `user` may read it: 404 for an unknown type or id, 403 when hidden."""
    loader = _LOADERS.get(parent_type)
    if loader is None:
        raise not_found("parentTypeNotFound")
    return loader(db, user, parent_id)


def history_entry(
    parent: Parent, *, user: Principal | None, mode: history.Mode, event: history.Event | None = None
) -> dict[str, Any]:
    """A history entry on the parent (a resource added to a subject is a write of the subject)."""
    return history.entry(
        user=user,
        item_type=parent.type,
        item_id=parent.id,
        item_key=parent.key,
        item_name=parent.name,
        mode=mode,
        event=event,
        cartography_id=parent.cartography_id,
    )
