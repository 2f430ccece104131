"""The `subject` entity type of the query language (the list filter fields of spec 1 §3) and
the SQL behind each field. Imported by subjects/routes.py so that it is registered with the app."""

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Select, String, cast, exists, false, or_, select
from sqlalchemy.orm import Session

from spot.core.history_models import HistoryEntry, is_write
from spot.core.principal import Principal
from spot.mapping.models import Activity, Cartography, NodeStatus, Subject, SubjectType
from spot.mapping.policy import sees_subject
from spot.mapping.service import subject_paths
from spot.querylang import EntityType, Field, FieldType, in_query, register
from spot.querylang.lists import ListSpec
from spot.querylang.tree import SortKey
from spot.subjects.schemas import SubjectCard
from spot.subjects.service import SUMMARY_COLUMNS, criticity_bands, event_user_names, summary_fields

CRITICITY_LEVELS = ("none", "low", "medium", "high")
# SQLite's FTS5 table of the folded name and code (migration 5b8e0c3f9a17).
SUBJECT_TRIGRAMS = "subject_trigrams"


def _activity_tree(seeds: Select[Any]) -> Select[Any]:
    """The activities of `seeds` (a select of activity ids) and all their sub-activities, at any depth."""
    tree = seeds.cte(recursive=True)
    tree = tree.union_all(select(Activity.id).where(Activity.parent_id == tree.c.id))
    return select(tree.c.id)


def _activities_under(ids: Sequence[Any]) -> Select[Any]:
    return _activity_tree(select(Activity.id).where(Activity.id.in_(ids)))


def _in_location(ids: tuple[Any, ...]) -> ColumnElement[bool]:
    """One of the subject's context items (site, cartography, function, activity or any
    activity above its own) is in the list; ids are unique across these types.

    A site's subjects are found through the activities of its cartographies (a subject's activity
    is of its own cartography, see service._check_links): SQLite, which cannot tell how many rows a
    subquery lists, takes a list of cartographies for most of the table and would leave the OR's
    indexes for any other filter's, where a list of activities looks as small as it is."""
    of_sites = Activity.cartography_id.in_(select(Cartography.id).where(Cartography.site_id.in_(ids)))
    activities = _activity_tree(select(Activity.id).where(or_(Activity.id.in_(ids), of_sites)))
    return or_(
        Subject.cartography_id.in_(ids),
        Subject.function_id.in_(ids),
        in_query(Subject.activity_id, activities),
    )


def _in_activity(ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return in_query(Subject.activity_id, _activities_under(ids))


def _contributed_by(user_ids: tuple[Any, ...]) -> ColumnElement[bool]:
    return exists().where(
        HistoryEntry.item_type == "subject",
        HistoryEntry.item_id == Subject.id,
        is_write(),
        HistoryEntry.user_id.in_(user_ids),
    )


def _criticity_in(levels: tuple[Any, ...]) -> ColumnElement[bool]:
    """Levels of subjects.service.criticity_level, as SQL on the stored score."""
    bands = criticity_bands(Subject.criticity_score)
    chosen = [bands[level] for level in levels if level in bands]
    return or_(*chosen) if chosen else false()


# Enum sorts compare text: the score as fixed-width digits sorts like the number.
_CRITICITY_ORDER = cast(Subject.criticity_score + 1000, String)


def _text(name: str, column: Any, folded: Any) -> Field:
    """A sortable text field with its folded column and the trigram table of both (SQLite)."""
    return Field(
        name, FieldType.STRING, column=column, folded=folded, trigrams=SUBJECT_TRIGRAMS, sortable=True
    )


def _mark(name: str, column_prefix: str) -> list[Field]:
    at, by = getattr(Subject, f"{column_prefix}_at"), getattr(Subject, f"{column_prefix}_by")
    return [
        Field(name, FieldType.BOOLEAN, column=at.is_not(None)),
        Field(f"{name}_by", FieldType.ID, column=by),
        Field(f"{name}_date", FieldType.DATE, column=at, sortable=True),
    ]


SUBJECT = register(
    EntityType(
        name="subject",
        primary_key=Subject.id,
        fields=[
            Field("location", FieldType.LOCATION, matches=_in_location),
            _text("name", Subject.name, Subject.name_folded),
            _text("code", Subject.code, Subject.code_folded),
            Field(
                "type",
                FieldType.ENUM,
                column=Subject.type,
                values=[t.value for t in SubjectType],
                sortable=True,
            ),
            Field("activity", FieldType.ID, matches=_in_activity),
            Field("function", FieldType.ID, column=Subject.function_id),
            Field(
                "node_status",
                FieldType.ENUM,
                values=[s.value for s in NodeStatus],
                column=Subject.main_node_status,
            ),
            Field("contributors", FieldType.ID, matches=_contributed_by),
            Field("created_by", FieldType.ID, column=Subject.created_by),
            Field("created_date", FieldType.DATE, column=Subject.created_at, sortable=True),
            Field("updated_by", FieldType.ID, column=Subject.updated_by),
            Field("updated_date", FieldType.DATE, column=Subject.updated_at, sortable=True),
            *_mark("followed", "followed"),
            *_mark("resolved", "resolved"),
            Field(
                "criticity",
                FieldType.ENUM,
                values=CRITICITY_LEVELS,
                matches=_criticity_in,
                sort_column=_CRITICITY_ORDER,
                sortable=True,
            ),
            Field("criticity_by", FieldType.ID, column=Subject.criticity_by),
            Field("criticity_date", FieldType.DATE, column=Subject.criticity_at, sortable=True),
            *_mark("standardized", "standardized"),
        ],
        default_sort=[SortKey("updated_date", descending=True)],
    )
)


def _visible(_db: Session, user: Principal) -> Select[Any]:
    """The subjects the user may see, as the columns of their cards (service.summary_fields)."""
    visible = select(*SUMMARY_COLUMNS)
    if not user.sees_every_cartography:
        visible = visible.where(
            sees_subject(user, Subject.function_id, Subject.activity_id, Subject.cartography_id)
        )
    return visible


def _cards(db: Session, _user: Principal, rows: Sequence[Any]) -> list[dict[str, Any]]:
    paths = subject_paths(db, rows)
    return [
        {**fields, "contexts": paths.subject(subject)}
        for fields, subject in zip(summary_fields(rows, event_user_names(db, rows)), rows, strict=True)
    ]


SUBJECTS = ListSpec(entity=SUBJECT, card=SubjectCard, visible=_visible, cards=_cards, measured=True)
