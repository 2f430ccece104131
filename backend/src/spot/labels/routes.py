"""The labels' routes: work routes (DESIGN §4), as every file and image Spot makes. Anyone who may
read an item may have its label; 404 for an unknown item, 403 for a hidden one (labels.policy)."""

from typing import Annotated, Any

from fastapi import Header
from fastapi.responses import Response

from spot.core.auth import DB, CurrentUser
from spot.core.i18n import language
from spot.core.routing import api_router, work
from spot.core.schemas import Id
from spot.labels import service, sheet
from spot.labels.schemas import LabelItemType, QrLabel

router = api_router(tags=["labels"])

AcceptLanguage = Annotated[str | None, Header(description="fr (the default) or en")]
PDF: dict[int | str, dict[str, Any]] = {
    200: {"content": {sheet.MEDIA_TYPE: {}}, "description": "The PDF file"}
}


def _pdf(content: bytes, name: str) -> Response:
    return Response(
        content,
        media_type=sheet.MEDIA_TYPE,
        headers={
            "Content-Disposition": f'attachment; filename="{name}"',
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "no-store",
        },
    )


@router.get("/label/{itemType}/{itemId}")
@work
def label(db: DB, user: CurrentUser, itemType: LabelItemType, itemId: Id) -> QrLabel:
    """The label of a cartography, activity, function or subject the user sees: its name, its context
    (site first), the address of its page under SPOT_PUBLIC_URL (an activity's: the subject list
    filtered on it) and the QR code of that address (a PNG data URL)."""
    return service.label_out(service.label(db, user=user, item_type=itemType, item_id=itemId))


@router.get("/label/{itemType}/{itemId}/pdf", response_class=Response, responses=PDF)
@work
def label_pdf(
    db: DB, user: CurrentUser, itemType: LabelItemType, itemId: Id, accept_language: AcceptLanguage = None
) -> Response:
    """The item's label alone, at the first place of an A4 sheet of labels (qr-code-<type>-<id>.pdf);
    words in the language of Accept-Language."""
    found = service.label(db, user=user, item_type=itemType, item_id=itemId)
    content = sheet.label_pdf(found, lang=language(accept_language))
    return _pdf(content, sheet.filename(f"qr-code-{itemType}-{itemId}"))


@router.get("/cartography/{cartographyId}/labels", response_class=Response, responses=PDF)
@work
def cartography_labels(
    db: DB, user: CurrentUser, cartographyId: Id, accept_language: AcceptLanguage = None
) -> Response:
    """The A4 sheet of labels of a cartography the user may read (qr-codes-<id>.pdf): one for the
    cartography, then one per function and per activity the user sees; words in the language of
    Accept-Language."""
    found = service.sheet(db, user=user, cartography_id=cartographyId)
    content = sheet.sheet_pdf(found, lang=language(accept_language))
    return _pdf(content, sheet.filename(f"qr-codes-{cartographyId}"))
