"""Training paths, as far as modules need them: a path assigns modules to a learner, and a module
used by a path can no longer be deleted, nor edited once such a path left notAccepted (spec 2 §4).

These are the minimal tables of issue 15 (the module usage counts and the path reference usage read
them); issue 16 builds paths on them and adds what the rest of spec 2 §3 Training path holds
(dates, threshold, visibility, the assigned modules' referents, results and gradings)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


class PathStatus(StrEnum):
    """Spec 2 §4 Path status. Every status but notAccepted means the learner accepted the path once."""

    notAccepted = "notAccepted"
    accepted = "accepted"
    started = "started"
    finished = "finished"
    validated = "validated"
    archived = "archived"
    canceled = "canceled"


class TrainingPath(Base):
    __tablename__ = "training_path"

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    # A path reference (training_reference of type 'path'); one in use cannot be deleted.
    reference_id: Mapped[int | None] = mapped_column(
        ForeignKey("training_reference.id", ondelete="RESTRICT"), index=True
    )
    learner_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=PathStatus.notAccepted.value, index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    version: Mapped[int] = mapped_column(Integer, default=1)


class TrainingPathModule(Base):
    """A module assigned in a path, at its position (0 first). A module assigned anywhere cannot be
    deleted (restrict)."""

    __tablename__ = "training_path_module"
    __table_args__ = (Index("ix_training_path_module_path", "path_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    module_id: Mapped[int] = mapped_column(ForeignKey("training_module.id", ondelete="RESTRICT"), index=True)
