"""The rule shared by the items a creator makes visible to persons or groups (mediations, training
paths): the signed-in user reads such an item when it is visible to them, or to a group they belong to.
Each area keeps its own link tables and passes their columns."""

from dataclasses import dataclass

from sqlalchemy import ColumnElement, select
from sqlalchemy.orm import InstrumentedAttribute

from spot.core.principal import Principal


@dataclass(frozen=True)
class VisibilityLinks:
    """The columns of an area's two link tables: (item, user) for persons, (item, group) for groups."""

    person_item: InstrumentedAttribute[int]
    person: InstrumentedAttribute[int]
    group_item: InstrumentedAttribute[int]
    group: InstrumentedAttribute[int]


def visible_to(
    user: Principal, item_id: InstrumentedAttribute[int], links: VisibilityLinks
) -> list[ColumnElement[bool]]:
    """The conditions, to be OR-ed with the area's other readers, under which the item is visible to
    `user`: as a person, or through one of their groups (none when they belong to no group). Each is
    `id IN (set)`, a set of the user's alone that the database computes once per statement."""
    conditions: list[ColumnElement[bool]] = [
        item_id.in_(select(links.person_item).where(links.person == user.id))
    ]
    if user.group_ids:
        conditions.append(
            item_id.in_(select(links.group_item).where(links.group.in_(sorted(user.group_ids))))
        )
    return conditions
