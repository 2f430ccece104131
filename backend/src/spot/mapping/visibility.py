"""Administering per-group cartography visibility: the tree of the map an administrator picks from,
the items a group is restricted to, and the groups that may see an item. Who sees what is decided
by spot.mapping.policy alone; this module only reads and writes the rows that rule reads."""

import logging
from collections import defaultdict
from typing import Any

from sqlalchemy import Select, SQLColumnExpression, delete, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError, FieldError, not_found
from spot.mapping import policy
from spot.mapping.models import (
    Activity,
    Cartography,
    CartographyVisibility,
    Function,
    MindMapItem,
    Site,
    Subject,
)
from spot.permissions.schemas import AllowedGroup, AllowedItem, AllowedItems, TreeNode
from spot.users.models import Group, User

log = logging.getLogger("spot.security")

Item = tuple[str, int]


def cartographies_tree(db: Session) -> list[TreeNode]:
    """Every site with every cartography, whatever the administrator's own visibility: a
    cartography's children are its activities (nested), then its functions; each may be ticked."""
    cartographies: dict[int, TreeNode] = {}
    by_site: dict[int, list[TreeNode]] = defaultdict(list)
    for id_, site_id, code, name in db.execute(
        select(Cartography.id, Cartography.site_id, Cartography.code, Cartography.name).order_by(
            Cartography.ordering, Cartography.id
        )
    ):
        node = TreeNode(id=id_, type="cartography", code=code, name=name, children=[])
        cartographies[id_] = node
        by_site[site_id].append(node)

    activity_columns = (
        Activity.id,
        Activity.cartography_id,
        Activity.parent_id,
        Activity.code,
        Activity.name,
    )
    activity_rows = db.execute(select(*activity_columns).order_by(Activity.ordering, Activity.id)).all()
    activities = {
        id_: TreeNode(id=id_, type="activity", code=code, name=name, children=[])
        for id_, _, _, code, name in activity_rows
    }
    for id_, cartography_id, parent_id, _, _ in activity_rows:
        parent = activities.get(parent_id) if parent_id is not None else cartographies.get(cartography_id)
        if parent is not None:
            parent.children.append(activities[id_])

    for id_, cartography_id, code, name in db.execute(
        select(Function.id, Function.cartography_id, Function.code, Function.name).order_by(
            Function.ordering, Function.id
        )
    ):
        cartographies[cartography_id].children.append(
            TreeNode(id=id_, type="function", code=code, name=name, children=[])
        )

    sites = db.execute(select(Site.id, Site.code, Site.name)).all()
    return [
        TreeNode(id=id_, type="site", code=code, name=name, children=by_site[id_])
        for id_, code, name in sorted(sites, key=lambda s: (s.name.lower(), s.id))
    ]


def _rows(db: Session, group: Group) -> list[Item]:
    return [
        (item_type, item_id)
        for item_type, item_id in db.execute(
            select(CartographyVisibility.item_type, CartographyVisibility.item_id)
            .where(CartographyVisibility.group_id == group.id)
            .order_by(CartographyVisibility.item_type, CartographyVisibility.item_id)
        )
    ]


def allowed_items(db: Session, *, group: Group) -> AllowedItems:
    """The group's items; rows naming an item deleted since grant nothing and are left out (the next
    save drops them), but still make the group restricted, as the rule reads them."""
    rows = _rows(db, group)
    existing = _existing_items(db, rows)
    return AllowedItems(
        restricted=bool(rows),
        items=[AllowedItem(item_type=t, item_id=i) for t, i in rows if (t, i) in existing],
    )


def _locate(item_type: str) -> tuple[SQLColumnExpression[int], Select[int, int]] | None:
    """How to find items of this type with the cartography each lies in: (the id column, a query of
    (id, cartography id)). None for the types Spot has no items of yet: any id of theirs is unknown."""
    subjects = select(Subject.id, Subject.cartography_id)
    match item_type:
        case "cartography":
            return Cartography.id, select(Cartography.id, Cartography.id)
        case "function":
            return Function.id, select(Function.id, Function.cartography_id)
        case "activity":
            return Activity.id, select(Activity.id, Activity.cartography_id)
        case "subject":
            return Subject.id, subjects
        case "mindmapNode":
            return MindMapItem.id, select(MindMapItem.id, Subject.cartography_id).join(
                Subject, Subject.id == MindMapItem.subject_id
            )
        # A subject's diagram and its standardized mind map have no id of their own: the subject's names them.
        case "diagram":
            return Subject.id, subjects.where(Subject.has_diagram)
        case "standard":
            return Subject.id, subjects.where(Subject.standardized_at.is_not(None))
    return None


def _existing(db: Session, item_type: str, ids: set[int]) -> dict[int, int]:
    """The ids among `ids` naming an item of this type, each with its cartography's id."""
    located = _locate(item_type)
    if located is None or not ids:
        return {}
    id_column, query = located
    rows = db.execute(query.where(id_column.in_(ids)))
    return {item_id: cartography_id for item_id, cartography_id in rows}


def _existing_items(db: Session, items: list[Item]) -> set[Item]:
    by_type: dict[str, set[int]] = defaultdict(set)
    for item_type, item_id in items:
        by_type[item_type].add(item_id)
    return {(t, i) for t, ids in by_type.items() for i in _existing(db, t, ids)}


def set_allowed_items(db: Session, *, group: Group, data: AllowedItems, by: User) -> AllowedItems:
    """Replace the group's rows. Unrestricted means no row at all; restricted needs at least one item,
    since a group without rows sees everything."""
    if not data.restricted and data.items:
        raise ApiError(400, "invalidValue", [FieldError(field="items", code="invalidValue")])
    if data.restricted and not data.items:
        raise ApiError(400, "mustNotBeEmpty", [FieldError(field="items", code="mustNotBeEmpty")])

    wanted = {(item.item_type, item.item_id) for item in data.items}
    existing = _existing_items(db, sorted(wanted))
    unknown = [
        FieldError(field=f"items.{index}.itemId", code="invalidValue")
        for index, item in enumerate(data.items)
        if (item.item_type, item.item_id) not in existing
    ]
    if unknown:
        raise ApiError(400, "unknownItem", unknown)

    current = set(_rows(db, group))
    removed, added = sorted(current - wanted), sorted(wanted - current)
    for item_type, item_id in removed:
        db.execute(
            delete(CartographyVisibility).where(
                CartographyVisibility.group_id == group.id,
                CartographyVisibility.item_type == item_type,
                CartographyVisibility.item_id == item_id,
            )
        )
    db.add_all(CartographyVisibility(group_id=group.id, item_type=t, item_id=i) for t, i in added)
    db.flush()
    if added or removed:
        log.info(
            "cartography visibility changed group_id=%s restricted=%s added=%s removed=%s by_user_id=%s",
            group.id,
            str(data.restricted).lower(),
            ",".join(f"{t}:{i}" for t, i in added) or "-",
            ",".join(f"{t}:{i}" for t, i in removed) or "-",
            by.id,
        )
    return allowed_items(db, group=group)


def _group_sees(db: Session, item_type: str, item_id: int, cartography_id: int) -> Any:
    """The rule of spot.mapping.policy for a group (Group.id) and this existing item."""
    match item_type:
        case "function":
            return policy.group_sees_function(Group.id, item_id, cartography_id)
        case "activity":
            return policy.group_sees_activity(Group.id, item_id, cartography_id)
        case "subject" | "diagram" | "standard" | "mindmapNode":
            # Whatever the type, the subject's function and activity decide.
            subject_id = (
                db.scalar(select(MindMapItem.subject_id).where(MindMapItem.id == item_id))
                if item_type == "mindmapNode"
                else item_id
            )
            row = db.execute(
                select(Subject.function_id, Subject.activity_id).where(Subject.id == subject_id)
            ).one()
            return policy.group_sees_subject(Group.id, row.function_id, row.activity_id, cartography_id)
    return policy.group_sees_cartography(Group.id, cartography_id)


def allowed_groups(db: Session, *, item_type: str, item_id: int) -> list[AllowedGroup]:
    """The groups whose members see the item (spot.mapping.policy's rule, group by group)."""
    cartography_id = _existing(db, item_type, {item_id}).get(item_id)
    if cartography_id is None:
        raise not_found("itemNotFound")
    rows = db.execute(
        select(Group.id, Group.name, policy.unrestricted(Group.id))
        .where(_group_sees(db, item_type, item_id, cartography_id))
        .order_by(Group.name, Group.id)
    )
    return [AllowedGroup(id=id_, name=name, unrestricted=bool(free)) for id_, name, free in rows]
