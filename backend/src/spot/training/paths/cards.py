"""Training path cards (PathCard): the lists', the infos' and the creation's answer."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session, aliased

from spot.core.principal import Principal
from spot.db import in_ids, plain
from spot.references.models import Reference
from spot.training.paths.completion import completion
from spot.training.paths.models import TrainingPath, TrainingPathModule
from spot.training.paths.records import person, readable, reference_of
from spot.users.models import User

# Cards (lists, infos, the creation's answer) --------------------------------------------------

CARD_COLUMNS: tuple[Any, ...] = (
    TrainingPath.id,
    TrainingPath.title,
    TrainingPath.status,
    TrainingPath.start_date,
    TrainingPath.stop_date,
    TrainingPath.created_at,
    TrainingPath.accepted_at,
    TrainingPath.validated_at,
    TrainingPath.signed_at,
    TrainingPath.done_items,
    TrainingPath.total_items,
)
_Learner = aliased(User)
_Creator = aliased(User)
# What a page's cards add to its rows, in one statement for the page: reference, learner, creator and
# number of assigned modules of each path.
_CARD_EXTRAS = (
    select(
        TrainingPath.id,
        Reference.code,
        Reference.label,
        Reference.description,
        TrainingPath.learner_id,
        _Learner.display_name,
        TrainingPath.creator_id,
        _Creator.display_name,
        TrainingPath.opened_by_spot,
        select(func.count())
        .where(TrainingPathModule.path_id == TrainingPath.id)
        .correlate(TrainingPath)
        .scalar_subquery(),
    )
    .outerjoin(Reference, Reference.id == TrainingPath.reference_id)
    .outerjoin(_Learner, _Learner.id == TrainingPath.learner_id)
    .outerjoin(_Creator, _Creator.id == TrainingPath.creator_id)
    .where(in_ids(TrainingPath.id, "ids"))
)


def card_fields(db: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """PathCard of each row of CARD_COLUMNS as JSON-ready data (camelCase keys), what the rows lack read
    in one statement for the page."""
    if not rows:
        return []
    extras = {row[0]: row[1:] for row in plain(db).execute(_CARD_EXTRAS, {"ids": [row[0] for row in rows]})}
    cards = []
    for row in rows:
        (path_id, title, status, start, stop, created, accepted, validated, signed, done, total) = row[
            : len(CARD_COLUMNS)
        ]
        code, label, description, learner_id, learner, creator_id, creator, by_spot, count = extras.get(
            path_id, (None,) * 7 + (False, 0)
        )
        cards.append(
            {
                "id": path_id,
                "title": title,
                "reference": reference_of(code, label, description),
                "learner": person(learner_id, learner),
                "creator": person(creator_id, creator),
                "openedBySpot": bool(by_spot),
                "status": status,
                "startDate": start,
                "stopDate": stop,
                "createdAt": created,
                "acceptanceDate": accepted,
                "validationDate": validated,
                "signatureDate": signed,
                "totalAssignedModules": count,
                "completion": completion(done, total),
            }
        )
    return cards


def infos(db: Session, *, user: Principal, ids: Sequence[int]) -> list[dict[str, Any]]:
    """The cards of the paths of `ids` the user may read, in the order given."""
    wanted = list(dict.fromkeys(ids))
    if not wanted:
        return []
    rows = db.execute(select(*CARD_COLUMNS).where(TrainingPath.id.in_(wanted), readable(user))).all()
    by_id = {row[0]: row for row in rows}
    return card_fields(db, [by_id[i] for i in wanted if i in by_id])
