"""The reference lists (POST /training/references/query/{type}): one query-language entity type per
reference type (`module_reference`, `path_reference`…), so that each list has its own saved filters,
with the fields code, label and disabled (description can be filtered too)."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Select, select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey
from spot.references.models import Reference, ReferenceType
from spot.references.schemas import ReferenceCard

CARD_COLUMNS: tuple[Any, ...] = (Reference.code, Reference.label, Reference.description, Reference.disabled)


def entity_name(type: ReferenceType) -> str:
    return f"{type.value}_reference"


def _entity(type: ReferenceType) -> EntityType:
    return register(
        EntityType(
            name=entity_name(type),
            primary_key=Reference.id,
            fields=[
                Field(
                    "code",
                    FieldType.STRING,
                    column=Reference.code,
                    folded=Reference.code_folded,
                    sortable=True,
                ),
                Field(
                    "label",
                    FieldType.STRING,
                    column=Reference.label,
                    folded=Reference.label_folded,
                    sortable=True,
                ),
                Field(
                    "description",
                    FieldType.STRING,
                    column=Reference.description,
                    folded=Reference.description_folded,
                ),
                Field("disabled", FieldType.BOOLEAN, column=Reference.disabled, sortable=True),
            ],
            default_sort=[SortKey("code")],
        )
    )


def _spec(type: ReferenceType) -> ListSpec:
    def visible(_db: Session, _user: Principal) -> Select[Any]:
        return select(*CARD_COLUMNS).where(Reference.type == type.value)

    def cards(_db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
        return [
            {"code": r.code, "label": r.label, "description": r.description, "disabled": r.disabled}
            for r in rows
        ]

    return ListSpec(entity=_entity(type), card=ReferenceCard, visible=visible, cards=cards)


LISTS: dict[ReferenceType, ListSpec] = {type: _spec(type) for type in ReferenceType}
