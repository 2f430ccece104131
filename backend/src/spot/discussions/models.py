from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


class Discussion(Base):
    """The thread of one item (a cartography, a function, a subject; later a mediation or a
    qualification). The item names it by its `discussion_id` column, so that its page carries
    `discussionId` without a statement of its own; reading or posting follows the item's visibility
    (core.parents)."""

    __tablename__ = "discussion"
    __table_args__ = (UniqueConstraint("parent_type", "parent_id", name="uq_discussion_parent"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    parent_type: Mapped[str] = mapped_column(String(30))
    parent_id: Mapped[int] = mapped_column(Integer)


class DiscussionMessage(Base):
    """A message: typed by its author, or written by the server for an action (a system message, of
    a type of SystemMessageType with its arguments, which the client words in the reader's language)."""

    __tablename__ = "discussion_message"
    __table_args__ = (
        Index("ix_discussion_message_discussion", "discussion_id", "at"),
        # The discussions a user took part in (the teamwork menu).
        Index("ix_discussion_message_author", "author_id", "discussion_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    discussion_id: Mapped[int] = mapped_column(ForeignKey("discussion.id", ondelete="CASCADE"))
    # The user who wrote it or whose action it reports; null for none (or a deleted user).
    author_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    content: Mapped[str] = mapped_column(Text, default="")
    system_type: Mapped[str | None] = mapped_column(String(40))
    system_args: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class DiscussionRead(Base):
    """When a user last read a discussion: its later messages from others are unread."""

    __tablename__ = "discussion_read"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    discussion_id: Mapped[int] = mapped_column(
        ForeignKey("discussion.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    read_at: Mapped[datetime] = mapped_column(UtcDateTime)
    # The newest message then: the messages after it are unread (ids, unlike times, never tie).
    read_up_to: Mapped[int] = mapped_column(Integer, default=0)
