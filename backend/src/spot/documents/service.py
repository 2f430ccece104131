"""A site's documents (docs/documents.md): the versions of its DUERP, listed, generated and handed out.

A version is generated in one go: the rows read from the map as the two files are written to this
process's scratch folder, the files stored with the transaction (core.files), then the row naming them.
Nothing changes a version afterwards: Spot has no call that does, and the database refuses an UPDATE."""

import hashlib
from pathlib import Path

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from spot.config import get_settings
from spot.core import files
from spot.core.errors import conflict, ensure, not_found
from spot.core.i18n import Language
from spot.core.principal import Principal
from spot.core.routing import API_PREFIX
from spot.core.time import utcnow
from spot.documents import duerp, duerp_files, policy
from spot.documents.models import DocumentKind, SiteDocument
from spot.documents.schemas import SiteDocumentOut, SiteDocuments, SiteRef, StoredFile
from spot.mapping import policy as mapping_policy
from spot.mapping.models import Site

FILE_KINDS = ("pdf", "xlsx")
MEDIA_TYPES = {"pdf": duerp_files.PDF_MEDIA_TYPE, "xlsx": duerp_files.XLSX_MEDIA_TYPE}


def site_in_view(db: Session, *, user: Principal, site_id: int) -> Site:
    """The site, when the user sees the whole of it: 404 siteNotFound, else 403."""
    site = db.get(Site, site_id)
    if site is None:
        raise not_found("siteNotFound")
    if not policy.can_read(db, user, site_id):
        raise mapping_policy.hidden()
    return site


def _out(document: SiteDocument) -> SiteDocumentOut:
    base = f"{API_PREFIX}/site/{document.site_id}/documents/{document.id}"
    return SiteDocumentOut(
        id=document.id,
        kind=DocumentKind(document.kind),
        version=document.version,
        language=document.language,  # type: ignore[arg-type]
        created_at=document.created_at,
        created_by=document.created_by_name,
        work_units=document.work_units,
        risks=document.risks,
        actions=document.actions,
        pdf=StoredFile(url=f"{base}/pdf", sha256=document.pdf_sha256, size=document.pdf_size),
        xlsx=StoredFile(url=f"{base}/xlsx", sha256=document.xlsx_sha256, size=document.xlsx_size),
    )


def listing(db: Session, *, user: Principal, site_id: int) -> SiteDocuments:
    site = site_in_view(db, user=user, site_id=site_id)
    documents = db.scalars(
        select(SiteDocument)
        .where(SiteDocument.site_id == site_id)
        .order_by(SiteDocument.kind, SiteDocument.version.desc())
    )
    return SiteDocuments(
        site=SiteRef(id=site.id, code=site.code, name=site.name),
        documents=[_out(d) for d in documents],
        can=policy.can(user),
    )


def _digest(path: Path) -> tuple[str, int]:
    digest = hashlib.sha256()
    with path.open("rb") as source:
        while chunk := source.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest(), path.stat().st_size


def generate_duerp(db: Session, *, user: Principal, site_id: int, language: Language) -> SiteDocumentOut:
    """The site's next DUERP version, in `language`: 409 documentBeingGenerated when another request
    took the same version number meanwhile."""
    ensure(policy.can_generate(user))
    site = site_in_view(db, user=user, site_id=site_id)
    # Generations of one site's document wait for one another on PostgreSQL (SQLite has one writer).
    db.execute(select(Site.id).where(Site.id == site_id).with_for_update())
    site_map = duerp.read_map(db, site)
    summary = duerp.summary(db, site_map)
    version = 1 + (
        db.scalar(
            select(func.max(SiteDocument.version)).where(
                SiteDocument.site_id == site_id, SiteDocument.kind == DocumentKind.duerp.value
            )
        )
        or 0
    )
    now = utcnow()
    cover = duerp_files.Cover(
        site_code=site.code,
        site_name=site.name,
        version=version,
        at=now,
        by=user.display_name,
        work_units=len(summary),
        risks=sum(line.risks for line in summary),
        actions=sum(line.actions for line in summary),
        language=language,
        timezone=get_settings().timezone,
    )
    scratch = files.scratch_folder()
    stem = f"duerp-{site_id}-{version}-{now.timestamp():.6f}"
    pdf_path, xlsx_path = scratch / f"{stem}.pdf.part", scratch / f"{stem}.xlsx.part"
    try:
        duerp_files.write_pdf(
            pdf_path, cover, summary, duerp.risks(db, site_map), duerp.action_plan(db, site_map)
        )
        duerp_files.write_xlsx(
            xlsx_path, cover, summary, duerp.risks(db, site_map), duerp.action_plan(db, site_map)
        )
        (pdf_sha256, pdf_size), (xlsx_sha256, xlsx_size) = _digest(pdf_path), _digest(xlsx_path)
        pdf_ref = files.store_path(db, pdf_path, extension="pdf")
        xlsx_ref = files.store_path(db, xlsx_path, extension="xlsx")
    finally:
        pdf_path.unlink(missing_ok=True)
        xlsx_path.unlink(missing_ok=True)
    document = SiteDocument(
        site_id=site.id,
        site_code=site.code,
        site_name=site.name,
        kind=DocumentKind.duerp.value,
        version=version,
        language=language,
        created_at=now,
        created_by=user.id,
        created_by_name=user.display_name,
        work_units=cover.work_units,
        risks=cover.risks,
        actions=cover.actions,
        pdf_ref=pdf_ref,
        pdf_sha256=pdf_sha256,
        pdf_size=pdf_size,
        xlsx_ref=xlsx_ref,
        xlsx_sha256=xlsx_sha256,
        xlsx_size=xlsx_size,
    )
    db.add(document)
    try:
        db.flush()
    except IntegrityError as exc:
        raise conflict("documentBeingGenerated") from exc
    return _out(document)


def stored_file(db: Session, *, user: Principal, site_id: int, document_id: int, kind: str) -> files.Served:
    """A version's PDF or workbook, for someone who sees the whole site: 404 documentNotFound."""
    site_in_view(db, user=user, site_id=site_id)
    document = db.get(SiteDocument, document_id)
    if document is None or document.site_id != site_id or kind not in FILE_KINDS:
        raise not_found("documentNotFound")
    ref, sha256, size = (
        (document.pdf_ref, document.pdf_sha256, document.pdf_size)
        if kind == "pdf"
        else (document.xlsx_ref, document.xlsx_sha256, document.xlsx_size)
    )
    name = f"duerp-{document.site_code}-v{document.version}.{kind}"
    return files.Served(
        ref=ref,
        media_type=MEDIA_TYPES[kind],
        headers={
            "ETag": f'"{sha256}"',
            "Content-Disposition": f'attachment; filename="{_safe(name)}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, max-age=0, must-revalidate",
        },
        size=size,
    )


def _safe(name: str) -> str:
    """A file name for the header: the site code's characters that are not plain letters, digits, dot,
    dash or underscore become underscores."""
    return "".join(c if c.isascii() and (c.isalnum() or c in "._-") else "_" for c in name)
