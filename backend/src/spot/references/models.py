"""Training references (spec 2 §3 Reference): a code, a label and a description that classify
training modules and paths (and, in the typed model, functions, subjects and qualifications), one
list per type. Modules and paths point to a reference by its id (training_module.reference_id,
training_path.reference_id)."""

from enum import StrEnum

from sqlalchemy import Boolean, Index, Integer, String, Text, UniqueConstraint, false
from sqlalchemy.orm import Mapped, mapped_column, validates

from spot.db import Base
from spot.querylang.text import fold


class ReferenceType(StrEnum):
    module = "module"
    path = "path"
    function = "function"
    subject = "subject"
    qualification = "qualification"


def _folded(length: int) -> Mapped[str]:
    """fold() of a text column, for list filters and sorts (as mapping.models._folded)."""
    folded = String(length).with_variant(String(length, collation="C"), "postgresql")
    return mapped_column(folded, default="", server_default="")


class Reference(Base):
    __tablename__ = "training_reference"
    __table_args__ = (
        UniqueConstraint("type", "code", name="uq_training_reference_type_code"),
        Index("ix_training_reference_code_folded", "type", "code_folded", "id"),
        Index("ix_training_reference_label_folded", "type", "label_folded", "id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    type: Mapped[str] = mapped_column(String(20))
    code: Mapped[str] = mapped_column(String(100))
    code_folded: Mapped[str] = _folded(100)
    label: Mapped[str] = mapped_column(String(300))
    label_folded: Mapped[str] = _folded(300)
    description: Mapped[str] = mapped_column(Text, default="")
    # The folded description, for 'contains' filters and the autocomplete.
    description_folded: Mapped[str] = mapped_column(Text, default="", server_default="")
    disabled: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"version_id_col": version}

    @validates("code", "label", "description")
    def _keep_folded(self, key: str, value: str) -> str:
        setattr(self, f"{key}_folded", fold(value))
        return value
