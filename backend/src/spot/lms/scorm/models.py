"""SCORM 1.2 and 2004 on the learning platform (docs/learning-platform.md, "SCORM"): what a manifest says
of each item beyond the common tree (lms_item), and each learner's attempts at a SCO with the run-time
data (CMI) its commits carried."""

from datetime import datetime

from sqlalchemy import Boolean, Float, ForeignKey, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column

from spot.db import Base, UtcDateTime


class ScormItem(Base):
    """An item of a SCORM course: a unit (its resource a SCO, tracked, or an asset, launched untracked)
    or a cluster (a block), with the navigation its sequencing allows among its children."""

    __tablename__ = "lms_scorm_item"

    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), primary_key=True)
    # "sco", "asset", or "" for a cluster.
    scorm_type: Mapped[str] = mapped_column(String(5))
    # A cluster's (and the organization's, on lms_scorm_course) imsss:controlMode.
    choice: Mapped[bool] = mapped_column(Boolean, default=True)
    flow: Mapped[bool] = mapped_column(Boolean, default=False)
    max_time_allowed: Mapped[str | None] = mapped_column(String(50))
    time_limit_action: Mapped[str | None] = mapped_column(String(30))
    completion_threshold: Mapped[float | None] = mapped_column(Float)
    # imsss:deliveryControls completionSetByContent (2004): when false (the default), Spot completes an
    # attempt whose SCO terminates without reporting its completion.
    completion_set_by_content: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ScormCourse(Base):
    """A SCORM course: its edition and the navigation of its organization (the top of the tree)."""

    __tablename__ = "lms_scorm_course"

    course_id: Mapped[int] = mapped_column(ForeignKey("lms_course.id", ondelete="CASCADE"), primary_key=True)
    # "1.2", "2004 2nd Edition", "2004 3rd Edition", "2004 4th Edition".
    edition: Mapped[str] = mapped_column(String(30))
    choice: Mapped[bool] = mapped_column(Boolean, default=True)
    flow: Mapped[bool] = mapped_column(Boolean, default=False)


class ScormAttempt(Base):
    """A learner's attempt at a SCO: the CMI of its last commit and what Spot reads of it. A launch
    binds the attempt it loaded (`launch_id`); its terminate commit ends that launch's session
    (`terminated_at`). An attempt suspended (exit suspend, or a 1.2 lesson left incomplete) is resumed
    by the next launch; otherwise the next launch starts a new attempt and this one `ended`."""

    __tablename__ = "lms_scorm_attempt"
    __table_args__ = (
        UniqueConstraint("user_id", "item_id", "number", name="uq_lms_scorm_attempt_user_item_number"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"))
    item_id: Mapped[int] = mapped_column(ForeignKey("lms_item.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    launch_id: Mapped[int | None] = mapped_column(
        ForeignKey("lms_launch.id", ondelete="SET NULL"), index=True
    )
    started_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    terminated_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    ended: Mapped[bool] = mapped_column(Boolean, default=False)
    commits: Mapped[int] = mapped_column(Integer, default=0)
    # ab-initio or resume, as the launch that bound the attempt loaded it.
    entry: Mapped[str] = mapped_column(String(10))
    exit: Mapped[str] = mapped_column(String(20), default="")
    # 2004 vocabularies (a 1.2 lesson_status is read into both: docs).
    completion_status: Mapped[str] = mapped_column(String(20), default="not attempted")
    success_status: Mapped[str] = mapped_column(String(10), default="unknown")
    lesson_status: Mapped[str | None] = mapped_column(String(20))
    score_raw: Mapped[float | None] = mapped_column(Float)
    score_min: Mapped[float | None] = mapped_column(Float)
    score_max: Mapped[float | None] = mapped_column(Float)
    score_scaled: Mapped[float | None] = mapped_column(Float)
    location: Mapped[str] = mapped_column(Text, default="")
    suspend_data: Mapped[str] = mapped_column(Text, default="")
    # Seconds: the last session's, and the attempt's total (the sessions before plus the last).
    session_seconds: Mapped[float] = mapped_column(Float, default=0)
    total_seconds: Mapped[float] = mapped_column(Float, default=0)
    earlier_seconds: Mapped[float] = mapped_column(Float, default=0)
    # JSON: the interactions as committed, and the whole CMI of the last commit.
    interactions: Mapped[str] = mapped_column(Text, default="{}")
    cmi: Mapped[str] = mapped_column(Text, default="{}")
    # The quiz attempt this SCORM attempt gave (its score), kept up to date by later commits.
    lms_attempt_id: Mapped[int | None] = mapped_column(ForeignKey("lms_attempt.id", ondelete="SET NULL"))
