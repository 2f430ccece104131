"""Resources for the galleries: an image, a pdf, a link and a YouTube video on a subject and on a
function of the demo site, so that the gallery, its thumbnails and its carousel have something to
show after `make run`. The files are made here (Pillow, ReportLab). Idempotent: a gallery that
already holds resources is left as it is."""

import io
import tempfile
from pathlib import Path

from PIL import Image, ImageDraw
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.account.service import principal_of
from spot.core import parents
from spot.core.principal import Principal
from spot.mapping.models import Cartography, Function, Subject
from spot.resources import policy, service
from spot.resources.models import Resource, ResourceType
from spot.resources.schemas import ResourceCreate
from spot.resources.upload import uploads_folder
from spot.users.models import User

AUTHOR = "createur"
SUBJECT = "USI-001"
FUNCTION = ("USI", "OPR")
# Big Buck Bunny, published by the Blender Foundation.
VIDEO = "https://www.youtube.com/watch?v=aqz-KE-bpKQ"


def _picture() -> bytes:
    """A 960 × 600 picture of a workstation's layout."""
    image = Image.new("RGB", (960, 600), "#e8f1f8")
    draw = ImageDraw.Draw(image)
    draw.rectangle((60, 60, 420, 540), fill="#0074c8")
    draw.rectangle((480, 60, 900, 290), fill="#007193")
    draw.rectangle((480, 330, 900, 540), fill="#ffc107")
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()


def _document(title: str, lines: list[str]) -> bytes:
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setTitle(title)
    page.setFont("Helvetica-Bold", 18)
    page.drawString(72, 770, title)
    page.setFont("Helvetica", 12)
    for n, line in enumerate(lines):
        page.drawString(72, 730 - 20 * n, line)
    page.showPage()
    page.save()
    return out.getvalue()


def _add(
    db: Session, parent: parents.Parent, user: Principal, items: list[tuple[ResourceCreate, bytes]]
) -> None:
    for data, content in items:
        upload = None
        if content:
            with tempfile.NamedTemporaryFile(dir=uploads_folder(), suffix=".part", delete=False) as out:
                out.write(content)
            upload = Path(out.name)
        try:
            service.create(db, user=user, parent=parent, data=data, upload=upload)
        finally:
            if upload is not None:
                upload.unlink(missing_ok=True)


def _gallery(name: str, link: str) -> list[tuple[ResourceCreate, bytes]]:
    def item(kind: ResourceType, title: str, link: str, comment: str = "") -> ResourceCreate:
        return ResourceCreate(resource_type=kind, name=title, link=link, comment=comment)

    return [
        (item(ResourceType.image, f"Poste {name}", "poste.jpg", "Vue du poste"), _picture()),
        (
            item(ResourceType.pdf, "Consigne de sécurité", "consigne-securite.pdf"),
            _document(
                f"Consigne de sécurité : {name}",
                ["Porter les équipements de protection.", "Signaler toute anomalie au responsable."],
            ),
        ),
        (item(ResourceType.link, "Fiche INRS", link), b""),
        (item(ResourceType.youtube, "Vidéo de démonstration", VIDEO), b""),
    ]


def seed(db: Session) -> None:
    """Added by the demo's creator (who holds perm_EditResourcesVideos); nothing when the database has
    no such user, e.g. a deployment whose own "createur" may not add resources."""
    author_id = db.scalar(select(User.id).where(User.login == AUTHOR))
    subject = db.scalar(select(Subject).where(Subject.code == SUBJECT))
    function = db.scalar(
        select(Function)
        .join(Cartography, Cartography.id == Function.cartography_id)
        .where(Cartography.code == FUNCTION[0], Function.code == FUNCTION[1])
    )
    if author_id is None or subject is None or function is None:
        return
    author = principal_of(db, user_id=author_id)
    if not policy.can_edit(author):
        return
    for parent, link in [
        (
            parents.Parent("subject", subject.id, subject.code, subject.name, subject.cartography_id),
            "https://www.inrs.fr/metiers/logistique.html",
        ),
        (
            parents.Parent("function", function.id, function.code, function.name, function.cartography_id),
            "https://www.inrs.fr/risques/machines.html",
        ),
    ]:
        held = db.scalar(
            select(Resource.id).where(Resource.parent_type == parent.type, Resource.parent_id == parent.id)
        )
        if held is None:
            _add(db, parent, author, _gallery(parent.name, link))
    db.flush()
