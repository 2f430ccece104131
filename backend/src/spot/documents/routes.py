"""A site's documents (docs/documents.md): the list of its versions, a new DUERP (a work route: it reads
every risk of the site and writes two files), and each version's files."""

from enum import StrEnum

from fastapi import Request
from fastapi.responses import Response

from spot.core import files
from spot.core.auth import DB, CurrentUser, require
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.documents import service
from spot.documents.schemas import GenerateDocument, SiteDocumentOut, SiteDocuments
from spot.permissions.names import Permission

router = api_router(tags=["documents"])


class FileKind(StrEnum):
    pdf = "pdf"
    xlsx = "xlsx"


@router.get("/site/{siteId}/documents")
async def documents(db: DB, user: CurrentUser, siteId: Id) -> SiteDocuments:
    """Every version of the site's documents, the newest first, for someone who sees the whole site
    (every cartography, function and activity of it): 404 siteNotFound, else 403."""
    return service.listing(db, user=user, site_id=siteId)


@router.post(
    "/site/{siteId}/documents/duerp", status_code=201, dependencies=[require(Permission.TableauBord)]
)
@work
def generate_duerp(db: DB, user: CurrentUser, siteId: Id, body: GenerateDocument) -> SiteDocumentOut:
    """Needs perm_TableauBord and the whole site in view (403). The site's next DUERP version in the
    language asked: a PDF and a workbook of the site's risks by work unit and its action plan, kept for
    good. 409 documentBeingGenerated when another generation of the site took the version meanwhile."""
    return service.generate_duerp(db, user=user, site_id=siteId, language=body.language)


@router.get(
    "/site/{siteId}/documents/{documentId}/{fileKind}",
    response_class=Response,
    responses={
        200: {
            "content": {service.MEDIA_TYPES["pdf"]: {}, service.MEDIA_TYPES["xlsx"]: {}},
            "description": "The file",
        }
    },
)
async def document_file(
    db: DB, user: CurrentUser, request: Request, siteId: Id, documentId: Id, fileKind: FileKind
) -> Response:
    """A version's PDF or workbook, as generated (its ETag is its SHA-256): 404 documentNotFound."""
    served = service.stored_file(db, user=user, site_id=siteId, document_id=documentId, kind=fileKind.value)
    return files.serve(request, served)
