"""A mediation's people as the API shows them ({id, name}, lastUpdate), and its card in lists:
`CARD_COLUMNS`, what lists read of a mediation, and `card_fields(db, rows)`, MediationCard as JSON-ready
data from rows of CARD_COLUMNS, the names read in one statement for the whole page."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.mediations.models import Mediation
from spot.users.models import User


def read_names(db: Session, ids: Iterable[int | None]) -> dict[int, str]:
    wanted = sorted({i for i in ids if i is not None})
    if not wanted:
        return {}
    return dict(db.execute(select(User.id, User.display_name).where(User.id.in_(wanted))).all())


def person(person_id: int | None, names: dict[int, str]) -> dict[str, Any] | None:
    return (
        None if person_id is None or person_id not in names else {"id": person_id, "name": names[person_id]}
    )


def last_update(user_id: int | None, at: datetime | None, names: dict[int, str]) -> dict[str, Any] | None:
    if at is None:
        return None
    return {"userId": user_id, "userName": names.get(user_id, "") if user_id is not None else "", "date": at}


# What lists read of a mediation, in the order card takes it.
CARD_COLUMNS: tuple[Any, ...] = (
    Mediation.id,
    Mediation.title,
    Mediation.description,
    Mediation.status,
    Mediation.scheduling_date,
    Mediation.execution_start,
    Mediation.execution_stop,
    Mediation.creator_id,
    Mediation.mediator_id,
    Mediation.updated_by,
    Mediation.updated_at,
)
_CARD_USERS = (7, 8, 9)


def card(values: Sequence[Any], names: dict[int, str]) -> dict[str, Any]:
    (mediation_id, title, description, status, scheduled, start, stop, creator, mediator, by, at) = values[
        : len(CARD_COLUMNS)
    ]
    return {
        "id": mediation_id,
        "title": title,
        "description": description,
        "status": status,
        "schedulingDate": scheduled,
        "executionStart": start,
        "executionStop": stop,
        "creator": person(creator, names),
        "mediator": person(mediator, names),
        "lastUpdate": last_update(by, at, names),
    }


def card_fields(db: Session, rows: Sequence[Any]) -> list[dict[str, Any]]:
    """MediationCard of each row of CARD_COLUMNS as JSON-ready data, the persons' names read in one
    statement for the whole page."""
    names = read_names(db, (row[i] for row in rows for i in _CARD_USERS))
    return [card(row, names) for row in rows]
