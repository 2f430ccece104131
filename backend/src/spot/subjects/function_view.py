"""The function view (GET /function/{id}/view): one table per top-level activity of the cartography,
listing the function's subjects that the reader sees, as the subject lists show them."""

from collections import defaultdict
from typing import Any

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from spot.core import history
from spot.core.principal import Principal
from spot.db import plain
from spot.mapping import service as mapping
from spot.mapping.models import Subject
from spot.mapping.policy import by_viewer
from spot.subjects import policy, service

_FUNCTION_SUBJECTS = by_viewer(
    lambda viewer: (
        select(*service.SUMMARY_COLUMNS)
        .where(Subject.function_id == bindparam("function_id"), service.sees_subject_row(viewer))
        .order_by(Subject.name, Subject.id)
    )
)


def read(db: Session, *, user: Principal, function_id: int) -> dict[str, Any]:
    """One table per top-level activity of the cartography, listing the subjects of this
    function in that activity or any of its sub-activities: FunctionView as JSON-ready data
    (see summary_fields)."""
    function = mapping.get_function(db, user=user, function_id=function_id)
    activities = mapping.activities_of(db, user=user, cartography_id=function.cartography_id)
    by_id = {a.id: a for a in activities}

    def top(activity_id: int) -> int:
        seen = set()
        current = by_id.get(activity_id)
        while current is not None and current.parent_id is not None and current.id not in seen:
            seen.add(current.id)
            current = by_id.get(current.parent_id)
        return current.id if current is not None else activity_id

    params = {"function_id": function.id, "viewer_id": user.id}
    subjects = plain(db).execute(_FUNCTION_SUBJECTS.of(user), params).all()
    grouped: dict[int, list[dict]] = defaultdict(list)
    for fields in service.summary_fields(subjects, service.event_user_names(db, subjects)):
        grouped[top(fields["activityId"])].append(fields)
    view = {
        "id": function.id,
        "code": function.code,
        "name": function.name,
        "cartographyId": function.cartography_id,
        "context": mapping.cartography_context(db, function.cartography_id),
        "activities": [
            {"id": a.id, "code": a.code, "name": a.name, "subjects": grouped.get(a.id, [])}
            for a in activities
            if a.parent_id is None
        ],
        "discussionId": function.discussion_id,
        "can": policy.can_on_function(user, function),
    }
    history.record(
        db,
        history.entry(
            user=user,
            item_type="function",
            item_id=function.id,
            item_key=function.code,
            item_name=function.name,
            mode="R",
            cartography_id=function.cartography_id,
        ),
    )
    return view
