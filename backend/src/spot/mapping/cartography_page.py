"""The cartography page and what it loads: its zones, pictograms and functions, its activities as a
tree with the subjects they hold, and its counters. Every query goes through spot.mapping.policy; each
statement is built once per kind of viewer (policy.by_viewer), with parameters, for the reasons given
in spot.mapping.service."""

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from sqlalchemy import and_, case, func, select, true
from sqlalchemy.orm import Session

from spot.core import history
from spot.core.errors import not_found
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.db import plain
from spot.mapping import policy
from spot.mapping.models import Activity, Cartography, Function, Pictogram, Subject, Zone
from spot.mapping.policy import (
    Viewer,
    by_viewer,
    sees_activity,
    sees_cartography,
    sees_function,
    sees_subject,
)
from spot.mapping.schemas import (
    ActivityNode,
    ActivityOut,
    CartographyOut,
    FunctionOut,
    PictogramOut,
    Rectangle,
    SiteRef,
    Stats,
    ZoneOut,
)
from spot.mapping.service import CARTOGRAPHY_ID, activities_of, entry, get_activity, get_cartography


def _of_cartography(viewer: Viewer, *columns: Any) -> Any:
    """A statement over one cartography (CARTOGRAPHY_ID) that also says, in its first column, whether
    the viewer sees it: outer joins from the cartography give at least one row when it exists, so one
    statement answers 404, 403 or the rows (_visible_rows)."""
    sees = sees_cartography(viewer, Cartography.id)
    return select(sees, *columns).select_from(Cartography).where(Cartography.id == CARTOGRAPHY_ID)


def _visible_rows(db: Session, user: Principal, statement: policy.ByViewer, cartography_id: int) -> list[Any]:
    """The rows of an _of_cartography statement, without its first column: 404 when the cartography
    is unknown, 403 when hidden from the user."""
    params = {"viewer_id": user.id, "cartography_id": cartography_id}
    rows = plain(db).execute(statement.of(user), params).all()
    if not rows:
        raise not_found("Cartography not found")
    if not rows[0][0]:
        raise policy.hidden()
    return [row[1:] for row in rows]


def _zones_statement(viewer: Viewer) -> Any:
    # Each zone with the code and name of the activity or function of its cartography it points at.
    activity = and_(
        Zone.item_type == "activity",
        Activity.id == Zone.item_id,
        Activity.cartography_id == Zone.cartography_id,
    )
    function = and_(
        Zone.item_type == "function",
        Function.id == Zone.item_id,
        Function.cartography_id == Zone.cartography_id,
    )
    return (
        _of_cartography(
            viewer,
            Zone.id,
            Zone.item_type,
            Zone.item_id,
            Zone.x,
            Zone.y,
            Zone.width,
            Zone.height,
            func.coalesce(Activity.code, Function.code, ""),
            func.coalesce(Activity.name, Function.name, ""),
            # Zones of the activities and functions the viewer does not see are left out.
            case(
                (Zone.item_type == "activity", sees_activity(viewer, Zone.item_id, Zone.cartography_id)),
                (Zone.item_type == "function", sees_function(viewer, Zone.item_id, Zone.cartography_id)),
                else_=true(),
            ),
        )
        .outerjoin(Zone, Zone.cartography_id == Cartography.id)
        .outerjoin(Activity, activity)
        .outerjoin(Function, function)
        .order_by(Zone.ordering, Zone.id)
    )


_ZONES = by_viewer(_zones_statement)


def zones(db: Session, *, user: Principal, cartography_id: int) -> list[ZoneOut]:
    return [
        ZoneOut(
            id=zone_id,
            type=item_type,
            item_id=item_id,
            item_code=code,
            item_name=name,
            rectangle=Rectangle(x=x, y=y, width=width, height=height),
        )
        for zone_id, item_type, item_id, x, y, width, height, code, name, seen in _visible_rows(
            db, user, _ZONES, cartography_id
        )
        if zone_id is not None and seen
    ]


_PICTOGRAMS = by_viewer(
    lambda viewer: (
        _of_cartography(
            viewer,
            Pictogram.id,
            Pictogram.activity_id,
            Activity.code,
            sees_activity(viewer, Pictogram.activity_id, Pictogram.cartography_id),
        )
        .outerjoin(Pictogram, Pictogram.cartography_id == Cartography.id)
        .outerjoin(Activity, Activity.id == Pictogram.activity_id)
        .order_by(Activity.ordering, Pictogram.id)
    )
)


def pictograms(db: Session, *, user: Principal, cartography_id: int) -> list[PictogramOut]:
    return [
        PictogramOut(
            id=pictogram_id,
            activity_id=activity_id,
            activity_code=code,
            image_url=f"{API_PREFIX}/pictos/{cartography_id}/{pictogram_id}/image",
        )
        for pictogram_id, activity_id, code, seen in _visible_rows(db, user, _PICTOGRAMS, cartography_id)
        if pictogram_id is not None and seen
    ]


def functions_of(db: Session, *, user: Principal, cartography_id: int) -> list[FunctionOut]:
    get_cartography(db, user=user, cartography_id=cartography_id)
    return [FunctionOut.model_validate(f) for f in _functions(db, user, cartography_id)]


# Of one cartography, what the viewer sees (spot.mapping.policy): its functions and its subjects counted
# by activity (its activities are service.activities_of).
_FUNCTIONS = by_viewer(
    lambda viewer: (
        select(Function)
        .where(
            Function.cartography_id == CARTOGRAPHY_ID,
            sees_function(viewer, Function.id, Function.cartography_id),
        )
        .order_by(Function.ordering, Function.id)
    )
)
_SUBJECT_COUNTS = by_viewer(
    lambda viewer: (
        select(Subject.activity_id, func.count())
        .where(
            Subject.cartography_id == CARTOGRAPHY_ID,
            sees_subject(viewer, Subject.function_id, Subject.activity_id, Subject.cartography_id),
        )
        .group_by(Subject.activity_id)
    )
)


def _functions(db: Session, user: Principal, cartography_id: int) -> Sequence[Function]:
    params = {"cartography_id": cartography_id, "viewer_id": user.id}
    return db.scalars(_FUNCTIONS.of(user), params).all()


def _direct_subject_counts(db: Session, user: Principal, cartography_id: int) -> dict[int, int]:
    params = {"cartography_id": cartography_id, "viewer_id": user.id}
    return dict(plain(db).execute(_SUBJECT_COUNTS.of(user), params).all())


def _total_counts(activities: Sequence[Activity], direct: dict[int, int]) -> dict[int, int]:
    children = _children(activities)
    totals: dict[int, int] = {}

    def total(activity_id: int) -> int:
        if activity_id not in totals:
            totals[activity_id] = direct.get(activity_id, 0) + sum(total(c.id) for c in children[activity_id])
        return totals[activity_id]

    for activity in activities:
        total(activity.id)
    return totals


def _children(activities: Sequence[Activity]) -> dict[int | None, list[Activity]]:
    children: dict[int | None, list[Activity]] = defaultdict(list)
    for activity in activities:
        children[activity.parent_id].append(activity)
    return children


def activity_tree(db: Session, *, user: Principal, cartography_id: int) -> list[ActivityNode]:
    activities = activities_of(db, user=user, cartography_id=cartography_id)
    children = _children(activities)
    totals = _total_counts(activities, _direct_subject_counts(db, user, cartography_id))

    def node(activity: Activity) -> ActivityNode:
        return ActivityNode(
            id=activity.id,
            code=activity.code,
            name=activity.name,
            subjects_count=totals[activity.id],
            activities=[node(c) for c in children[activity.id]],
        )

    return [node(a) for a in children[None]]


def _activity_list(
    db: Session, user: Principal, cartography_id: int, parent_id: int | None
) -> list[ActivityOut]:
    activities = activities_of(db, user=user, cartography_id=cartography_id)
    children = _children(activities)
    totals = _total_counts(activities, _direct_subject_counts(db, user, cartography_id))
    return [
        ActivityOut(
            id=a.id,
            code=a.code,
            name=a.name,
            cartography_id=a.cartography_id,
            parent_id=a.parent_id,
            has_sub_activities=bool(children[a.id]),
            subjects_count=totals[a.id],
        )
        for a in children[parent_id]
    ]


def top_activities(db: Session, *, user: Principal, cartography_id: int) -> list[ActivityOut]:
    get_cartography(db, user=user, cartography_id=cartography_id)
    return _activity_list(db, user, cartography_id, None)


def sub_activities(db: Session, *, user: Principal, activity_id: int) -> list[ActivityOut]:
    activity = get_activity(db, user=user, activity_id=activity_id)
    return _activity_list(db, user, activity.cartography_id, activity.id)


def stats(db: Session, *, cartography_id: int) -> Stats:
    reads, writes = history.cartography_counts(db, cartography_id=cartography_id)
    return Stats(reads=reads, writes=writes)


def cartography_view(db: Session, *, user: Principal, cartography_id: int) -> CartographyOut:
    """The cartography page; looking at it counts as a read, and its counters include this read."""
    cartography = get_cartography(db, user=user, cartography_id=cartography_id)
    site = cartography.site
    activities = activity_tree(db, user=user, cartography_id=cartography.id)
    functions = [FunctionOut.model_validate(f) for f in _functions(db, user, cartography.id)]
    # Written after the reads: on SQLite the first write holds the write lock until the commit.
    history.record(
        db,
        history.entry(
            user=user,
            item_type="cartography",
            item_id=cartography.id,
            item_key=cartography.code,
            item_name=cartography.name,
            mode="R",
            cartography_id=cartography.id,
        ),
    )
    return CartographyOut(
        id=cartography.id,
        code=cartography.code,
        name=cartography.name,
        site=SiteRef.model_validate(site),
        image_width=cartography.image_width,
        image_height=cartography.image_height,
        image_url=f"{API_PREFIX}/cartography/{cartography.id}/image",
        activities=activities,
        functions=functions,
        stats=stats(db, cartography_id=cartography.id),
        context=[entry(site, "site"), entry(cartography, "cartography")],
        discussion_id=cartography.discussion_id,
    )
