"""The lists of qualifications (spec 2 §2 Qualifications list, §7):

- entity `qualification`, POST /qualifications/query: every qualification (all signed-in users read
  them), as QualificationCard whose links are read in one statement per page;
- entity `userQualification`, POST /qualifications/queryUserQualifications: the pairs (person
  concerned, qualification), a person being concerned by a qualification as a member of one of its
  qualifiable groups, as QualificationStatus records whose validity is computed for the whole page in
  one statement (qualifications.validity). Without perm_TableauBord only one's own pairs are listed."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import BigInteger, ColumnElement, Select, cast, literal, select
from sqlalchemy.orm import Session

from spot.core import time as clock
from spot.core.principal import Principal
from spot.qualifications import dashboards, policy, service
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationGroup,
    QualificationModule,
)
from spot.qualifications.schemas import QualificationCard, QualificationStatus
from spot.querylang import EntityType, Field, FieldType, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey
from spot.users.models import User, user_group


def _linked(model: Any, column: Any) -> Any:
    def matches(ids: tuple[Any, ...]) -> ColumnElement[bool]:
        return Qualification.id.in_(select(model.qualification_id).where(column.in_(ids)))

    return matches


QUALIFICATION = register(
    EntityType(
        name="qualification",
        primary_key=Qualification.id,
        fields=[
            Field(
                "name",
                FieldType.STRING,
                column=Qualification.name,
                folded=Qualification.name_folded,
                sortable=True,
            ),
            Field(
                "cartographies",
                FieldType.ID,
                matches=_linked(QualificationCartography, QualificationCartography.cartography_id),
            ),
            Field(
                "qualifiableGroups",
                FieldType.ID,
                matches=_linked(QualificationGroup, QualificationGroup.group_id),
            ),
            Field(
                "modules", FieldType.ID, matches=_linked(QualificationModule, QualificationModule.module_id)
            ),
        ],
        default_sort=[SortKey("name")],
    )
)


_CARD_COLUMNS: tuple[Any, ...] = (Qualification.id, Qualification.name)


def _visible(_db: Session, _user: Principal) -> Select[Any]:
    return select(*_CARD_COLUMNS)


def _cards(db: Session, user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    linked = service.links(db, [row[0] for row in rows], user)
    return [
        {
            "id": qualification_id,
            "name": name,
            "cartographies": [{"id": i, "name": n} for i, n, _ in linked[qualification_id].cartographies],
            "qualifiableGroups": [{"id": i, "name": n} for i, n in linked[qualification_id].groups],
            "modules": [{"id": i, "name": n} for i, n, _, _ in linked[qualification_id].modules],
        }
        for qualification_id, name in rows
    ]


QUALIFICATIONS = ListSpec(entity=QUALIFICATION, card=QualificationCard, visible=_visible, cards=_cards)


# The pairs (person concerned, qualification) -----------------------------------------------------------

_PAIRS = (
    select(
        QualificationGroup.qualification_id.label("qualification_id"),
        user_group.c.user_id.label("user_id"),
    )
    .join(user_group, user_group.c.group_id == QualificationGroup.group_id)
    .distinct()
    .subquery("concerned")
)
# One number per pair, for the order's last key (pages never overlap) and the page's rows.
_PAIR_KEY = cast(_PAIRS.c.qualification_id, BigInteger) * literal(2**31, BigInteger) + _PAIRS.c.user_id

USER_QUALIFICATION = register(
    EntityType(
        name="userQualification",
        primary_key=_PAIR_KEY,
        fields=[
            Field("user", FieldType.ID, column=_PAIRS.c.user_id),
            Field("qualification", FieldType.ID, column=_PAIRS.c.qualification_id),
            Field(
                "qualification_name",
                FieldType.STRING,
                column=Qualification.name,
                folded=Qualification.name_folded,
                sortable=True,
            ),
            Field("user_name", FieldType.STRING, column=User.display_name, sortable=True),
        ],
        default_sort=[SortKey("qualification_name"), SortKey("user_name")],
    )
)


def _visible_pairs(_db: Session, user: Principal) -> Select[Any]:
    statement = (
        select(_PAIRS.c.qualification_id, _PAIRS.c.user_id, Qualification.name, User.display_name)
        .join(Qualification, Qualification.id == _PAIRS.c.qualification_id)
        .join(User, User.id == _PAIRS.c.user_id)
    )
    if not policy.can_see_dashboards(user):
        statement = statement.where(_PAIRS.c.user_id == user.id)
    return statement


def _statuses(db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    return dashboards.statuses(db, rows=rows, today=clock.today())


USER_QUALIFICATIONS = ListSpec(
    entity=USER_QUALIFICATION, card=QualificationStatus, visible=_visible_pairs, cards=_statuses
)
