from datetime import datetime
from enum import StrEnum

from sqlalchemy import JSON, Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from spot.core import files
from spot.db import Base, UtcDateTime
from spot.mapping.models import map_item_id
from spot.querylang.text import fold


class SubjectType(StrEnum):
    risk = "risk"
    quality = "quality"


class NodeStatus(StrEnum):
    """Progress of a mind-map node; the main node's status is shown on subject cards."""

    empty = "empty"
    inProgress = "inProgress"
    toValidate = "toValidate"
    validated = "validated"


# The lifetime marks of a subject: each is a (user, date) pair of columns, indexed for list filters.
LIFETIME_EVENTS = ("creation", "lastUpdate", "followed", "resolved", "criticity", "standardized")
LIFETIME_COLUMNS = ("created", "updated", "followed", "resolved", "criticity", "standardized")


def _by() -> Mapped[int | None]:
    return mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)


def _at() -> Mapped[datetime | None]:
    return mapped_column(UtcDateTime, index=True)


def _folded(length: int) -> Mapped[str]:
    """fold() of a text column, for the list filters and sorts (spot.querylang Field.folded); in
    the "C" collation on PostgreSQL, the code-point order lists sort in."""
    folded = String(length).with_variant(String(length, collation="C"), "postgresql")
    return mapped_column(folded, default="", server_default="")


class Subject(Base):
    __tablename__ = "subject"
    __table_args__ = (
        UniqueConstraint("cartography_id", "code", name="uq_subject_cartography_code"),
        Index("ix_subject_function", "function_id"),
        Index("ix_subject_activity", "activity_id"),
        # Subject counts per activity of a cartography, from the index alone.
        Index("ix_subject_cartography_activity", "cartography_id", "activity_id"),
        Index("ix_subject_name_folded", "name_folded", "id"),
        Index("ix_subject_main_node_status", "main_node_status"),
        Index("ix_subject_code_folded", "code_folded", "id"),
        # PostgreSQL also has, from its migrations: descending indexes of the sorted dates, and GIN
        # trigram indexes of the folded name and code for 'contains' (migration 7c1e5a9d2b40).
    )

    id: Mapped[int] = map_item_id("subject")
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(300))
    code_folded: Mapped[str] = _folded(100)
    name_folded: Mapped[str] = _folded(300)
    type: Mapped[str] = mapped_column(String(20), default=SubjectType.risk.value)
    cartography_id: Mapped[int] = mapped_column(ForeignKey("cartography.id", ondelete="CASCADE"))
    function_id: Mapped[int] = mapped_column(ForeignKey("function.id", ondelete="CASCADE"))
    # The sub-activity when one was chosen, else the activity.
    activity_id: Mapped[int] = mapped_column(ForeignKey("activity.id", ondelete="CASCADE"))
    frequency: Mapped[int] = mapped_column(Integer, default=0)
    gravity: Mapped[int] = mapped_column(Integer, default=0)
    detectability: Mapped[int] = mapped_column(Integer, default=0)
    # 0-100, null while frequency or gravity is undefined (0); stored so that lists sort on it.
    criticity_score: Mapped[int | None] = mapped_column(Integer, index=True)
    created_by: Mapped[int | None] = _by()
    created_at: Mapped[datetime | None] = _at()
    updated_by: Mapped[int | None] = _by()
    updated_at: Mapped[datetime | None] = _at()
    followed_by: Mapped[int | None] = _by()
    followed_at: Mapped[datetime | None] = _at()
    resolved_by: Mapped[int | None] = _by()
    resolved_at: Mapped[datetime | None] = _at()
    criticity_by: Mapped[int | None] = _by()
    criticity_at: Mapped[datetime | None] = _at()
    standardized_by: Mapped[int | None] = _by()
    standardized_at: Mapped[datetime | None] = _at()
    standardized_comment: Mapped[str] = mapped_column(Text, default="")
    # True when the subject has a diagram: a stored file here (diagram_ref), or one kept by the legacy
    # application (imported subjects, SPOT_LEGACY_BASE_URL).
    has_diagram: Mapped[bool] = mapped_column(Boolean, default=False)
    # The diagram (an image or a PDF, the resources' upload rules), a stored file (core.files).
    diagram_ref: Mapped[str | None] = mapped_column(String(64))
    diagram_media_type: Mapped[str | None] = mapped_column(String(40))
    diagram_sha256: Mapped[str | None] = mapped_column(String(64))
    diagram_name: Mapped[str | None] = mapped_column(String(300))
    picture_ref: Mapped[str | None] = mapped_column(String(64))
    picture_media_type: Mapped[str | None] = mapped_column(String(40))
    picture_sha256: Mapped[str | None] = mapped_column(String(64))
    last_mindmap_update: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The mind map's own optimistic version: every change of the tree checks and bumps it in one
    # UPDATE (subjects.mindmap.service), apart from `version`, so that editing the tree does not make an open
    # subject form stale, nor the form the tree.
    mind_map_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    # The status of the mind-map node of code 0, for lists to filter and show without reading the
    # mind map. Kept by database triggers on mind_map_item (migration 025fcc737dea), so it is right
    # whoever writes the nodes; an object loaded before such a write still holds the old value.
    main_node_status: Mapped[str | None] = mapped_column(String(20))
    # Its thread (spot.discussions), made with it: its page names it without a statement of its own.
    discussion_id: Mapped[int | None] = mapped_column(ForeignKey("discussion.id", ondelete="SET NULL"))
    version: Mapped[int] = mapped_column(Integer, default=1)
    mind_map_items: Mapped[list["MindMapItem"]] = relationship(
        cascade="all, delete-orphan", order_by="MindMapItem.code", lazy="selectin"
    )

    # Every UPDATE checks and bumps the version, so two concurrent writers cannot both win.
    __mapper_args__ = {"version_id_col": version}

    @validates("code", "name")
    def _keep_folded(self, key: str, value: str) -> str:
        setattr(self, f"{key}_folded", fold(value))
        return value


# Lists sort dates with missing ones last, descending too; PostgreSQL's plain indexes give DESC NULLS
# FIRST (SQLite's NULLs, the smallest values, come last anyway).
for _column in LIFETIME_COLUMNS:
    Index(
        f"ix_subject_{_column}_at_desc", getattr(Subject, f"{_column}_at").desc().nulls_last(), Subject.id
    ).ddl_if(dialect="postgresql")


class MindMapItem(Base):
    """A node of a subject's mind map, a tree: the main node (code 0) is its root, the only node
    without a parent; the others are ordered among their siblings by `position`. Deleting a node
    deletes its subtree (the parent's foreign key cascades)."""

    __tablename__ = "mind_map_item"
    __table_args__ = (
        UniqueConstraint("subject_id", "code", name="uq_mind_map_item_subject_code"),
        Index("ix_mind_map_item_status", "status"),
        Index("ix_mind_map_item_parent", "parent_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    subject_id: Mapped[int] = mapped_column(ForeignKey("subject.id", ondelete="CASCADE"))
    # 0 is the main node; unique within the subject, never reused by the editor (max + 1).
    code: Mapped[int] = mapped_column(Integer)
    # The node's title.
    name: Mapped[str] = mapped_column(String(300), default="")
    status: Mapped[str] = mapped_column(String(20), default=NodeStatus.empty.value)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("mind_map_item.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    text: Mapped[str] = mapped_column(Text, default="", server_default="")
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    updated_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    updated_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class StandardizedMindMap(Base):
    """The read-only copy of a subject's mind map kept when it was last standardized: `nodes` is a
    list of {code, parentCode, position, name, text, status}, the tree as it was then."""

    __tablename__ = "standardized_mind_map"

    subject_id: Mapped[int] = mapped_column(ForeignKey("subject.id", ondelete="CASCADE"), primary_key=True)
    standardized_at: Mapped[datetime] = mapped_column(UtcDateTime)
    standardized_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    nodes: Mapped[list[dict[str, object]]] = mapped_column(JSON)


class SubjectVisit(Base):
    """When a user last looked at a subject: a card is unread when never visited or when its
    mind map changed after the visit."""

    __tablename__ = "subject_visit"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    subject_id: Mapped[int] = mapped_column(
        ForeignKey("subject.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    visited_at: Mapped[datetime] = mapped_column(UtcDateTime)


# Pictures are stored files (core.files removes those no row refers to any more).
files.REFERENCES.extend((Subject.picture_ref, Subject.diagram_ref))
