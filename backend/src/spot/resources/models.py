from datetime import datetime
from enum import StrEnum

from sqlalchemy import BigInteger, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import files
from spot.db import Base, UtcDateTime


class ResourceType(StrEnum):
    image = "image"
    pdf = "pdf"
    file = "file"
    link = "link"
    youtube = "youtube"


# The types whose resource is an uploaded file.
FILE_TYPES = frozenset({ResourceType.image, ResourceType.pdf, ResourceType.file})


class Resource(Base):
    """One item of a gallery. Its parent is named by type and id (core.parents): a cartography, a
    function, a subject, later a qualification or a mediation. The rows of a deleted parent go with
    it (database triggers, migration of this table)."""

    __tablename__ = "resource"
    __table_args__ = (Index("ix_resource_parent", "parent_type", "parent_id", "ordering"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    parent_type: Mapped[str] = mapped_column(String(30))
    parent_id: Mapped[int] = mapped_column(Integer)
    resource_type: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(300))
    # The file's name for a file, the address for a link, the video id for a YouTube video.
    link: Mapped[str] = mapped_column(String(2000))
    comment: Mapped[str] = mapped_column(Text, default="")
    ordering: Mapped[int] = mapped_column(Integer, default=0)
    file_ref: Mapped[str | None] = mapped_column(String(64), index=True)
    thumbnail_ref: Mapped[str | None] = mapped_column(String(64), index=True)
    media_type: Mapped[str | None] = mapped_column(String(100))
    size: Mapped[int | None] = mapped_column(BigInteger)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"version_id_col": version}


# Files and thumbnails are stored files (core.files removes those no row refers to any more).
files.REFERENCES += [Resource.file_ref, Resource.thumbnail_ref]
