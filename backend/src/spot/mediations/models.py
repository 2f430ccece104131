"""Mediations (spec 1 §3, §4): a session led by a mediator with participants, scheduled or started at
once, tracked in periods, closed by a report of the actions tracked during those periods, validated,
then signed by each participant (core.signatures, record type "mediation")."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column, validates

from spot.db import Base, UtcDateTime
from spot.querylang.text import fold


class MediationStatus(StrEnum):
    created = "created"
    started = "started"
    paused = "paused"
    stopped = "stopped"
    validated = "validated"
    archived = "archived"
    canceled = "canceled"


class ReportMode(StrEnum):
    read = "R"
    write = "W"


def _folded(length: int) -> Mapped[str]:
    """fold() of a text column, for list filters and sorts (as mapping.models._folded)."""
    folded = String(length).with_variant(String(length, collation="C"), "postgresql")
    return mapped_column(folded, default="", server_default="")


class Mediation(Base):
    __tablename__ = "mediation"
    __table_args__ = (Index("ix_mediation_title_folded", "title_folded", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    title_folded: Mapped[str] = _folded(300)
    description: Mapped[str] = mapped_column(Text, default="")
    # The folded description, for 'contains' filters.
    description_folded: Mapped[str] = mapped_column(Text, default="", server_default="")
    status: Mapped[str] = mapped_column(String(20), default=MediationStatus.created.value, index=True)
    scheduling_date: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    mediator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    # lastUpdate, the list's default sort.
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    # The first period's start and the last period's stop (null while running), kept by the service.
    execution_start: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    execution_stop: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    report_comment: Mapped[str] = mapped_column(Text, default="", server_default="")
    # A report exists when set.
    reported_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    discussion_id: Mapped[int | None] = mapped_column(ForeignKey("discussion.id", ondelete="SET NULL"))
    version: Mapped[int] = mapped_column(Integer, default=1)

    @validates("title", "description")
    def _keep_folded(self, key: str, value: str) -> str:
        setattr(self, f"{key}_folded", fold(value))
        return value


class MediationParticipant(Base):
    __tablename__ = "mediation_participant"

    mediation_id: Mapped[int] = mapped_column(
        ForeignKey("mediation.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class MediationVisibleGroup(Base):
    __tablename__ = "mediation_visible_group"

    mediation_id: Mapped[int] = mapped_column(
        ForeignKey("mediation.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: Mapped[int] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class MediationVisiblePerson(Base):
    __tablename__ = "mediation_visible_person"

    mediation_id: Mapped[int] = mapped_column(
        ForeignKey("mediation.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class TrackingPeriod(Base):
    """A period of execution, from the start of its start minute to the end of its stop minute; the
    stop is null while it runs."""

    __tablename__ = "mediation_tracking_period"

    id: Mapped[int] = mapped_column(primary_key=True)
    mediation_id: Mapped[int] = mapped_column(ForeignKey("mediation.id", ondelete="CASCADE"), index=True)
    start: Mapped[datetime] = mapped_column(UtcDateTime)
    stop: Mapped[datetime | None] = mapped_column(UtcDateTime)


class MediationReportItem(Base):
    """An action of the report: a history entry (tracking_id) with what it was about, when, how and what
    it did, copied from the entry. Each reader's client words it in the reader's language, naming the
    item only to those who may read it."""

    __tablename__ = "mediation_report_item"
    __table_args__ = (Index("ix_mediation_report_item_mediation", "mediation_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    mediation_id: Mapped[int] = mapped_column(ForeignKey("mediation.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    tracking_id: Mapped[int] = mapped_column(Integer)
    entity_type: Mapped[str] = mapped_column(String(30))
    entity_id: Mapped[int] = mapped_column(Integer)
    date: Mapped[datetime] = mapped_column(UtcDateTime)
    mode: Mapped[str] = mapped_column(String(1))
    # The event kind of a write (spec 1 §3), null for a read.
    event: Mapped[str | None] = mapped_column(String(40))
    # The item's name when the action was tracked.
    entity_name: Mapped[str] = mapped_column(String(300), default="", server_default="")
    # The line as the writer's client once worded it, in the writer's language; empty for reports
    # saved since lines are worded for each reader. Never shown, but part of what a signature hashes
    # (service.signed_content), so that the signatures made over such a wording still verify.
    content: Mapped[str] = mapped_column(String(1000), default="")
