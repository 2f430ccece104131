from collections.abc import Callable
from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint, insert
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from spot.core import files
from spot.db import Base, UtcDateTime
from spot.querylang.text import fold


class MapItemId(Base):
    """One id space shared by sites, cartographies, activities, functions and subjects, so that an
    id of a location filter (`location oneOf 12,14`, spec 1 §2 function view) or of `itemIds` names
    exactly one item of the hierarchy whatever its type."""

    __tablename__ = "map_item_id"

    id: Mapped[int] = mapped_column(primary_key=True)
    type: Mapped[str] = mapped_column(String(20))


def _next_id(kind: str) -> Callable[[DefaultExecutionContext], int]:
    def allocate(context: DefaultExecutionContext) -> int:
        result = context.connection.execute(insert(MapItemId).values(type=kind))
        return int(result.inserted_primary_key[0])  # type: ignore[index]

    return allocate


def map_item_id(kind: str) -> Mapped[int]:
    """A primary key taken from the shared series, its type recorded with it."""
    return mapped_column(primary_key=True, autoincrement=False, default=_next_id(kind))


class Site(Base):
    __tablename__ = "site"

    id: Mapped[int] = map_item_id("site")
    code: Mapped[str] = mapped_column(String(100), unique=True)
    name: Mapped[str] = mapped_column(String(300))
    cartographies: Mapped[list["Cartography"]] = relationship(
        back_populates="site", order_by="Cartography.ordering, Cartography.id", passive_deletes=True
    )


class Cartography(Base):
    """A map of a site: an image on which zones point at activities and functions."""

    __tablename__ = "cartography"
    __table_args__ = (UniqueConstraint("site_id", "code", name="uq_cartography_site_code"),)

    id: Mapped[int] = map_item_id("cartography")
    site_id: Mapped[int] = mapped_column(ForeignKey("site.id", ondelete="CASCADE"), index=True)
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(300))
    ordering: Mapped[int] = mapped_column(Integer, default=0)
    # The image is a file of the FileStore; its SHA-256 is the ETag and tells re-imports apart.
    image_ref: Mapped[str | None] = mapped_column(String(64))
    image_media_type: Mapped[str | None] = mapped_column(String(40))
    image_sha256: Mapped[str | None] = mapped_column(String(64))
    image_width: Mapped[int] = mapped_column(Integer, default=0)
    image_height: Mapped[int] = mapped_column(Integer, default=0)
    # Its thread (spot.discussions), made with it: its page names it without a statement of its own.
    discussion_id: Mapped[int | None] = mapped_column(ForeignKey("discussion.id", ondelete="SET NULL"))
    site: Mapped[Site] = relationship(back_populates="cartographies")


class Activity(Base):
    """Activities nest: a sub-activity has a parent in the same cartography."""

    __tablename__ = "activity"
    __table_args__ = (
        UniqueConstraint("cartography_id", "code", name="uq_activity_cartography_code"),
        Index("ix_activity_parent", "parent_id", "ordering"),
    )

    id: Mapped[int] = map_item_id("activity")
    cartography_id: Mapped[int] = mapped_column(ForeignKey("cartography.id", ondelete="CASCADE"), index=True)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("activity.id", ondelete="CASCADE"))
    ordering: Mapped[int] = mapped_column(Integer, default=0)
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(300))


class Function(Base):
    __tablename__ = "function"
    __table_args__ = (UniqueConstraint("cartography_id", "code", name="uq_function_cartography_code"),)

    id: Mapped[int] = map_item_id("function")
    cartography_id: Mapped[int] = mapped_column(ForeignKey("cartography.id", ondelete="CASCADE"), index=True)
    ordering: Mapped[int] = mapped_column(Integer, default=0)
    code: Mapped[str] = mapped_column(String(100))
    name: Mapped[str] = mapped_column(String(300))
    # Its thread (spot.discussions), made with it: its page names it without a statement of its own.
    discussion_id: Mapped[int | None] = mapped_column(ForeignKey("discussion.id", ondelete="SET NULL"))
    # How many qualified people it needs (0..1000; qualifications.coverage measures against it).
    minimum_qualified: Mapped[int] = mapped_column(Integer, default=3, server_default="3")


class Zone(Base):
    """A clickable rectangle of a cartography image, in image pixels, pointing at one item."""

    __tablename__ = "zone"

    id: Mapped[int] = mapped_column(primary_key=True)
    cartography_id: Mapped[int] = mapped_column(ForeignKey("cartography.id", ondelete="CASCADE"), index=True)
    ordering: Mapped[int] = mapped_column(Integer, default=0)
    item_type: Mapped[str] = mapped_column(String(30))
    item_id: Mapped[int] = mapped_column(Integer)
    x: Mapped[float] = mapped_column(Float)
    y: Mapped[float] = mapped_column(Float)
    width: Mapped[float] = mapped_column(Float)
    height: Mapped[float] = mapped_column(Float)


class Pictogram(Base):
    """The small image shown beside an activity; at most one per activity."""

    __tablename__ = "pictogram"

    id: Mapped[int] = mapped_column(primary_key=True)
    cartography_id: Mapped[int] = mapped_column(ForeignKey("cartography.id", ondelete="CASCADE"), index=True)
    activity_id: Mapped[int] = mapped_column(ForeignKey("activity.id", ondelete="CASCADE"), unique=True)
    image_ref: Mapped[str] = mapped_column(String(64))
    image_media_type: Mapped[str] = mapped_column(String(40))
    image_sha256: Mapped[str] = mapped_column(String(64))


class CartographyVisibility(Base):
    """The cartographies (and items) a group may see. See spot.mapping.policy for the rule."""

    __tablename__ = "cartography_visibility"
    __table_args__ = (Index("ix_cartography_visibility_item", "item_type", "item_id"),)

    group_id: Mapped[int] = mapped_column(ForeignKey("group.id", ondelete="CASCADE"), primary_key=True)
    item_type: Mapped[str] = mapped_column(String(30), primary_key=True)
    item_id: Mapped[int] = mapped_column(Integer, primary_key=True)


# The map's leaves: subjects and the nodes of their mind maps. The rules about them are the subjects
# area's; the map's pages, lists, visibility and transfers read these tables.


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
    # The prevention measures taken or planned against the risk (the DUERP prints them; docs/documents.md).
    prevention_measures: Mapped[str] = mapped_column(Text, default="", server_default="")
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
    # The highest node code the mind map ever gave: a new node takes the next one, so that the code of
    # a deleted node (in a link, a bookmark, a message) never names another node.
    mind_map_last_code: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
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


def criticity_score(frequency: int, gravity: int) -> int | None:
    """The stored score of a subject's ratings (spec 1 §4): 0-100 from frequency × gravity (each 0-5);
    undefined while either is 0 ('not defined')."""
    if frequency == 0 or gravity == 0:
        return None
    return round(frequency * gravity / 25 * 100)


# Plans, pictograms, pictures and diagrams are stored files (core.files removes those no row refers
# to any more).
files.REFERENCES.extend(
    (Cartography.image_ref, Pictogram.image_ref, Subject.picture_ref, Subject.diagram_ref)
)
