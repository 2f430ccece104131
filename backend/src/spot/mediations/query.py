"""The `mediation` entity type of the query language (the mediation filter fields of spec 1 §3) and the
list of POST /mediation/query: only the mediations the user may read (service.readable, in SQL), as
cards whose persons' names are read in one statement per page."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.mediations.cards import CARD_COLUMNS, card_fields
from spot.mediations.models import Mediation, MediationParticipant, MediationStatus
from spot.mediations.schemas import MediationCard
from spot.mediations.service import readable
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey


def _with_participants(user_ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return Mediation.id.in_(
        select(MediationParticipant.mediation_id).where(MediationParticipant.user_id.in_(user_ids))
    )


MEDIATION = register(
    EntityType(
        name="mediation",
        primary_key=Mediation.id,
        fields=[
            Field(
                "title",
                FieldType.STRING,
                column=Mediation.title,
                folded=Mediation.title_folded,
                sortable=True,
            ),
            Field(
                "description",
                FieldType.STRING,
                column=Mediation.description,
                folded=Mediation.description_folded,
            ),
            Field("scheduled", FieldType.BOOLEAN, column=Mediation.scheduling_date.is_not(None)),
            Field("scheduling_date", FieldType.DATE, column=Mediation.scheduling_date, sortable=True),
            Field("last_update", FieldType.DATE, column=Mediation.updated_at, sortable=True),
            Field("execution_start", FieldType.DATE, column=Mediation.execution_start, sortable=True),
            Field("execution_stop", FieldType.DATE, column=Mediation.execution_stop, sortable=True),
            Field("creator", FieldType.ID, column=Mediation.creator_id),
            Field("mediator", FieldType.ID, column=Mediation.mediator_id),
            Field("participants", FieldType.ID, matches=_with_participants),
            Field(
                "status",
                FieldType.ENUM,
                column=Mediation.status,
                values=[s.value for s in MediationStatus],
                sortable=True,
            ),
        ],
        default_sort=[SortKey("last_update", descending=True)],
    )
)


def _visible(_db: Session, user: Principal) -> Select[Any]:
    return select(*CARD_COLUMNS).where(readable(user))


def _cards(db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    return card_fields(db, rows)


MEDIATIONS = ListSpec(entity=MEDIATION, card=MediationCard, visible=_visible, cards=_cards)
