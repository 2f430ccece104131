"""The learning platform (spec 2 §3 LMS tree node, §7): cmi5 courses imported from packages, their
blocks and assignable units as a tree of items, and what the cmi5 runtime records for each launch
(docs/learning-platform.md)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import files
from spot.db import Base, UtcDateTime

# IRIs of cmi5 packages are free-form; PostgreSQL indexes a few hundred characters comfortably.
IRI_LENGTH = 500


class ItemKind(StrEnum):
    group = "group"
    resource = "resource"
    quiz = "quiz"


class LaunchMode(StrEnum):
    """How a unit is launched (cmi5 §10.2.2; SCORM's lesson mode): Normal records what the learner does,
    Browse and Review record no result."""

    normal = "Normal"
    browse = "Browse"
    review = "Review"


class LmsCourse(Base):
    __tablename__ = "lms_course"

    id: Mapped[int] = mapped_column(primary_key=True)
    activity_id: Mapped[str] = mapped_column(String(IRI_LENGTH), unique=True)
    title: Mapped[str] = mapped_column(String(500))
    description: Mapped[str] = mapped_column(Text, default="")
    lang: Mapped[str] = mapped_column(String(35), default="")
    # The package (the zip as uploaded) in the file store; its entries are served by launch key.
    content_key: Mapped[str] = mapped_column(String(64))
    # The package's standard: cmi5, scorm12 or scorm2004 (lms.scorm).
    standard: Mapped[str] = mapped_column(String(10), default="cmi5", server_default="cmi5")
    imported_at: Mapped[datetime] = mapped_column(UtcDateTime)
    imported_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    removed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    version: Mapped[int] = mapped_column(Integer, default=1)


files.REFERENCES.append(LmsCourse.content_key)


class LmsItem(Base):
    """A block (group) or an assignable unit (resource, or quiz when it is assessed) of a course."""

    __tablename__ = "lms_item"
    __table_args__ = (UniqueConstraint("course_id", "activity_id", name="uq_lms_item_course_activity"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    course_id: Mapped[int] = mapped_column(ForeignKey("lms_course.id", ondelete="CASCADE"), index=True)
    parent_id: Mapped[int | None] = mapped_column(ForeignKey("lms_item.id", ondelete="SET NULL"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    activity_id: Mapped[str] = mapped_column(String(IRI_LENGTH))
    name: Mapped[str] = mapped_column(String(500))
    description: Mapped[str] = mapped_column(Text, default="")
    # Relative to the package, or an absolute http(s) address; empty for a group.
    url: Mapped[str] = mapped_column(String(2000), default="")
    move_on: Mapped[str | None] = mapped_column(String(30))
    mastery_score: Mapped[float | None] = mapped_column(Float)
    launch_parameters: Mapped[str | None] = mapped_column(Text)
    # The au's entitlementKey (cmi5 §10.2.7), handed to the unit in LMS.LaunchData.
    entitlement_key: Mapped[str | None] = mapped_column(Text)
    position: Mapped[int] = mapped_column(Integer, default=0)
    removed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class LmsRegistration(Base):
    """A learner's enrolment in a course (cmi5 §8.1.4), shared by all its units and launches: one per
    learner and course, which the primary key keeps so when first launches run at once."""

    __tablename__ = "lms_registration"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    course_id: Mapped[int] = mapped_column(
        ForeignKey("lms_course.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    registration: Mapped[str] = mapped_column(String(36))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)


class LmsLaunch(Base):
    """One launch of an assignable unit by a learner: the key of its content address, the one-time
    fetch token and the auth token it gives (both stored hashed), until it expires."""

    __tablename__ = "lms_launch"

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(64), unique=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), index=True)
    registration: Mapped[str] = mapped_column(String(36), index=True)
    session_id: Mapped[str] = mapped_column(String(36))
    fetch_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    fetch_used: Mapped[bool] = mapped_column(Boolean, default=False)
    auth_token_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    expires_at: Mapped[datetime] = mapped_column(UtcDateTime)
    # Normal, Browse or Review (cmi5 §10.2.2).
    launch_mode: Mapped[str] = mapped_column(String(10), default="Normal", server_default="Normal")
    # The session's end (its terminated statement, or abandoned): its later requests are refused.
    closed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class LmsStatement(Base):
    """An xAPI statement as the unit sent it (its JSON text), under its statement id. `defined`: a cmi5
    defined statement (the cmi5 category), which the session and registration rules count."""

    __tablename__ = "lms_statement"
    __table_args__ = (Index("ix_lms_statement_registration", "registration"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    statement_id: Mapped[str] = mapped_column(String(36), unique=True)
    launch_id: Mapped[int | None] = mapped_column(
        ForeignKey("lms_launch.id", ondelete="SET NULL"), index=True
    )
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), index=True)
    registration: Mapped[str] = mapped_column(String(36))
    verb: Mapped[str] = mapped_column(String(IRI_LENGTH))
    content: Mapped[str] = mapped_column(Text)
    stored_at: Mapped[datetime] = mapped_column(UtcDateTime)
    defined: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    object_id: Mapped[str] = mapped_column(String(IRI_LENGTH), default="", server_default="")


class LmsState(Base):
    """A document of the xAPI activity state resource (LMS.LaunchData, and whatever the unit keeps)."""

    __tablename__ = "lms_state"
    __table_args__ = (
        UniqueConstraint(
            "user_id", "activity_id", "registration", "state_id", name="uq_lms_state_user_activity"
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    activity_id: Mapped[str] = mapped_column(String(IRI_LENGTH))
    # "" when the document belongs to no registration.
    registration: Mapped[str] = mapped_column(String(36))
    state_id: Mapped[str] = mapped_column(String(IRI_LENGTH))
    content: Mapped[bytes] = mapped_column(LargeBinary)
    content_type: Mapped[str] = mapped_column(String(255))
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)


class LmsAttempt(Base):
    """A quiz attempt: a passed or failed statement with a scaled score, as a grade out of 10."""

    __tablename__ = "lms_attempt"
    __table_args__ = (Index("ix_lms_attempt_user_item", "user_id", "item_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), index=True)
    statement_id: Mapped[int] = mapped_column(ForeignKey("lms_statement.id", ondelete="CASCADE"), unique=True)
    registration: Mapped[str] = mapped_column(String(36))
    grade: Mapped[float] = mapped_column(Float)
    success: Mapped[bool] = mapped_column(Boolean)
    at: Mapped[datetime] = mapped_column(UtcDateTime)


class LmsCompletion(Base):
    """A unit the learner completed (its first completed statement)."""

    __tablename__ = "lms_completion"
    __table_args__ = (UniqueConstraint("user_id", "item_id", name="uq_lms_completion_user_item"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), index=True)
    statement_id: Mapped[int | None] = mapped_column(ForeignKey("lms_statement.id", ondelete="SET NULL"))
    completed_at: Mapped[datetime] = mapped_column(UtcDateTime)


# H2 — cmi5 satisfaction (moveOn, satisfied, waived) -----------------------------------------------


class SatisfactionScope(StrEnum):
    au = "au"
    block = "block"
    course = "course"


class SatisfactionMethod(StrEnum):
    # The unit's moveOn criteria met by its statements (completed, passed).
    move_on = "moveOn"
    # moveOn NotApplicable: satisfied once the learner is registered in the course (cmi5 §9.6.1).
    not_applicable = "notApplicable"
    # An administrator waived the unit for the learner (cmi5 §9.3.7).
    waived = "waived"
    # A block or the course: all its units satisfied.
    units = "units"


class LmsSatisfaction(Base):
    """A unit, block or course (item_id None) a learner satisfied in their registration, once: how, when,
    and the statement Spot issued for it (`satisfied` for a block or the course, `waived` for a waived
    unit, the learner's completed or passed statement that met a unit's moveOn)."""

    __tablename__ = "lms_satisfaction"
    __table_args__ = (
        Index(
            "uq_lms_satisfaction_user_item",
            "user_id",
            "item_id",
            unique=True,
            sqlite_where=text("item_id IS NOT NULL"),
            postgresql_where=text("item_id IS NOT NULL"),
        ),
        Index(
            "uq_lms_satisfaction_user_course",
            "user_id",
            "course_id",
            unique=True,
            sqlite_where=text("item_id IS NULL"),
            postgresql_where=text("item_id IS NULL"),
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    course_id: Mapped[int] = mapped_column(ForeignKey("lms_course.id", ondelete="CASCADE"), index=True)
    item_id: Mapped[int | None] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"))
    scope: Mapped[str] = mapped_column(String(10))
    registration: Mapped[str] = mapped_column(String(36))
    method: Mapped[str] = mapped_column(String(20))
    # The waiver's reason (cmi5 §9.5.5.2) and who waived.
    reason: Mapped[str | None] = mapped_column(String(40))
    waived_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    statement_id: Mapped[int | None] = mapped_column(ForeignKey("lms_statement.id", ondelete="SET NULL"))
    satisfied_at: Mapped[datetime] = mapped_column(UtcDateTime)
