"""Items of the map (sites, cartographies, activities, functions) found by name or named by id,
with their context paths: the choices of filter editors and autocompletes. Only items the user
may see (spot.mapping.policy) are ever found or named."""

from collections.abc import Callable, Collection, Sequence
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Integer,
    String,
    Subquery,
    case,
    cast,
    literal_column,
    null,
    select,
    union_all,
)
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.mapping.models import Activity, Cartography, Function, Site
from spot.mapping.policy import sees_activity, sees_cartography, sees_function, sees_site
from spot.mapping.schemas import ContextEntry, MapItemName, MapItemType
from spot.querylang import folded
from spot.querylang.text import fold

ITEM_TYPES: tuple[MapItemType, ...] = ("site", "cartography", "function", "activity")
SEARCH_LIMIT = 30

# Activities by id: their context entry and their parent's id.
Ancestors = dict[int, tuple[ContextEntry, int | None]]

MapModel = type[Site] | type[Cartography] | type[Function] | type[Activity]
MODELS: dict[MapItemType, MapModel] = {
    "site": Site,
    "cartography": Cartography,
    "function": Function,
    "activity": Activity,
}


def _visible_items(
    user: Principal, types: Collection[MapItemType], condition: Callable[[Any], ColumnElement[bool]]
) -> Subquery:
    """Rows (type, id, code, name, cartography_id, parent_id) of the items of these types that the
    user may see and that meet `condition` (a function of the item's model)."""
    parts = []
    for kind in ITEM_TYPES:
        if kind not in types:
            continue
        model: Any = MODELS[kind]
        cartography_id: Any = cast(null(), Integer)
        if model is Site:
            visible = sees_site(user, Site.id)
        elif model is Cartography:
            cartography_id = Cartography.id
            visible = sees_cartography(user, cartography_id)
        else:
            cartography_id = model.cartography_id
            sees = sees_function if model is Function else sees_activity
            visible = sees(user, model.id, cartography_id)
        parent_id = Activity.parent_id if model is Activity else cast(null(), Integer)
        parts.append(
            select(
                # A literal of our own list of types, not a parameter: PostgreSQL types it as text.
                literal_column(f"'{kind}'", String).label("type"),
                model.id.label("id"),
                model.code.label("code"),
                model.name.label("name"),
                cartography_id.label("cartography_id"),
                parent_id.label("parent_id"),
            ).where(visible, condition(model))
        )
    return union_all(*parts).subquery("items")


def _with_contexts(db: Session, rows: Sequence[Any]) -> list[MapItemName]:
    """The rows as MapItemName, each with the path from its site to its parent, in two statements."""
    cartography_ids = {row.cartography_id for row in rows if row.cartography_id is not None}
    cartographies = {
        cartography_id: (
            ContextEntry(id=site_id, code=site_code, name=site_name, type="site"),
            ContextEntry(id=cartography_id, code=code, name=name, type="cartography"),
        )
        for cartography_id, code, name, site_id, site_code, site_name in db.execute(
            select(Cartography.id, Cartography.code, Cartography.name, Site.id, Site.code, Site.name)
            .join(Site, Site.id == Cartography.site_id)
            .where(Cartography.id.in_(cartography_ids))
        )
    }
    parents = _activity_ancestors(db, {row.parent_id for row in rows if row.parent_id is not None})
    items = []
    for row in rows:
        above = cartographies.get(row.cartography_id, ())
        if row.type == "site":
            context: list[ContextEntry] = []
        elif row.type == "cartography":
            context = list(above[:1])
        else:
            context = [*above, *_chain(parents, row.parent_id)]
        items.append(MapItemName(id=row.id, type=row.type, code=row.code, name=row.name, context=context))
    return items


def _activity_ancestors(db: Session, activity_ids: set[int]) -> Ancestors:
    """These activities and all those above them: id → (entry, parent id)."""
    if not activity_ids:
        return {}
    tree = select(Activity.id, Activity.parent_id).where(Activity.id.in_(activity_ids)).cte(recursive=True)
    # UNION, not UNION ALL: a cycle of parents (bad data) ends the recursion instead of looping.
    tree = tree.union(select(Activity.id, Activity.parent_id).join(tree, Activity.id == tree.c.parent_id))
    rows = db.execute(
        select(Activity.id, Activity.code, Activity.name, Activity.parent_id).where(
            Activity.id.in_(select(tree.c.id))
        )
    )
    return {
        activity_id: (ContextEntry(id=activity_id, code=code, name=name, type="activity"), parent_id)
        for activity_id, code, name, parent_id in rows
    }


def _chain(activities: Ancestors, activity_id: int | None) -> list[ContextEntry]:
    """The activity and those above it, top-level first."""
    chain: list[ContextEntry] = []
    seen: set[int] = set()
    while activity_id is not None and activity_id in activities and activity_id not in seen:
        seen.add(activity_id)
        entry, activity_id = activities[activity_id]
        chain.insert(0, entry)
    return chain


def search(db: Session, *, user: Principal, name: str, types: Collection[MapItemType]) -> list[MapItemName]:
    """At most SEARCH_LIMIT visible items of these types whose name contains `name`, ignoring case
    and accents: names that start with it first, then by name."""
    text = fold(name.strip())
    items = _visible_items(user, types, lambda model: folded(model.name).contains(text, autoescape=True))
    rank = {kind: position for position, kind in enumerate(ITEM_TYPES)}
    rows = db.execute(
        select(items)
        .order_by(
            case((folded(items.c.name).startswith(text, autoescape=True), 0), else_=1),
            folded(items.c.name),
            case(rank, value=items.c.type),
            items.c.id,
        )
        .limit(SEARCH_LIMIT)
    ).all()
    return _with_contexts(db, rows)


def names(db: Session, *, user: Principal, ids: Sequence[int]) -> list[MapItemName]:
    """The items of these ids, in the order given; unknown and hidden ids are left out."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    rows = db.execute(select(_visible_items(user, ITEM_TYPES, lambda model: model.id.in_(wanted)))).all()
    found = {item.id: item for item in _with_contexts(db, rows)}
    return [found[item_id] for item_id in wanted if item_id in found]
