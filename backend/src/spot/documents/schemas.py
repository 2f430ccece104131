from datetime import datetime
from typing import Literal

from pydantic import Field

from spot.core.schemas import CamelModel
from spot.documents.models import DocumentKind


class StoredFile(CamelModel):
    url: str = Field(description="Where to download it (GET)")
    sha256: str = Field(description="The SHA-256 of its content, in hexadecimal")
    size: int = Field(description="In bytes")


class SiteDocumentOut(CamelModel):
    """One generated version of a site's document: written once, never changed."""

    id: int
    kind: DocumentKind
    version: int = Field(description="1 for the site's first version of this kind, then 2, 3…")
    language: Literal["fr", "en"]
    created_at: datetime
    created_by: str = Field(description="The printed name of who generated it")
    work_units: int
    risks: int
    actions: int = Field(description="Risks of the action plan: followed and not resolved")
    pdf: StoredFile
    xlsx: StoredFile


class SiteDocumentsCan(CamelModel):
    generate: bool = Field(description="Generate a new version of the DUERP (perm_TableauBord)")


class SiteRef(CamelModel):
    id: int
    code: str
    name: str


class SiteDocuments(CamelModel):
    """The documents page of a site: every version, the newest first."""

    site: SiteRef
    documents: list[SiteDocumentOut]
    can: SiteDocumentsCan


class GenerateDocument(CamelModel):
    language: Literal["fr", "en"] = Field(description="The language of the document's words")
