"""Who may see which cartography. Written once, as SQL, and used by every query of the map
(sites, cartographies, activities, functions, zones, pictograms, subjects, visits).

Visibility is granted per group, by rows of `cartography_visibility`:
- a group with no visibility row at all is unrestricted: it sees every cartography;
- a group with rows sees only the cartographies named by its rows of item type 'cartography'
  (rows of other item types refine the administration screen's tree and grant nothing alone);
- a user sees a cartography when ANY of their groups sees it. A user in no group sees none.

Everything inside a cartography (activities, functions, zones, pictograms, subjects and their
mind-map nodes) is visible exactly when its cartography is.
An existing item the user may not see answers 403 'Insufficient rights to view'; an unknown
one 404; lists leave hidden items out.
"""

from typing import Any

from sqlalchemy import BindParameter, ColumnElement, Integer, bindparam, exists, not_, or_, select
from sqlalchemy.orm import Session

from spot.core.errors import ApiError
from spot.mapping.models import Cartography, CartographyVisibility
from spot.permissions.names import Permission
from spot.users.models import User, user_group

CARTOGRAPHY = "cartography"
HIDDEN_MESSAGE = "Insufficient rights to view"


def unrestricted(group_id: Any) -> ColumnElement[bool]:
    """The group (a column or a plain id) has no visibility row: it sees every cartography."""
    rows = select(CartographyVisibility.group_id).where(CartographyVisibility.group_id == group_id)
    return not_(exists(rows.correlate_except(CartographyVisibility)))


def granted(group_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    """The group has a row naming the cartography."""
    row = select(CartographyVisibility.group_id).where(
        CartographyVisibility.group_id == group_id,
        CartographyVisibility.item_type == CARTOGRAPHY,
        CartographyVisibility.item_id == cartography_id,
    )
    # The group and the cartography may be columns of queries enclosing this one at any depth.
    return exists(row.correlate_except(CartographyVisibility))


def group_sees_cartography(group_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    """A boolean SQL expression: may the group see the cartography (columns of the query, or plain ids)?"""
    return or_(unrestricted(group_id), granted(group_id, cartography_id))


# The user in statements built once (at import, for the hot reads): they run with {"viewer_id": user.id}.
VIEWER: BindParameter[int] = bindparam("viewer_id", type_=Integer)


def sees_cartography(user: User | BindParameter[int], cartography_id: Any) -> ColumnElement[bool]:
    """A boolean SQL expression: may `user` (or VIEWER) see the cartography whose id is
    `cartography_id` (a column of the query, or a plain id)? True when one of the user's groups does."""
    # "Some group sees it" split into two EXISTS: the first does not depend on the cartography, so the
    # database evaluates it once per query instead of once per row.
    user_id = user if isinstance(user, BindParameter) else user.id
    groups = select(user_group.c.group_id).where(user_group.c.user_id == user_id)
    return or_(
        exists(groups.where(unrestricted(user_group.c.group_id))),
        exists(groups.where(granted(user_group.c.group_id, cartography_id))),
    )


def _sees_every_cartography(user_id: Any) -> ColumnElement[bool]:
    groups = select(user_group.c.group_id).where(user_group.c.user_id == user_id)
    return exists(groups.where(unrestricted(user_group.c.group_id)))


# What User.sees_every_cartography loads (the session lookup asks for it).
SEES_EVERY_CARTOGRAPHY = _sees_every_cartography(User.id)


def sees_every_cartography(db: Session, user: User) -> bool:
    """Whether one of the user's groups is unrestricted. Lists of such a user need no visibility
    test at all: left out, it no longer forces the database to read every row of a filtered count
    (the test needs the row's cartography) where an index alone would do. Read with the signed-in
    user when the session lookup loaded it, else asked."""
    if user.sees_every_cartography is not None:
        return user.sees_every_cartography
    return bool(db.scalar(select(_sees_every_cartography(user.id))))


def hidden() -> ApiError:
    return ApiError(403, HIDDEN_MESSAGE)


def may_see_cartography(db: Session, user: User, cartography_id: int) -> bool:
    return bool(db.scalar(select(sees_cartography(user, cartography_id))))


def may_administer_maps(user: User) -> bool:
    """Importing and exporting whole maps, and looking past visibility, is an administrator's job."""
    return Permission.SetPermissions in user.permission_names


def sees_site(user: User, site_id: Any) -> ColumnElement[bool]:
    """A boolean SQL expression: may `user` see the site (a column of the query, or a plain id)?
    Yes when it has no cartography yet, or when the user sees one of its cartographies."""
    of_site = select(Cartography.id).where(Cartography.site_id == site_id)
    return or_(not_(exists(of_site)), exists(of_site.where(sees_cartography(user, Cartography.id))))
