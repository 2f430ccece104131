"""The subjects' own tables; the subject and its mind map's nodes are tables of the map
(spot.mapping.models), which the map's pages and lists read."""

from datetime import datetime

from sqlalchemy import JSON, ForeignKey
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


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
