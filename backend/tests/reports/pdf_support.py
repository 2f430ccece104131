"""What the PDF report tests build on: a small world (two learners with a path each, one of them closed
and signed), the report's request, and the zip read back (pypdf for each PDF's text)."""

import io
import zipfile
from dataclasses import dataclass
from typing import Any

import httpx
import pypdf
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from spot.core.time import today
from spot.jobs import runner
from support import API
from training.paths_support import Cast, act, make_module, make_path, move_to

PDF = f"{API}/reports/trainingPaths/pdf"
JOBS = f"{API}/jobs"
AUDIT = f"{API}/reports/auditPack"
BOARD = "perm_TableauBord"
MANAGE = "perm_TrainingManagement"

PATH_OPTIONS = "reference dates status creator validation signature completion averageGrade duration".split()
MODULE_OPTIONS = (
    "reference goals referents dates status grades comments signatures mediations mediators results".split()
)


@dataclass
class World:
    cast: Cast
    closed_path: int
    started_path: int
    module_id: int

    def headers(self, role: str) -> dict[str, str]:
        return self.cast.headers[role]


def build_world(db: Session, client: TestClient, make_user: Any, login: Any) -> World:
    """The cast of a path (training.paths_support) with a reporter (perm_TableauBord) and a second
    learner (external id EXT-7); the learner's path is closed and signed (graded 8, comment "Bien"),
    the second learner's is started."""
    cast = Cast.of(make_user, login)
    cast.add("reporter", make_user, login, [BOARD])
    second = make_user(login="second", first_name="Zoé", last_name="Élève", external_id="EXT-7")
    cast.users["second"], cast.headers["second"] = second, login(second)
    module_id = make_module(db, "Consignation électrique")
    closed = make_path(client, cast, [module_id])
    move_to(client, cast, closed, "archived")
    started = make_path(client, cast, [module_id], learnerIds=[second.id], title="Parcours habilitation")
    act(client, cast, "second", started, "accept")
    act(client, cast, "creator", started, "start")
    return World(cast=cast, closed_path=closed, started_path=started, module_id=module_id)


def request(world: World, **document: Any) -> dict[str, Any]:
    """A report on both learners over the paths' period, every status, every option on."""
    year = today().year
    return {
        "selectors": {
            "start": f"{year - 1}-01-01",
            "stop": f"{year + 1}-12-31",
            "learnerIdList": [world.cast.id("learner"), world.cast.id("second")],
            "groupIdList": [],
            "pathStatutes": ["notAccepted", "accepted", "started", "finished", "validated", "archived"],
            "moduleStatutes": ["notStarted", "started", "finished", "validated", "archived"],
            "moduleTypes": ["training"],
        },
        "documentOptions": {
            "documentTitle": "Rapport des parcours de formation",
            "displayExternalIds": True,
            "learnerSignature": True,
            "managerSignature": True,
            "managerSignatureLabel": "Visa du responsable",
            "signatureImage": None,
        }
        | document,
        "pathOptions": dict.fromkeys(PATH_OPTIONS, True),
        "moduleOptions": dict.fromkeys(MODULE_OPTIONS, True),
    }


def pdfs(content: bytes) -> dict[str, pypdf.PdfReader]:
    """Each PDF of a zip, by name, read by pypdf."""
    archive = zipfile.ZipFile(io.BytesIO(content))
    assert archive.testzip() is None
    return {name: pypdf.PdfReader(io.BytesIO(archive.read(name))) for name in archive.namelist()}


def text_of(reader: pypdf.PdfReader) -> str:
    """The text of every page, its lines joined by spaces (a cell's text may wrap)."""
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


def report_zip(client: TestClient, body: dict[str, Any], headers: dict[str, str]) -> httpx.Response:
    """The report's zip as its owner gets it: its job asked for (202), run here, then its result
    downloaded; the POST's answer itself when it refused the report."""
    asked = client.post(PDF, json=body, headers=headers)
    if asked.status_code != 202:
        return asked
    runner.run_pending()
    return client.get(f"{JOBS}/{asked.json()['id']}/result", headers=headers)
