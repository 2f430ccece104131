"""Training modules (spec 2 §3 Training module): what can be learned, made of ordered elements of
four kinds (a place of the map, a mediation to run, a web page, a course item of the learning
platform), classified by a module reference (spot.references)."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Boolean, ForeignKey, Index, Integer, String, Text, UniqueConstraint, true
from sqlalchemy.orm import Mapped, mapped_column, validates

from spot.db import Base, UtcDateTime
from spot.querylang.text import fold


class ModuleType(StrEnum):
    training = "training"
    qualification = "qualification"
    other = "other"


class ItemKind(StrEnum):
    """The module source kinds of spec 2 §3."""

    spot = "spot"
    mediation = "mediation"
    url = "url"
    lms = "lms"


class SpotItemType(StrEnum):
    """What a spot element points at: an item of the map (spot.mapping) or a subject."""

    site = "site"
    cartography = "cartography"
    activity = "activity"
    function = "function"
    subject = "subject"


def _folded(length: int) -> Mapped[str]:
    """fold() of a text column, for list filters and sorts (as mapping.models._folded)."""
    folded = String(length).with_variant(String(length, collation="C"), "postgresql")
    return mapped_column(folded, default="", server_default="")


class TrainingModule(Base):
    __tablename__ = "training_module"
    __table_args__ = (Index("ix_training_module_name_folded", "name_folded", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(300))
    name_folded: Mapped[str] = _folded(300)
    module_type: Mapped[str] = mapped_column(String(20), default=ModuleType.other.value)
    # A module reference (training_reference of type 'module'); one in use cannot be deleted.
    reference_id: Mapped[int | None] = mapped_column(
        ForeignKey("training_reference.id", ondelete="RESTRICT"), index=True
    )
    goals: Mapped[str] = mapped_column(Text, default="")
    # The folded goals, for 'contains' filters.
    goals_folded: Mapped[str] = mapped_column(Text, default="", server_default="")
    # Minutes; 0: not defined.
    estimated_duration: Mapped[int] = mapped_column(Integer, default=0)
    # Months between two validations; 0: not periodic.
    periodicity: Mapped[int] = mapped_column(Integer, default=0)
    # Out of 10.
    pass_threshold: Mapped[int] = mapped_column(Integer, default=10)
    enabled: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    creator_id: Mapped[int | None] = mapped_column(ForeignKey("user.id", ondelete="SET NULL"), index=True)
    created_at: Mapped[datetime] = mapped_column(UtcDateTime, index=True)
    version: Mapped[int] = mapped_column(Integer, default=1)

    @validates("name", "goals")
    def _keep_folded(self, key: str, value: str) -> str:
        setattr(self, f"{key}_folded", fold(value))
        return value


class TrainingModuleItem(Base):
    """One element of a module, at its position (0 first). Which columns hold a value depends on
    the kind: spot (spot_item_type, spot_item_id: no foreign key, the id names an item of the table
    of its type), mediation (title, description), url (url, label), lms (lms_item_id: a resource or
    a quiz; null once the learning platform deleted the item itself; launch_mode, the lms.LaunchMode the
    element opens it in)."""

    __tablename__ = "training_module_item"
    __table_args__ = (UniqueConstraint("module_id", "position", name="uq_training_module_item_position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    module_id: Mapped[int] = mapped_column(ForeignKey("training_module.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    spot_item_type: Mapped[str | None] = mapped_column(String(20))
    spot_item_id: Mapped[int | None] = mapped_column(Integer)
    title: Mapped[str | None] = mapped_column(String(300))
    description: Mapped[str | None] = mapped_column(Text)
    url: Mapped[str | None] = mapped_column(String(2000))
    label: Mapped[str | None] = mapped_column(String(300))
    lms_item_id: Mapped[int | None] = mapped_column(
        ForeignKey("lms_item.id", ondelete="SET NULL"), index=True
    )
    launch_mode: Mapped[str | None] = mapped_column(String(10))
