"""Who may see what of the map. Written once, as SQL, and used by every query of the map (sites,
cartographies, activities, functions, zones, pictograms, subjects and their mind-map nodes, visits,
counts, lists and the filters of the query language).

Visibility is granted per group, by rows (item type, item id) of `cartography_visibility` (spec 1
§6: "limit the cartographies and items a group may see, by item type and id"):

- A group with no row at all is *unrestricted*: it sees everything.
- A group with rows is *restricted*; in each cartography it sees:
  - everything, when a row names the cartography itself ('cartography' row); rows of its items are
    then redundant;
  - else, when rows name some of its functions and/or activities, the cartography *limited* to them:
    - functions: those named by 'function' rows; every function when the group has 'function' rows
      in no function of this cartography;
    - activities: those named by 'activity' rows and every activity below them (at any depth); every
      activity when the group has 'activity' rows in no activity of this cartography. The
      activities above a named one are shown too, as the way down to it (the tree of the cartography
      page, the contexts of a subject), but their own subjects are not;
    - subjects (and their mind-map nodes, diagrams, pictures, discussions): those whose function
      AND activity are both granted by the two rules above, read as "the group sees the subjects
      of the ticked functions within the ticked activities". So function rows alone restrict to
      those functions' subjects, activity rows alone to the subjects of those activities' subtrees,
      and both to the subjects at their crossing;
    - zones and pictograms: those of the activities and functions it sees;
  - nothing, when no row names the cartography or any of its functions and activities.
  Rows of other item types (subject, mindmapNode, diagram, standard, ...) grant nothing: Spot keeps
  them as the spec's permission items, for rules to come.
- A user sees an item when ANY of their groups sees it (the union: a group limited to F1 and another
  to F2 in the same cartography show both). A user in no group sees nothing.
- A cartography seen in part is listed, and opens, like a whole one: only its content is limited.
  A site is seen when it has no cartography yet or when one of its cartographies is seen.
- Counts (the subjects of each activity on the cartography page, list totals) count the subjects the
  user sees, so a hidden subject can be inferred from no number.

An existing item the user may not see answers 403 'Insufficient rights to view'; an unknown one 404;
lists leave hidden items out, and filters only ever narrow what is already visible.

The SQL: for a user, each rule is `column IN (set)` tests whose sets depend on the viewer only (the
cartographies named whole, the functions and activities granted, the activities below and above
named ones as recursive CTEs, the (function, activity) pairs of groups limiting both): the database
computes each set once per statement and tests every row against it (PostgreSQL hashes it). The test
that some group of the user is unrestricted comes first; it is decided in Python, with no SQL at all,
for a Principal that sees every cartography, and the hot statements are built once in two versions
(ByViewer) so that such users run one with no visibility test. The limited view's sets are looked
at only when the user's groups hold function or activity rows at all. The first way of writing these
rules, a correlated subquery per row, made a limited user's count evaluate the rule again for every
subject (docs/performance.md has both costs).
The rule for one group (group_sees_*, for allowedGroupsForItem) is the same, written per group.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    CTE,
    BindParameter,
    ColumnElement,
    Integer,
    Select,
    and_,
    bindparam,
    exists,
    literal,
    not_,
    or_,
    select,
    true,
    tuple_,
    union_all,
)
from sqlalchemy.orm import Session, aliased

from spot.core.errors import ApiError
from spot.core.principal import Principal
from spot.mapping.models import Activity, Cartography, CartographyVisibility, Function
from spot.permissions.names import Permission
from spot.users.models import User, user_group

CARTOGRAPHY = "cartography"
FUNCTION = "function"
ACTIVITY = "activity"
HIDDEN_MESSAGE = "Insufficient rights to view"

Row = CartographyVisibility
# The user in statements built once (at import, for the hot reads): they run with {"viewer_id": user.id}.
VIEWER: BindParameter[int] = bindparam("viewer_id", type_=Integer)


class _Everyone:
    """The viewer of the version of a statement for users who see everything (ByViewer)."""

    id = 0
    sees_every_cartography = True


EVERYONE = _Everyone()
Viewer = Principal | BindParameter[int] | _Everyone


@dataclass(frozen=True)
class ByViewer:
    """A statement built once (at import) in two versions: one for the users who see everything
    (an unrestricted group: Principal.sees_every_cartography), with no visibility test at all, and one
    for the others, with VIEWER. `of(user)` picks the user's."""

    everything: Any
    limited: Any

    def of(self, user: Principal) -> Any:
        return self.everything if user.sees_every_cartography else self.limited


def by_viewer(build: Callable[[Viewer], Any]) -> ByViewer:
    """`build(viewer)` once with EVERYONE (every sees_* of it is simply true) and once with VIEWER."""
    return ByViewer(build(EVERYONE), build(VIEWER))


# One group ------------------------------------------------------------------------------------------------
# `group_id`, `cartography_id`... are columns of the query the expression is put in, or plain ids.


def unrestricted(group_id: Any) -> ColumnElement[bool]:
    """The group (a column or a plain id) has no visibility row: it sees everything."""
    rows = select(Row.group_id).where(Row.group_id == group_id)
    return not_(exists(rows.correlate_except(Row)))


def _row(group_id: Any, item_type: str, item_id: Any) -> ColumnElement[bool]:
    """The group has a row naming the item."""
    row = select(Row.group_id).where(
        Row.group_id == group_id, Row.item_type == item_type, Row.item_id == item_id
    )
    # The group and the item may be columns of queries enclosing this one at any depth.
    return exists(row.correlate_except(Row))


def _limits(group_id: Any, item_type: str, cartography_id: Any) -> ColumnElement[bool]:
    """The group has rows of this type ('function' or 'activity') naming items of the cartography."""
    item: Any = aliased(Function if item_type == FUNCTION else Activity)
    rows = (
        select(Row.group_id)
        .join(item, item.id == Row.item_id)
        .where(Row.group_id == group_id, Row.item_type == item_type, item.cartography_id == cartography_id)
    )
    return exists(rows.correlate_except(Row, item))


@dataclass(frozen=True)
class _Trees:
    """(group_id, activity_id) rows of the activities granted by 'activity' rows: `below`, each named
    activity and every one under it; `above`, every activity over a named one."""

    below: CTE
    above: CTE

    def has(self, tree: CTE, group_id: Any, activity_id: Any) -> ColumnElement[bool]:
        row = select(tree.c.group_id).where(tree.c.group_id == group_id, tree.c.activity_id == activity_id)
        return exists(row.correlate_except(tree))


def _trees(viewer_id: Any | None) -> _Trees:
    """The granted activities of the viewer's groups (of every group when None). Not correlated with
    the query: the database computes each CTE once per statement."""
    seeds = select(Row.group_id.label("group_id"), Row.item_id.label("activity_id")).where(
        Row.item_type == ACTIVITY
    )
    if viewer_id is not None:
        seeds = seeds.where(Row.group_id.in_(_groups_of(viewer_id)))
    # UNION, not UNION ALL: a cycle of parents (bad data) ends the recursion instead of looping.
    below = seeds.cte(recursive=True)
    child = aliased(Activity)
    below = below.union(select(below.c.group_id, child.id).where(child.parent_id == below.c.activity_id))

    named = aliased(Activity)
    above = (
        select(Row.group_id.label("group_id"), named.parent_id.label("activity_id"))
        .join(named, named.id == Row.item_id)
        .where(Row.item_type == ACTIVITY, named.parent_id.is_not(None))
    )
    if viewer_id is not None:
        above = above.where(Row.group_id.in_(_groups_of(viewer_id)))
    above_cte = above.cte(recursive=True)
    parent = aliased(Activity)
    above_cte = above_cte.union(
        select(above_cte.c.group_id, parent.parent_id).where(
            parent.id == above_cte.c.activity_id, parent.parent_id.is_not(None)
        )
    )
    return _Trees(below=below, above=above_cte)


def _partly_sees_cartography(group_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    return or_(_limits(group_id, FUNCTION, cartography_id), _limits(group_id, ACTIVITY, cartography_id))


def _partly_sees_function(group_id: Any, function_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    return or_(
        _row(group_id, FUNCTION, function_id),
        and_(not_(_limits(group_id, FUNCTION, cartography_id)), _limits(group_id, ACTIVITY, cartography_id)),
    )


def _partly_sees_activity(
    trees: _Trees, group_id: Any, activity_id: Any, cartography_id: Any
) -> ColumnElement[bool]:
    return or_(
        trees.has(trees.below, group_id, activity_id),
        trees.has(trees.above, group_id, activity_id),
        and_(not_(_limits(group_id, ACTIVITY, cartography_id)), _limits(group_id, FUNCTION, cartography_id)),
    )


def _partly_sees_subject(
    trees: _Trees, group_id: Any, function_id: Any, activity_id: Any, cartography_id: Any
) -> ColumnElement[bool]:
    # A subject's function and activity are of its cartography: a granted one implies that the group
    # limits the cartography on that axis.
    in_activities = trees.has(trees.below, group_id, activity_id)
    return or_(
        and_(
            _row(group_id, FUNCTION, function_id),
            or_(not_(_limits(group_id, ACTIVITY, cartography_id)), in_activities),
        ),
        and_(in_activities, not_(_limits(group_id, FUNCTION, cartography_id))),
    )


def _group_sees(group_id: Any, cartography_id: Any, partly: ColumnElement[bool]) -> ColumnElement[bool]:
    return or_(unrestricted(group_id), _row(group_id, CARTOGRAPHY, cartography_id), partly)


def group_sees_cartography(group_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    """May the group see the cartography (whole or limited)?"""
    return _group_sees(group_id, cartography_id, _partly_sees_cartography(group_id, cartography_id))


def group_sees_function(group_id: Any, function_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    return _group_sees(group_id, cartography_id, _partly_sees_function(group_id, function_id, cartography_id))


def group_sees_activity(group_id: Any, activity_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    partly = _partly_sees_activity(_trees(None), group_id, activity_id, cartography_id)
    return _group_sees(group_id, cartography_id, partly)


def group_sees_subject(
    group_id: Any, function_id: Any, activity_id: Any, cartography_id: Any
) -> ColumnElement[bool]:
    partly = _partly_sees_subject(_trees(None), group_id, function_id, activity_id, cartography_id)
    return _group_sees(group_id, cartography_id, partly)


# The user: some group of theirs sees it ---------------------------------------------------------------------
# Written as `column IN (a set of ids)` with sets that do not depend on the row: the database computes each
# set once per statement (PostgreSQL hashes it) and tests each row against it, instead of running a
# correlated subquery per row and per group.


def _groups_of(user_id: Any) -> Select[Any]:
    return select(user_group.c.group_id).where(user_group.c.user_id == user_id)


def _viewer_id(user: Viewer) -> Any:
    return user if isinstance(user, BindParameter) else user.id


def _known_to_see_everything(user: Viewer) -> bool:
    """A signed-in Principal (or EVERYONE) says whether one of its groups is unrestricted: no SQL then."""
    return not isinstance(user, BindParameter) and bool(getattr(user, "sees_every_cartography", False))


class _Sets:
    """The sets of ids that decide what one viewer (a user id or VIEWER) sees."""

    def __init__(self, viewer_id: Any) -> None:
        self.viewer_id = viewer_id
        # Function and activity rows of the viewer's groups, each with its item's cartography.
        self.functions = self._rows(FUNCTION).cte()
        self.activities = self._rows(ACTIVITY).cte()
        # (group, activity, cartography): each named activity and every one under it.
        below = select(
            self.activities.c.group_id, self.activities.c.item_id, self.activities.c.cartography_id
        )
        tree = below.cte(recursive=True)
        child = aliased(Activity)
        self.below = tree.union(
            select(tree.c.group_id, child.id, child.cartography_id).where(child.parent_id == tree.c.item_id)
        )
        # (group, activity): every activity above a named one.
        named = aliased(Activity)
        up = select(self.activities.c.group_id, named.parent_id.label("item_id")).join(
            named, named.id == self.activities.c.item_id
        )
        up_tree = up.where(named.parent_id.is_not(None)).cte(recursive=True)
        parent = aliased(Activity)
        self.above = up_tree.union(
            select(up_tree.c.group_id, parent.parent_id).where(
                parent.id == up_tree.c.item_id, parent.parent_id.is_not(None)
            )
        )

    def _groups(self) -> Select[Any]:
        return _groups_of(self.viewer_id)

    def _rows(self, item_type: str) -> Select[Any]:
        row = aliased(Row)
        item: Any = aliased(Function) if item_type == FUNCTION else aliased(Activity)
        return (
            select(row.group_id, row.item_id, item.cartography_id)
            .join(item, item.id == row.item_id)
            .where(row.group_id.in_(self._groups()), row.item_type == item_type)
        )

    def unrestricted(self) -> ColumnElement[bool]:
        """Some group of the viewer is unrestricted."""
        groups = aliased(user_group)
        row = aliased(Row)
        free = select(groups.c.group_id).where(
            groups.c.user_id == self.viewer_id,
            not_(exists(select(row.group_id).where(row.group_id == groups.c.group_id))),
        )
        return exists(free.correlate(None))

    def whole(self) -> Select[Any]:
        """The cartographies named by 'cartography' rows."""
        row = aliased(Row)
        return (
            select(row.item_id)
            .where(row.group_id.in_(self._groups()), row.item_type == CARTOGRAPHY)
            .correlate(None)
        )

    def has_item_rows(self) -> ColumnElement[bool]:
        """Some group of the viewer has function or activity rows (else the sets below are empty)."""
        row = aliased(Row)
        rows = select(row.group_id).where(
            row.group_id.in_(self._groups()), row.item_type.in_((FUNCTION, ACTIVITY))
        )
        return exists(rows.correlate(None))

    @staticmethod
    def _alone(column: Any, kept: CTE, absent: CTE) -> Select[Any]:
        """`column` of the rows of `kept` whose group has no row of `absent` in the same cartography."""
        return select(column).where(
            not_(
                exists(
                    select(absent.c.group_id).where(
                        absent.c.group_id == kept.c.group_id, absent.c.cartography_id == kept.c.cartography_id
                    )
                )
            )
        )

    def _unlimited_on(self, rows: CTE, other: CTE) -> Select[Any]:
        """The cartographies some group limits by the rows of `other` and not by those of `rows`: in
        them that group sees every item of the `rows` kind."""
        return self._alone(other.c.cartography_id, other, rows)

    def limited_cartographies(self) -> Select[Any]:
        return (
            union_all(select(self.functions.c.cartography_id), select(self.activities.c.cartography_id))
            .subquery()
            .select()
        )

    def function_ids(self) -> Select[Any]:
        return select(self.functions.c.item_id)

    def all_functions_in(self) -> Select[Any]:
        return self._unlimited_on(self.functions, self.activities)

    def activity_ids(self) -> Select[Any]:
        return union_all(select(self.below.c.item_id), select(self.above.c.item_id)).subquery().select()

    def all_activities_in(self) -> Select[Any]:
        return self._unlimited_on(self.activities, self.functions)

    def subject_functions(self) -> Select[Any]:
        """Functions whose every subject is seen: named by a group that limits no activity there."""
        return self._alone(self.functions.c.item_id, self.functions, self.activities)

    def subject_activities(self) -> Select[Any]:
        """Activities whose every subject is seen: under a named one, of a group that limits no
        function there."""
        return self._alone(self.below.c.item_id, self.below, self.functions)

    def subject_pairs(self) -> Select[Any]:
        """(function, activity) of the subjects a group limiting both sees: its functions within its
        activities."""
        f, b = self.functions, self.below
        return select(f.c.item_id, b.c.item_id).join(
            b, and_(b.c.group_id == f.c.group_id, b.c.cartography_id == f.c.cartography_id)
        )


def _sets_of(user: Viewer) -> _Sets:
    return _VIEWER_SETS if isinstance(user, BindParameter) else _Sets(_viewer_id(user))


def _user_sees(
    user: Viewer, cartography_id: Any, partly: Callable[[_Sets], ColumnElement[bool]]
) -> ColumnElement[bool]:
    """Some group of the user is unrestricted, names the cartography, or (only looked at when the groups
    hold function or activity rows at all) its limited view grants it: `partly(sets)`."""
    if _known_to_see_everything(user):
        return true()
    sets = _sets_of(user)
    return or_(
        sets.unrestricted(),
        _in(cartography_id, sets.whole()),
        and_(sets.has_item_rows(), partly(sets)),
    )


def _in(value: Any, ids: Select[Any]) -> ColumnElement[bool]:
    return _expression(value).in_(ids)


def _expression(value: Any) -> Any:
    """A plain id as a bound value; a column (or parameter) as it is."""
    return literal(value, Integer) if isinstance(value, int) else value


def sees_cartography(user: Viewer, cartography_id: Any) -> ColumnElement[bool]:
    """A boolean SQL expression: may `user` (or VIEWER) see the cartography, whole or limited?"""
    return _user_sees(user, cartography_id, lambda sets: _in(cartography_id, sets.limited_cartographies()))


def sees_function(user: Viewer, function_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    """May `user` see the function (of that cartography)?"""
    return _user_sees(
        user,
        cartography_id,
        lambda sets: or_(_in(function_id, sets.function_ids()), _in(cartography_id, sets.all_functions_in())),
    )


def sees_activity(user: Viewer, activity_id: Any, cartography_id: Any) -> ColumnElement[bool]:
    """May `user` see the activity (of that cartography), granted or on the way down to a granted one?"""
    return _user_sees(
        user,
        cartography_id,
        lambda sets: or_(
            _in(activity_id, sets.activity_ids()), _in(cartography_id, sets.all_activities_in())
        ),
    )


def sees_subject(
    user: Viewer, function_id: Any, activity_id: Any, cartography_id: Any
) -> ColumnElement[bool]:
    """May `user` see a subject of this function, activity and cartography (columns of the subject)?"""
    pair = tuple_(_expression(function_id), _expression(activity_id))
    return _user_sees(
        user,
        cartography_id,
        lambda sets: or_(
            _in(function_id, sets.subject_functions()),
            _in(activity_id, sets.subject_activities()),
            pair.in_(sets.subject_pairs()),
        ),
    )


# The sets of statements built once with VIEWER, shared by all of them.
_VIEWER_SETS = _Sets(VIEWER)


# What the Principal's sees_every_cartography is read with (the session lookup asks for it): whether
# one of the user's groups is unrestricted. Lists of such a user need no visibility test at all: left
# out, it no longer forces the database to read every row of a filtered count (the test needs the
# row's cartography) where an index alone would do.
SEES_EVERY_CARTOGRAPHY = exists(_groups_of(User.id).where(unrestricted(user_group.c.group_id)))


def hidden() -> ApiError:
    return ApiError(403, HIDDEN_MESSAGE)


def may_see_cartography(db: Session, user: Principal, cartography_id: int) -> bool:
    return bool(db.scalar(select(sees_cartography(user, cartography_id))))


def may_see_function(db: Session, user: Principal, function: Function) -> bool:
    return bool(db.scalar(select(sees_function(user, function.id, function.cartography_id))))


def may_see_subject_at(db: Session, user: Principal, function: Function, activity: Activity) -> bool:
    """May `user` see a subject of this function and activity (of the function's cartography)?"""
    return bool(db.scalar(select(sees_subject(user, function.id, activity.id, function.cartography_id))))


def may_administer_maps(user: Principal) -> bool:
    """Importing and exporting whole maps, and looking past visibility, is an administrator's job."""
    return Permission.SetPermissions in user.permission_names


def sees_site(user: Principal, site_id: Any) -> ColumnElement[bool]:
    """A boolean SQL expression: may `user` see the site (a column of the query, or a plain id)?
    Yes when it has no cartography yet, or when the user sees one of its cartographies."""
    of_site = select(Cartography.id).where(Cartography.site_id == site_id)
    return or_(not_(exists(of_site)), exists(of_site.where(sees_cartography(user, Cartography.id))))


def may_see_whole_site(db: Session, user: Principal, site_id: int) -> bool:
    """Does `user` see every subject the site may hold: every cartography of it whole, each of its
    functions within each of its activities (an activity shown only as the way down to a named one does
    not count: its own subjects are hidden)?"""
    if user.sees_every_cartography:
        return True
    of_site = Cartography.site_id == site_id
    hidden_cartography = select(Cartography.id).where(of_site, not_(sees_cartography(user, Cartography.id)))
    hidden_place = (
        select(Function.id)
        .join(Cartography, Cartography.id == Function.cartography_id)
        .join(Activity, Activity.cartography_id == Cartography.id)
        .where(of_site, not_(sees_subject(user, Function.id, Activity.id, Cartography.id)))
    )
    return not db.scalar(select(or_(exists(hidden_cartography), exists(hidden_place))))
