"""The versions of a site's documents (docs/documents.md). A row is written once, when the version is
generated, and never changed (a trigger of the migration refuses an UPDATE) nor deleted by Spot: French
law asks a plant to keep each version of its DUERP for 40 years. It keeps the site's code and name as
they were, so that a version stays readable whatever becomes of the site, and the generating user's
printed name beside the id."""

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from spot.core import files
from spot.db import Base, UtcDateTime


class DocumentKind(StrEnum):
    duerp = "duerp"


class SiteDocument(Base):
    __tablename__ = "site_document"
    __table_args__ = (
        UniqueConstraint("site_id", "kind", "version", name="uq_site_document_version"),
        Index("ix_site_document_site", "site_id", "kind"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    # No foreign key: a version outlives anything that happens to its site.
    site_id: Mapped[int] = mapped_column(Integer)
    site_code: Mapped[str] = mapped_column(String(100))
    site_name: Mapped[str] = mapped_column(String(300))
    kind: Mapped[str] = mapped_column(String(20))
    version: Mapped[int] = mapped_column(Integer)
    language: Mapped[str] = mapped_column(String(2))
    created_at: Mapped[datetime] = mapped_column(UtcDateTime)
    # No foreign key either: a key that cascades would change the row.
    created_by: Mapped[int | None] = mapped_column(Integer)
    created_by_name: Mapped[str] = mapped_column(String(300))
    # Counts the version holds (its cover and the list say them).
    work_units: Mapped[int] = mapped_column(Integer)
    risks: Mapped[int] = mapped_column(Integer)
    actions: Mapped[int] = mapped_column(Integer)
    pdf_ref: Mapped[str] = mapped_column(String(64))
    pdf_sha256: Mapped[str] = mapped_column(String(64))
    pdf_size: Mapped[int] = mapped_column(Integer)
    xlsx_ref: Mapped[str] = mapped_column(String(64))
    xlsx_sha256: Mapped[str] = mapped_column(String(64))
    xlsx_size: Mapped[int] = mapped_column(Integer)


files.REFERENCES.extend((SiteDocument.pdf_ref, SiteDocument.xlsx_ref))
