from collections.abc import Callable

from sqlalchemy import Float, ForeignKey, Index, Integer, String, UniqueConstraint, insert
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, mapped_column, relationship

from spot.core import files
from spot.db import Base


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


# Plans and pictograms are stored files (core.files removes those no row refers to any more).
files.REFERENCES += [Cartography.image_ref, Pictogram.image_ref]
