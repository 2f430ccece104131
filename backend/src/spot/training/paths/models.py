"""Training paths (spec 2 §3 Training path, Assigned module, Result per item): a path assigns modules to
one learner; each assigned module is followed by referents, who start it, attach mediations, grade it
and close it; the learner accepts the path, works through the elements and signs each graded module
and the closed path.

The path keeps denormalized totals (items, done items) that `elements.refresh` maintains, so that lists
show completion without reading every element. A module's current grading is kept on its row (the
filters and the qualifications read it); every grading, earlier ones included, is a
`training_path_grading` row. What happened to a path is its `training_path_event` rows."""

from datetime import date, datetime
from enum import StrEnum

from sqlalchemy import Boolean, Date, Float, ForeignKey, Index, Integer, String, Text, false
from sqlalchemy.orm import Mapped, mapped_column, validates

from spot.db import Base, UtcDateTime
from spot.querylang.text import fold


class PathStatus(StrEnum):
    """Spec 2 §4 Path status. Every status but notAccepted means the learner accepted the path once."""

    notAccepted = "notAccepted"
    accepted = "accepted"
    started = "started"
    finished = "finished"
    validated = "validated"
    archived = "archived"
    canceled = "canceled"


class ModuleStatus(StrEnum):
    """Spec 2 §4 Assigned module status: started by a referent, finished once every element is done,
    validated when graded and closed, archived once the learner signed it; disabled (by a referent or
    an administrator) takes it out of the path's totals."""

    notStarted = "notStarted"
    started = "started"
    finished = "finished"
    validated = "validated"
    archived = "archived"
    disabled = "disabled"


class PathEvent(StrEnum):
    """What a training_path_event records (the path's history as its view shows it)."""

    created = "created"
    updated = "updated"
    accepted = "accepted"
    started = "started"
    finished = "finished"
    validated = "validated"
    signed = "signed"
    canceled = "canceled"
    moduleStarted = "moduleStarted"
    moduleFinished = "moduleFinished"
    moduleDisabled = "moduleDisabled"
    moduleGraded = "moduleGraded"
    moduleGradeChanged = "moduleGradeChanged"
    moduleSigned = "moduleSigned"
    elementOpened = "elementOpened"
    mediationAttached = "mediationAttached"
    mediationDetached = "mediationDetached"


class TrainingPath(Base):
    __tablename__ = "training_path"
    __table_args__ = (
        Index("ix_training_path_title_folded", "title_folded", "id"),
        Index("ix_training_path_created_at", "created_at", "id"),
        Index("ix_training_path_start_date", "start_date", "id"),
        Index("ix_training_path_stop_date", "stop_date", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(300))
    title_folded: Mapped[str] = mapped_column(
        String(300).with_variant(String(300, collation="C"), "postgresql"), default="", server_default=""
    )
    # A path reference (training_reference of type 'path'); one in use cannot be deleted.
    reference_id: Mapped[int | None] = mapped_column(
        ForeignKey("training_reference.id", ondelete="RESTRICT"), index=True
    )
    learner_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(20), default=PathStatus.notAccepted.value, index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    version: Mapped[int] = mapped_column(Integer, default=1)
    start_date: Mapped[date] = mapped_column(Date)
    stop_date: Mapped[date] = mapped_column(Date)
    # Out of 10: the average grade the path asks for.
    pass_threshold: Mapped[int] = mapped_column(Integer, default=10)
    # When the status last changed (the bell dates its alerts with it).
    status_changed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    accepted_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    # Closing (validate): who, why, when.
    validator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    validation_comment: Mapped[str | None] = mapped_column(Text)
    validated_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    # The learner's signature of the closed path: comment, satisfaction 1 to 5, when.
    signature_comment: Mapped[str | None] = mapped_column(Text)
    signature_satisfaction: Mapped[int | None] = mapped_column(Integer)
    signed_at: Mapped[datetime | None] = mapped_column(UtcDateTime, index=True)
    # Totals over the modules that are not disabled (elements.refresh keeps them).
    total_items: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    done_items: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # Opened by Spot itself (a requalification, qualifications.requalification): no creator, and
    # "Spot" wherever the creator is shown.
    opened_by_spot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    @validates("title")
    def _keep_folded(self, _key: str, value: str) -> str:
        self.title_folded = fold(value)
        return value


# The list's default order, newest first: PostgreSQL's plain index gives DESC NULLS FIRST, and the
# list sorts DESC NULLS LAST (SQLite's NULLs come last anyway): without it a page of 50,000 paths is a
# sort of them all (docs/performance.md, "Training paths").
Index(
    "ix_training_path_created_at_desc", TrainingPath.created_at.desc().nulls_last(), TrainingPath.id
).ddl_if(dialect="postgresql")


class TrainingPathModule(Base):
    """A module assigned in a path, at its position (0 first): its index in the path's JSON. A module
    assigned anywhere cannot be deleted (restrict)."""

    __tablename__ = "training_path_module"
    __table_args__ = (
        Index("ix_training_path_module_path", "path_id", "position"),
        Index("ix_training_path_module_status", "status", "path_id"),
        Index("ix_training_path_module_valid_until", "valid_until"),
        # module_is_succeeded: the paths with a module passed (or not), without reading every module.
        Index("ix_training_path_module_success", "is_success", "path_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    module_id: Mapped[int] = mapped_column(ForeignKey("training_module.id", ondelete="RESTRICT"), index=True)
    start_date: Mapped[date] = mapped_column(Date)
    stop_date: Mapped[date] = mapped_column(Date)
    status: Mapped[str] = mapped_column(String(20), default=ModuleStatus.notStarted.value)
    status_changed_at: Mapped[datetime] = mapped_column(UtcDateTime)
    # When a referent started it: spot elements count the subjects the learner read since.
    started_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    total_items: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    done_items: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    # The current grading (the latest training_path_grading row), copied here for filters and
    # qualifications: grade out of 10 (one decimal), success against the module's threshold, until
    # when it is valid (grading date + the module's periodicity; null when not periodic).
    grade: Mapped[float | None] = mapped_column(Float)
    is_success: Mapped[bool | None] = mapped_column(Boolean)
    valid_until: Mapped[date | None] = mapped_column(Date)
    graded_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
    # The learner's signature of the graded module: comment, satisfaction 1 to 5, when.
    signature_comment: Mapped[str | None] = mapped_column(Text)
    signature_satisfaction: Mapped[int | None] = mapped_column(Integer)
    signed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)


class TrainingPathReferent(Base):
    """A referent of an assigned module. The row names the path too, so that "the paths this user
    follows as a referent" (reading, the referent filter) is one index range (user_id, path_id) rather
    than a join through every assigned module (a scan of them all on PostgreSQL; docs/performance.md,
    "Training paths")."""

    __tablename__ = "training_path_referent"
    __table_args__ = (Index("ix_training_path_referent_user_path", "user_id", "path_id"),)

    path_module_id: Mapped[int] = mapped_column(
        ForeignKey("training_path_module.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    # Its own index: deleting a path finds the referents to delete with it without a scan of them all.
    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"), index=True)


class TrainingPathVisiblePerson(Base):
    __tablename__ = "training_path_visible_person"

    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class TrainingPathVisibleGroup(Base):
    __tablename__ = "training_path_visible_group"

    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"), primary_key=True)
    group_id: Mapped[int] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class TrainingPathGrading(Base):
    """Every grading of an assigned module, oldest first; the latest is the module's current one."""

    __tablename__ = "training_path_grading"
    __table_args__ = (Index("ix_training_path_grading_module", "path_module_id", "graded_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    path_module_id: Mapped[int] = mapped_column(ForeignKey("training_path_module.id", ondelete="CASCADE"))
    grade: Mapped[float] = mapped_column(Float)
    comment: Mapped[str] = mapped_column(Text)
    is_success: Mapped[bool] = mapped_column(Boolean)
    referent_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    # The referent's printed name when grading (kept if the account goes).
    referent_name: Mapped[str] = mapped_column(String(300), default="")
    valid_until: Mapped[date | None] = mapped_column(Date)
    graded_at: Mapped[datetime] = mapped_column(UtcDateTime)


class TrainingPathVisit(Base):
    """The learner opened a url or spot element from the path (the first time counts: doneAt)."""

    __tablename__ = "training_path_visit"

    path_module_id: Mapped[int] = mapped_column(
        ForeignKey("training_path_module.id", ondelete="CASCADE"), primary_key=True
    )
    module_item_id: Mapped[int] = mapped_column(
        ForeignKey("training_module_item.id", ondelete="CASCADE"), primary_key=True
    )
    done_at: Mapped[datetime] = mapped_column(UtcDateTime)


class TrainingPathMediation(Base):
    """A mediation attached by a referent to a mediation element of an assigned module."""

    __tablename__ = "training_path_mediation"

    path_module_id: Mapped[int] = mapped_column(
        ForeignKey("training_path_module.id", ondelete="CASCADE"), primary_key=True
    )
    module_item_id: Mapped[int] = mapped_column(
        ForeignKey("training_module_item.id", ondelete="CASCADE"), primary_key=True
    )
    mediation_id: Mapped[int] = mapped_column(
        ForeignKey("mediation.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    attached_at: Mapped[datetime] = mapped_column(UtcDateTime)
    attached_by: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))


class TrainingPathHistory(Base):
    """One entry of a path's history: who did what when, on the path (position null) or on one of
    its modules; gradings carry their grade and comment."""

    __tablename__ = "training_path_event"
    __table_args__ = (Index("ix_training_path_event_path", "path_id", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    path_id: Mapped[int] = mapped_column(ForeignKey("training_path.id", ondelete="CASCADE"))
    position: Mapped[int | None] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UtcDateTime)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"))
    user_name: Mapped[str] = mapped_column(String(300), default="")
    event: Mapped[str] = mapped_column(String(40))
    grade: Mapped[float | None] = mapped_column(Float)
    comment: Mapped[str | None] = mapped_column(Text)
