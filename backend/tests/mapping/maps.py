"""Small map bundles for the tests, and the ids of what they create."""

import copy
import io
import json
import zipfile
from typing import Any

import httpx
from PIL import Image
from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.jobs import runner
from spot.mapping import bundle
from spot.mapping.models import Activity, Cartography, CartographyVisibility, Function, Site, Subject
from spot.users.models import User


def png(width: int = 200, height: int = 100, colour: str = "#88aacc") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="PNG")
    return out.getvalue()


def jpeg(width: int = 32, height: int = 32) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), "#cc8844").save(out, format="JPEG")
    return out.getvalue()


FILES = {
    "plan-1.png": png(400, 300),
    "plan-2.jpg": jpeg(640, 480),
    "picto.png": png(16, 16, "#ff0000"),
    "photo.jpg": jpeg(20, 10),
}

DOCUMENT: dict[str, Any] = {
    "format": "spot-map/1",
    "code": "TST",
    "name": "Site de test",
    "cartographies": [
        {
            "code": "C1",
            "name": "Atelier de test",
            "image": "plan-1.png",
            "activities": [
                {
                    "code": "A1",
                    "name": "Usinage",
                    "activities": [
                        {"code": "A11", "name": "Tournage"},
                        {
                            "code": "A12",
                            "name": "Fraisage",
                            "activities": [{"code": "A121", "name": "Ébavurage"}],
                        },
                    ],
                },
                {"code": "A2", "name": "Contrôle"},
            ],
            "functions": [{"code": "F1", "name": "Opérateur régleur"}, {"code": "F2", "name": "Contrôleur"}],
            "zones": [
                {"type": "activity", "target": "A1", "x": 10, "y": 10, "width": 100, "height": 50},
                {"type": "function", "target": "F2", "x": 200, "y": 20, "width": 40.5, "height": 30},
            ],
            "pictograms": [{"activity": "A1", "image": "picto.png"}],
            "subjects": [
                {
                    "code": "S1",
                    "name": "Changer une plaquette",
                    "type": "risk",
                    "function": "F1",
                    "activity": "A11",
                    "frequency": 3,
                    "gravity": 4,
                    "hasDiagram": True,
                    "picture": "photo.jpg",
                    "mindMap": [
                        {"code": 0, "name": "Changer une plaquette", "status": "inProgress"},
                        {"code": 1, "name": "Consigner", "status": "validated"},
                    ],
                },
                {
                    "code": "S2",
                    "name": "Mesurer une cote",
                    "type": "quality",
                    "function": "F2",
                    "activity": "A2",
                },
                {"code": "S3", "name": "Ébavurer", "type": "quality", "function": "F1", "activity": "A121"},
            ],
        },
        {
            "code": "C2",
            "name": "Ligne de test",
            "image": "plan-2.jpg",
            "activities": [{"code": "B1", "name": "Montage"}],
            "functions": [{"code": "G1", "name": "Monteur"}],
            "zones": [{"type": "activity", "target": "B1", "x": 0, "y": 0, "width": 10, "height": 10}],
            "subjects": [{"code": "T1", "name": "Visser", "function": "G1", "activity": "B1"}],
        },
    ],
}


def document() -> dict[str, Any]:
    return copy.deepcopy(DOCUMENT)


def make_zip(
    doc: dict[str, Any] | None = None, files: dict[str, bytes] | None = None, manifest: bytes | None = None
) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("map.json", manifest if manifest is not None else json.dumps(doc or DOCUMENT))
        for name, content in (FILES if files is None else files).items():
            archive.writestr(name, content)
    return out.getvalue()


class Map:
    """Ids of the imported test map, by code: m.cartography('C1'), m.activity('A11')…"""

    def __init__(self, db: Session) -> None:
        self.db = db
        site = db.scalar(select(Site).where(Site.code == "TST"))
        assert site is not None
        self.site_id = site.id

    def _id(self, model: Any, code: str) -> int:
        ids = self.db.scalars(select(model.id).where(model.code == code)).all()
        assert len(ids) == 1, (model, code, ids)
        return ids[0]

    def cartography(self, code: str) -> int:
        return self._id(Cartography, code)

    def activity(self, code: str) -> int:
        return self._id(Activity, code)

    def function(self, code: str) -> int:
        return self._id(Function, code)

    def subject(self, code: str) -> int:
        return self._id(Subject, code)


def load(db: Session, doc: dict[str, Any] | None = None) -> Map:
    bundle.import_bundle(db, data=make_zip(doc), user=None)
    db.commit()
    return Map(db)


def restrict(db: Session, user: User, *cartography_ids: int) -> None:
    """Limit the user's own group to these cartographies."""
    for cartography_id in cartography_ids:
        db.add(
            CartographyVisibility(group_id=user.groups[0].id, item_type="cartography", item_id=cartography_id)
        )
    db.commit()


# A second site (for the two_sites fixture), so that site and location filters have something to leave out.
SECOND_SITE: dict[str, Any] = {
    "format": "spot-map/1",
    "code": "SEC",
    "name": "Second site",
    "cartographies": [
        {
            "code": "C3",
            "name": "Éclairage public",
            "image": "plan-1.png",
            "activities": [{"code": "E1", "name": "Agencement"}],
            "functions": [
                {"code": "H1", "name": "Électricien"},
                {"code": "H2", "name": "Opérateur de nacelle"},
            ],
        }
    ],
}


def site_id(m: Map, code: str) -> int:
    """The id of a site by code (Map.site_id is the first site's)."""
    found = m.db.scalar(select(Site.id).where(Site.code == code))
    assert found is not None
    return found


def import_map(client: Any, *, content: Any, headers: dict[str, str]) -> httpx.Response:
    """A map bundle imported through the API: its job asked for (202; a refused bundle is answered as
    it is), run here, then its summary answered as the import's result (200); a job that failed is
    answered as its error body (409)."""
    asked = client.post("/backend/api/v2/mapping/import", content=content, headers=headers)
    if asked.status_code != 202:
        return asked
    assert asked.json()["kind"] == "mapImport"
    runner.run_pending()
    job = client.get(f"/backend/api/v2/jobs/{asked.json()['id']}", headers=headers).json()
    if job["status"] == "succeeded":
        return httpx.Response(200, json=job["summary"])
    body = {"status": 409, "reason": "Conflict", "message": job["error"], "errors": job["errors"]}
    return httpx.Response(409, json=body)
