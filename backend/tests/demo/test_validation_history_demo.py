"""The demo's validation histories (demo.validation_history): `apprenant`'s forklift validation renewed
after an initial training whose grade was changed, and his electrical clearance expired, a refresher
since not passed; his audit pack prints them; seeded twice, the same data."""

import io
import zipfile
from datetime import date

import pypdf
from sqlalchemy import func, select

from mapping.test_mapping_demo import demo_login
from spot import demo
from spot.demo import validation_history as demo_history
from spot.training.paths.models import TrainingPath, TrainingPathGrading
from spot.users.models import User
from support import API


def _counts(db) -> tuple[int, int]:
    return (
        db.scalar(select(func.count()).select_from(TrainingPath)),
        db.scalar(select(func.count()).select_from(TrainingPathGrading)),
    )


def _timeline(answer: dict, module: str) -> list[tuple]:
    (found,) = [h for h in answer["history"] if h["module"]["name"] == module]
    return [(g["trainingPath"]["title"], g["grade"], g["isSuccess"], g["outcome"]) for g in found["gradings"]]


def test_apprenant_has_timelines_worth_reading_seeded_once(demo_org, client, db):
    once = _counts(db)
    demo.seed(db)
    db.commit()
    assert _counts(db) == once
    learner = db.scalar(select(User.id).where(User.login == demo_history.LEARNER))
    headers = demo_login(client, db, demo_history.LEARNER)
    answer = client.get(f"{API}/dashboards/qualifications/user/{learner}", headers=headers).json()
    assert _timeline(answer, demo_history.FORKLIFT) == [
        ("Habilitation cariste", 9.0, True, "valid"),
        (demo_history.INITIAL, 8.5, True, "renewed"),
        (demo_history.INITIAL, 6.0, False, "regraded"),
    ]
    assert _timeline(answer, demo_history.ELECTRICITY) == [
        (demo_history.REFRESHER, 4.5, False, "failed"),
        ("Habilitation électrique", 9.0, True, "expired"),
    ]
    (renewed,) = [
        g
        for h in answer["history"]
        for g in h["gradings"]
        if h["module"]["name"] == demo_history.FORKLIFT and g["outcome"] == "renewed"
    ]
    (valid,) = [
        g
        for h in answer["history"]
        for g in h["gradings"]
        if h["module"]["name"] == demo_history.FORKLIFT and g["outcome"] == "valid"
    ]
    # The initial validation ran out about when the current one renewed it.
    assert (
        abs((date.fromisoformat(renewed["validUntil"]) - date.fromisoformat(valid["gradedAt"][:10])).days)
        <= 1
    )
    # The expired clearance is expired on the status too, not "never validated".
    (clearance,) = [
        c for e in answer["elements"] for c in e["children"] if c["name"] == demo_history.ELECTRICITY
    ]
    assert -40 < clearance["remainingDays"] < 0 and clearance["validUntil"] is not None


def test_the_audit_pack_prints_them(demo_org, client, db):
    learner = db.scalar(select(User.id).where(User.login == demo_history.LEARNER))
    response = client.get(f"{API}/reports/auditPack/{learner}", headers=demo_login(client, db, "manager"))
    assert response.status_code == 200, response.text
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    reader = pypdf.PdfReader(io.BytesIO(archive.read("Historique des validations.pdf")))
    printed = " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)
    for expected in (
        demo_history.FORKLIFT,
        demo_history.INITIAL,
        "Note modifiée ensuite",
        "Remplacée par une validation ultérieure",
        demo_history.REFRESHER,
        "Validation expirée",
        "Aujourd'hui : expirée, dernier jour valide le",
    ):
        assert expected in printed, expected
