"""The `trainingModule` entity type of the query language (the module list filter fields of spec 2 §3)
and the list of POST /training/module/query: every module (the route needs perm_TrainingManagement),
as cards whose references, creators' names and element counts are read in one statement per page."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, and_, exists, select
from sqlalchemy.orm import Session

from spot.core.principal import Principal
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey
from spot.references.models import Reference, ReferenceType
from spot.training.modules.models import ItemKind, ModuleType, TrainingModule, TrainingModuleItem
from spot.training.modules.schemas import ModuleCard
from spot.training.modules.service import CARD_COLUMNS, card_fields


def _with_reference(codes: tuple[Any, ...]) -> ColumnElement[bool]:
    """The module's reference is one of these codes (module references); never NULL, so that noneOf
    keeps the modules without a reference."""
    return and_(
        TrainingModule.reference_id.is_not(None),
        TrainingModule.reference_id.in_(
            select(Reference.id).where(Reference.type == ReferenceType.module, Reference.code.in_(codes))
        ),
    )


def _with_item_kind(kinds: tuple[Any, ...]) -> ColumnElement[bool]:
    """The module has an element of one of these kinds."""
    return exists().where(
        TrainingModuleItem.module_id == TrainingModule.id, TrainingModuleItem.kind.in_(kinds)
    )


TRAINING_MODULE = register(
    EntityType(
        name="trainingModule",
        primary_key=TrainingModule.id,
        fields=[
            Field("enabled", FieldType.BOOLEAN, column=TrainingModule.enabled, sortable=True),
            Field(
                "name",
                FieldType.STRING,
                column=TrainingModule.name,
                folded=TrainingModule.name_folded,
                sortable=True,
            ),
            Field(
                "module_type",
                FieldType.ENUM,
                column=TrainingModule.module_type,
                values=[t.value for t in ModuleType],
                sortable=True,
            ),
            Field("goals", FieldType.STRING, column=TrainingModule.goals, folded=TrainingModule.goals_folded),
            Field("reference", FieldType.ID, matches=_with_reference, id_type=str),
            Field("creator", FieldType.ID, column=TrainingModule.creator_id),
            Field("creation_date", FieldType.DATE, column=TrainingModule.created_at, sortable=True),
            Field("item_type", FieldType.ENUM, matches=_with_item_kind, values=[k.value for k in ItemKind]),
        ],
        default_sort=[SortKey("name")],
    )
)


def _visible(_db: Session, _user: Principal) -> Select[Any]:
    return select(*CARD_COLUMNS)


def _cards(db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    return card_fields(db, rows)


TRAINING_MODULES = ListSpec(entity=TRAINING_MODULE, card=ModuleCard, visible=_visible, cards=_cards)
