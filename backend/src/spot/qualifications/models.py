"""Qualifications (spec 2 §3 Qualification): the modules a person of the qualifiable groups must hold,
valid, to work on the cartographies named. Whether a person holds a module, and until when, is the
rule of qualifications.validity over their path modules, kept per (person, module) in `module_hold` by
the database itself; the remaining days are counted from it when read."""

from datetime import date, datetime

from sqlalchemy import Date, ForeignKey, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column, validates

from spot.db import Base, UtcDateTime
from spot.querylang.text import fold


class Qualification(Base):
    __tablename__ = "qualification"
    __table_args__ = (Index("ix_qualification_name_folded", "name_folded", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    name_folded: Mapped[str] = mapped_column(
        String(300).with_variant(String(300, collation="C"), "postgresql"), default="", server_default=""
    )
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    updated_at: Mapped[datetime] = mapped_column(UtcDateTime)
    version: Mapped[int] = mapped_column(Integer, default=1)
    discussion_id: Mapped[int | None] = mapped_column(ForeignKey("discussion.id", ondelete="SET NULL"))
    # Days before a periodic module's last valid day when Spot opens a requalification path for a
    # concerned person (qualifications.requalification); 0: never.
    requalification_window_days: Mapped[int] = mapped_column(Integer, default=60, server_default="60")

    @validates("name")
    def _keep_folded(self, _key: str, value: str) -> str:
        self.name_folded = fold(value)
        return value


class QualificationCartography(Base):
    """A cartography the qualification lets its holders work on."""

    __tablename__ = "qualification_cartography"

    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    cartography_id: Mapped[int] = mapped_column(
        ForeignKey("cartography.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class QualificationFunction(Base):
    """A function of one of its cartographies the qualification qualifies its holders for. A
    qualification naming none qualifies for the functions its modules' spot elements are on
    (qualifications.coverage)."""

    __tablename__ = "qualification_function"

    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    function_id: Mapped[int] = mapped_column(
        ForeignKey("function.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class QualificationGroup(Base):
    """A qualifiable group: its members are the people the qualification is tracked for."""

    __tablename__ = "qualification_group"

    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: Mapped[int] = mapped_column(
        ForeignKey("group.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class QualificationModule(Base):
    """A module the qualification requires, in the order the form lists them."""

    __tablename__ = "qualification_module"

    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    module_id: Mapped[int] = mapped_column(
        ForeignKey("training_module.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    position: Mapped[int] = mapped_column(Integer, default=0)


class ModuleHold(Base):
    """A person's current hold on a module: the path of their latest successful grading and its last
    valid day (None: permanent), and the requalification path, for each (person, module) having either.
    Written only by the database's triggers on training_path_module and training_path (migration
    3b9e6c1d7a52), with the rule of validity.computed; never by Spot's code. No foreign key on the
    person: a deleted learner's paths lose their learner, which removes their rows."""

    __tablename__ = "module_hold"
    # Clustered on (person, module) in SQLite: a dashboard's pairs are read without a second lookup.
    __table_args__ = (Index("ix_module_hold_module_id", "module_id", "user_id"), {"sqlite_with_rowid": False})

    user_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    module_id: Mapped[int] = mapped_column(
        ForeignKey("training_module.id", ondelete="CASCADE"), primary_key=True
    )
    validation_path_id: Mapped[int | None] = mapped_column(Integer)
    valid_until: Mapped[date | None] = mapped_column(Date)
    requalification_path_id: Mapped[int | None] = mapped_column(Integer)


class QualificationReferent(Base):
    """A default referent of the requalification paths Spot opens for the qualification, when the path
    that last validated the module has none to give."""

    __tablename__ = "qualification_referent"

    qualification_id: Mapped[int] = mapped_column(
        ForeignKey("qualification.id", ondelete="CASCADE"), primary_key=True
    )
    user_id: Mapped[int] = mapped_column(
        ForeignKey("user.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class RequalificationOpening(Base):
    """A hold (person, module, last valid day) Spot opened a requalification path for: once ever per hold,
    whatever becomes of the path (deleted: path_id null; canceled: the row stays), so that it is never
    opened again. Written in the transaction that creates the path; its key makes a second one fail."""

    __tablename__ = "requalification_opening"

    user_id: Mapped[int] = mapped_column(ForeignKey("user.id", ondelete="CASCADE"), primary_key=True)
    module_id: Mapped[int] = mapped_column(
        ForeignKey("training_module.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    valid_until: Mapped[date] = mapped_column(Date, primary_key=True)
    path_id: Mapped[int | None] = mapped_column(
        ForeignKey("training_path.id", ondelete="SET NULL"), index=True
    )
    opened_at: Mapped[datetime] = mapped_column(UtcDateTime)
