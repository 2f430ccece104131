"""The `cartography` and `function` entity types of the query language (the FilteredCartographies
and FilteredFunctions lists) and their pages. Imported by mapping/routes.py so that they are
registered with the app.

Fields of both: `name` and `code` (text, sortable), `site` (id), and `location` (the item itself or
one of the items above it: `location oneOf 12` lists the cartographies of site 12, or cartography 12
itself); functions also have `cartography` (id).
"""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.mapping.models import Cartography, Function, Site
from spot.mapping.policy import sees_cartography, sees_function
from spot.mapping.schemas import CartographyCard, ContextEntry, FunctionCard
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey


def _cartographies_of_sites(ids: Sequence[Any]) -> Any:
    return select(Cartography.id).where(Cartography.site_id.in_(ids))


def _cartography_at(ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return or_(Cartography.id.in_(ids), Cartography.site_id.in_(ids))


def _function_in_sites(ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return Function.cartography_id.in_(_cartographies_of_sites(ids))


def _function_at(ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return or_(
        Function.id.in_(ids),
        Function.cartography_id.in_(ids),
        Function.cartography_id.in_(_cartographies_of_sites(ids)),
    )


CARTOGRAPHY = register(
    EntityType(
        name="cartography",
        primary_key=Cartography.id,
        fields=[
            Field("name", FieldType.STRING, column=Cartography.name, sortable=True),
            Field("code", FieldType.STRING, column=Cartography.code, sortable=True),
            Field("site", FieldType.ID, column=Cartography.site_id),
            Field("location", FieldType.LOCATION, matches=_cartography_at),
        ],
        default_sort=[SortKey("name"), SortKey("code")],
    )
)

FUNCTION = register(
    EntityType(
        name="function",
        primary_key=Function.id,
        fields=[
            Field("name", FieldType.STRING, column=Function.name, sortable=True),
            Field("code", FieldType.STRING, column=Function.code, sortable=True),
            Field("cartography", FieldType.ID, column=Function.cartography_id),
            Field("site", FieldType.ID, matches=_function_in_sites),
            Field("location", FieldType.LOCATION, matches=_function_at),
        ],
        default_sort=[SortKey("name"), SortKey("code")],
    )
)


def _site_and_cartography(db: Session, cartography_ids: set[int]) -> dict[int, list[ContextEntry]]:
    """The path [site, cartography] of each cartography, in one statement."""
    rows = db.execute(
        select(Cartography.id, Cartography.code, Cartography.name, Site.id, Site.code, Site.name)
        .join(Site, Site.id == Cartography.site_id)
        .where(Cartography.id.in_(cartography_ids))
    )
    return {
        cartography_id: [
            ContextEntry(id=site_id, code=site_code, name=site_name, type="site"),
            ContextEntry(id=cartography_id, code=code, name=name, type="cartography"),
        ]
        for cartography_id, code, name, site_id, site_code, site_name in rows
    }


def _cartography_cards(db: Session, _user: Principal, rows: Sequence[Cartography]) -> list[CartographyCard]:
    """Each cartography with its site."""
    paths = _site_and_cartography(db, {c.id for c in rows})
    return [CartographyCard(id=c.id, code=c.code, name=c.name, context=paths[c.id][:1]) for c in rows]


def _function_cards(db: Session, _user: Principal, rows: Sequence[Function]) -> list[FunctionCard]:
    """Each function with its site and cartography."""
    paths = _site_and_cartography(db, {f.cartography_id for f in rows})
    return [
        FunctionCard(
            id=f.id,
            code=f.code,
            name=f.name,
            cartography_id=f.cartography_id,
            context=paths[f.cartography_id],
        )
        for f in rows
    ]


CARTOGRAPHIES = ListSpec(
    entity=CARTOGRAPHY,
    card=CartographyCard,
    visible=lambda _db, user: select(Cartography).where(sees_cartography(user, Cartography.id)),
    cards=_cartography_cards,
    measured=True,
)
FUNCTIONS = ListSpec(
    entity=FUNCTION,
    card=FunctionCard,
    visible=lambda _db, user: select(Function).where(
        sees_function(user, Function.id, Function.cartography_id)
    ),
    cards=_function_cards,
    measured=True,
)
