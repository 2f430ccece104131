"""The DUERP of a site of 100,000 risks (issue budget: generated within 60 s, off the event loop,
streamed), on a fresh database of each kind: one site of 5 cartographies, each of 8 activities with 2
sub-activities and 20 functions; 100,000 subjects, all risks (the heaviest case), rated 5 times in 6,
followed, resolved and standardized 3 times in 10 each by one of 200 people, half with prevention
measures of one to three sentences.

Measured in the process, through `documents.service.generate_duerp` as the work route calls it (the
rows read, the PDF and the workbook written and stored, the version's row committed): its time, the
process's peak memory before and after, and the two files' sizes.

`python -m bench duerp [--db sqlite|postgresql|both]`
"""

import random
import resource
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy.engine import make_url

from bench.runner import save
from bench.scan import _fresh

SUBJECTS = 100_000
CARTOGRAPHIES = 5
TOP_ACTIVITIES = 8
SUB_ACTIVITIES = 2
FUNCTIONS = 20
PEOPLE = 200
BUDGET_SECONDS = 60
EPOCH = datetime(2025, 1, 1, tzinfo=UTC)
MEASURES = [
    "Port des gants anti-coupure EN 388.",
    "Carter de protection fermé pendant le cycle; consignation avant toute intervention.",
    "Formation au poste à l'embauche puis chaque année. Contrôle visuel de l'outil en début de poste.",
]


def _generate() -> None:
    from bench.dataset import load
    from spot import db as database
    from spot.core.passwords import hash_password
    from spot.permissions.names import Permission
    from spot.querylang.text import fold

    engine = database.get_engine()
    tables = database.Base.metadata.tables
    rng = random.Random(33)
    load(engine, tables["group"], [{"id": 1, "name": "Prévention"}])
    load(engine, tables["group_permission"], [{"group_id": 1, "name": p.value} for p in Permission])
    password = hash_password("bench-password")
    load(
        engine,
        tables["user"],
        [
            {
                "id": i,
                "login": f"person{i}",
                "first_name": "Personne",
                "last_name": f"N°{i}",
                "password_hash": password,
                "created_at": EPOCH,
            }
            for i in range(1, PEOPLE + 1)
        ],
    )
    load(engine, tables["user_group"], [{"user_id": 1, "group_id": 1}])
    items: list[dict] = [{"id": 1, "type": "site"}]
    cartographies, activities, functions = [], [], []
    places: list[tuple[int, int, int]] = []
    next_id = 2
    for c in range(CARTOGRAPHIES):
        cid, next_id = next_id, next_id + 1
        cartographies.append(
            {
                "id": cid,
                "site_id": 1,
                "code": f"C{c}",
                "name": f"Atelier {c + 1}",
                "ordering": c,
                "image_width": 0,
                "image_height": 0,
            }
        )
        leaves = []
        for a in range(TOP_ACTIVITIES):
            top, next_id = next_id, next_id + 1
            activities.append(
                {
                    "id": top,
                    "cartography_id": cid,
                    "parent_id": None,
                    "ordering": a,
                    "code": f"A{top}",
                    "name": f"Activité {a + 1}",
                }
            )
            leaves.append(top)
            for b in range(SUB_ACTIVITIES):
                sub, next_id = next_id, next_id + 1
                activities.append(
                    {
                        "id": sub,
                        "cartography_id": cid,
                        "parent_id": top,
                        "ordering": b,
                        "code": f"A{sub}",
                        "name": f"Sous-activité {a + 1}.{b + 1}",
                    }
                )
                leaves.append(sub)
        for f in range(FUNCTIONS):
            fid, next_id = next_id, next_id + 1
            functions.append(
                {
                    "id": fid,
                    "cartography_id": cid,
                    "ordering": f,
                    "code": f"F{fid}",
                    "name": f"Fonction {f + 1}",
                }
            )
            places += [(cid, fid, leaf) for leaf in leaves]
    items += [{"id": c["id"], "type": "cartography"} for c in cartographies]
    items += [{"id": a["id"], "type": "activity"} for a in activities]
    items += [{"id": f["id"], "type": "function"} for f in functions]
    load(engine, tables["map_item_id"], items)
    load(engine, tables["site"], [{"id": 1, "code": "USN", "name": "Usine de Nantes"}])
    load(engine, tables["cartography"], cartographies)
    load(engine, tables["activity"], activities)
    load(engine, tables["function"], functions)

    def subjects():  # type: ignore[no-untyped-def]
        for n in range(SUBJECTS):
            sid = next_id + n
            cid, fid, aid = rng.choice(places)
            rated = rng.random() < 5 / 6
            frequency, gravity = (rng.randint(1, 5), rng.randint(1, 5)) if rated else (0, 0)
            at = EPOCH + timedelta(hours=rng.randrange(0, 15_000))
            marks = {}
            for mark in ("followed", "resolved", "standardized"):
                done = rng.random() < 0.3
                marks[f"{mark}_by"] = rng.randint(1, PEOPLE) if done else None
                marks[f"{mark}_at"] = at if done else None
            name = f"Risque {n + 1} : coupure lors du changement d'outil"
            yield {
                "id": sid,
                "code": f"R{n + 1}",
                "code_folded": fold(f"R{n + 1}"),
                "name": name,
                "name_folded": fold(name),
                "type": "risk",
                "cartography_id": cid,
                "function_id": fid,
                "activity_id": aid,
                "frequency": frequency,
                "gravity": gravity,
                "detectability": 0,
                "criticity_score": round(frequency * gravity / 25 * 100) if rated else None,
                "criticity_by": rng.randint(1, PEOPLE) if rated else None,
                "criticity_at": at if rated else None,
                "created_at": at,
                "updated_at": at,
                **marks,
                "standardized_comment": "",
                "prevention_measures": " ".join(rng.sample(MEASURES, rng.randint(1, 3))) if n % 2 else "",
                "has_diagram": False,
                "mind_map_version": 1,
                "version": 1,
            }

    load(engine, tables["map_item_id"], ({"id": next_id + n, "type": "subject"} for n in range(SUBJECTS)))
    load(engine, tables["subject"], subjects())


def measure(url: str) -> tuple[float, float, float, int, int, int]:
    import os

    from spot import db as database
    from spot.account.service import principal_of
    from spot.config import get_settings
    from spot.documents import service

    os.environ["SPOT_DATABASE_URL"] = url
    get_settings.cache_clear()
    database.get_engine.cache_clear()
    database.session_factory.cache_clear()
    database.load_models()
    database.migrate()
    started = time.perf_counter()
    _generate()
    print(f"generated in {time.perf_counter() - started:.1f} s", flush=True)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with database.session_factory()() as db:
        user = principal_of(db, user_id=1)
        start = time.perf_counter()
        made = service.generate_duerp(db, user=user, site_id=1, language="fr")
        db.commit()
        elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    database.get_engine().dispose()
    return elapsed, before, after, made.risks, made.pdf.size, made.xlsx.size


def main(urls: list[str]) -> None:
    lines = [f"## DUERP of a site of {SUBJECTS:,} risks (budget {BUDGET_SECONDS} s)", ""]
    lines += [
        "| database | seconds | peak memory before → after (MB) | risks | PDF | XLSX |",
        "|---|---|---|---|---|---|",
    ]
    for url in urls:
        kind = make_url(url).get_backend_name()
        elapsed, before, after, risks, pdf, xlsx = measure(_fresh(url))
        lines.append(
            f"| {kind} | {elapsed:.1f} | {before:.0f} → {after:.0f} | {risks:,} "
            f"| {pdf / 1e6:.1f} MB | {xlsx / 1e6:.1f} MB |"
        )
        print(lines[-1], flush=True)
    print(f"written to {save('duerp', chr(10).join(lines))}", flush=True)
