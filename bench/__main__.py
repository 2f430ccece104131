"""`python -m bench [querylang|subjects|mediations|modules|paths|qualifications|…|all] [--db …] [--seconds N]`

Generates (once) a large organisation per database, then measures Spot beside the bare-ASGI
floor running the same SQL, prints the tables and writes them to bench/results/. `upload` (a 30 MB
upload, bench/upload.py) and `reports` (the Excel and PDF path reports, bench/reports.py) measure
times and the server's memory instead, and are not part of `all`; nor are `people` (an import of
20,000 people), `scan` (the daily scan, bench/scan.py), timed in the process, `burst` (1,000
messages sent while another client reads, bench/burst.py), `matrix` (the skills matrix of 500
people × 60 functions and its Excel and PDF files, bench/matrix.py), `coverage` (tomorrow's
coverage on the matrix's organisation: the scan step, the plan's answer, the bell; bench/coverage.py),
`duerp` (the DUERP of a site of 100,000 risks, bench/duerp.py), and `lms` (the import and first launch
of a cmi5 course of 1,000 units, bench/lms.py).
"""

import argparse
import json
import os
from pathlib import Path
from urllib.parse import urlencode

from sqlalchemy.engine import make_url

from bench import (
    burst,
    coverage,
    dataset,
    dataset_qualifications,
    dataset_training,
    duerp,
    lms,
    matrix,
    people,
    reports,
    scan,
    upload,
)
from bench.runner import ROOT, run_calls, save, table
from bench.wrk import Call

ENTITY_GET = {"p50": 3, "p95": 6, "rps": 400}
LIST_PAGE = {"p50": 15, "p95": 30, "rps": 100}
SEARCH = {"p50": 15, "p95": 30, "rps": 100}


def _query(name: str, filter_text: str, sort: str) -> tuple[Call, dict[str, float]]:
    body = json.dumps({"filter": filter_text, "sort": sort, "page": 1, "pageSize": 50})
    return Call(name, "POST", "/backend/api/v2/subject/query", body), LIST_PAGE


def _search(name: str, text: str, more: str = "") -> tuple[Call, dict[str, float]]:
    query = urlencode({"text": text, "limit": 5}) + more  # a later limit wins
    return Call(name, "GET", f"/backend/api/v2/search?{query}"), SEARCH


FUNCTION = dataset.FUNCTION_IDS_FROM + 130  # the 130th function: 197 subjects
CONTRIBUTIONS = {"p50": 50, "p95": 100, "rps": 30}


def _contributions(name: str, **body: object) -> tuple[Call, dict[str, float]]:
    """The usage chart's call: 78 weeks (or 18 months) within the history's three years (2024-2026)."""
    query = {"fromYear": 2025, "start": 0, "count": 78, "granularity": "week", **body}
    return Call(name, "POST", "/backend/api/v2/history/contributions", json.dumps(query)), CONTRIBUTIONS


SCENARIOS = {
    "subjects": [
        (Call("GET /subject/{id}", "GET", "/backend/api/v2/subject/51234"), ENTITY_GET),
        (Call("GET /cartography/{id}", "GET", "/backend/api/v2/cartography/7"), LIST_PAGE),
        (Call("GET /cartography/{id}/zones", "GET", "/backend/api/v2/cartography/7/zones"), ENTITY_GET),
        (Call("GET /pictos/{id}", "GET", "/backend/api/v2/pictos/7"), ENTITY_GET),
        (Call("GET /function/{id}", "GET", f"/backend/api/v2/function/{FUNCTION}"), LIST_PAGE),
        _query("POST /subject/query (default page)", "", "-updated_date"),
    ],
    "contributions": [
        _contributions("cartography, 78 weeks", itemIds=[7]),
        _contributions("cartography, 18 months", itemIds=[7], granularity="month", count=18),
        _contributions("function, 78 weeks", itemIds=[FUNCTION]),
        _contributions("subject, 78 weeks", subjectIds=[51234]),
    ],
    "search": [
        # 6,700 subjects and 50,000 nodes hold "pompe"; 50,000 nodes "étanchéité"; 11 nodes "nœud 5123".
        _search("GET /search, a common word", "pompe"),
        _search("GET /search, an accented word typed without accents", "etancheite"),
        _search("GET /search, a rare text", "noeud 5123"),
        _search("GET /search, 2 characters (name prefixes)", "Ré"),
        _search("GET /search, one category expanded", "pompe", "&limit=30&category=nodes"),
    ],
    "querylang": [
        _query("name contains, sorted by name", "name contains pompe", "name"),
        _query(
            "location & followed & date",
            "location oneOf 7 & followed equals true & created_date after 2025-01-01",
            "-updated_date",
        ),
        _query(
            "or of criticity and standardized",
            "(criticity oneOf medium,high | standardized equals true) & name startsWith fuite",
            "-created_date",
        ),
        _query("node_status enum", "node_status oneOf validated,toValidate", "name"),
        _query("accent-insensitive text", "name contains ecrasement", "-updated_date"),
    ],
}


def _mediations(name: str, filter_text: str, sort: str) -> tuple[Call, dict[str, float]]:
    body = json.dumps({"filter": filter_text, "sort": sort, "page": 1, "pageSize": 50})
    return Call(name, "POST", "/backend/api/v2/mediation/query", body), LIST_PAGE


# The bench administrator created mediation 5000 (dataset.top_up_mediations).
SCENARIOS["mediations"] = [
    (Call("GET /mediation/{id}", "GET", "/backend/api/v2/mediation/5000"), ENTITY_GET),
    _mediations("POST /mediation/query (default page)", "", "-last_update"),
    _mediations(
        "POST /mediation/query, status & title, by scheduling date",
        "status oneOf stopped,validated & title contains pompe",
        "-scheduling_date",
    ),
]


def _modules(name: str, filter_text: str, sort: str) -> tuple[Call, dict[str, float]]:
    body = json.dumps({"filter": filter_text, "sort": sort, "page": 1, "pageSize": 50})
    return Call(name, "POST", "/backend/api/v2/training/module/query", body), LIST_PAGE


# Module MEASURED_MODULE has one element of each kind (dataset_training.top_up_modules).
SCENARIOS["modules"] = [
    (
        Call(
            "GET /training/module/{id}",
            "GET",
            f"/backend/api/v2/training/module/{dataset_training.MEASURED_MODULE}",
        ),
        ENTITY_GET,
    ),
    _modules("POST /training/module/query (default page)", "", "name"),
    _modules(
        "POST /training/module/query, enabled & type & name, newest first",
        "enabled equals true & module_type oneOf training,qualification & name contains consignation",
        "-creation_date",
    ),
    _modules(
        "POST /training/module/query, element kind & reference, by name",
        "item_type oneOf lms & reference oneOf BENCH-001,BENCH-002,BENCH-003",
        "name",
    ),
]


def _paths(name: str, filter_text: str, sort: str) -> tuple[Call, dict[str, float]]:
    body = json.dumps({"filter": filter_text, "sort": sort, "page": 1, "pageSize": 50})
    return Call(name, "POST", "/backend/api/v2/training/path/query", body), LIST_PAGE


# Path MEASURED_PATH has ten modules in every module status, MEASURED_MODULE first
# (dataset_training.top_up_paths); the bench administrator holds perm_TrainingPathAdmin and reads all 50,000.
SCENARIOS["paths"] = [
    (
        Call(
            "GET /training/path/{id}",
            "GET",
            f"/backend/api/v2/training/path/{dataset_training.MEASURED_PATH}",
        ),
        ENTITY_GET,
    ),
    _paths("POST /training/path/query (default page)", "", "-creation_date"),
    _paths(
        "POST /training/path/query, module & module_status",
        f"module oneOf {dataset_training.MEASURED_MODULE} & module_status oneOf started",
        "-creation_date",
    ),
    _paths(
        "POST /training/path/query, referent & status & module_is_succeeded, by stop date",
        "referent oneOf 1 & status oneOf started,finished & module_is_succeeded equals false",
        "stop_date",
    ),
]


# dataset.top_up_trees: MEASURED_SUBJECT and the other TREE_SUBJECTS have mind maps of 500 nodes, four
# levels deep. Saving a node carries the tree's version: each connection edits its own tree (Call.versioned).
EDITED_NODE = 250


def _mind_map(subject_id: int) -> str:
    return f"/backend/api/v2/subject/{subject_id}/mindmap"


SCENARIOS["mindmap"] = [
    (
        Call("GET /subject/{id}/mindmap (500 nodes)", "GET", _mind_map(dataset.MEASURED_SUBJECT)),
        ENTITY_GET,
    ),
    (
        Call(
            "POST /subject/{id}/mindmap/nodes/{code} (edit, 500 nodes)",
            "POST",
            f"{_mind_map(dataset.MEASURED_SUBJECT)}/nodes/{EDITED_NODE}",
            json.dumps({"version": 0, "name": "Vérifier le joint avant démarrage", "text": "Mesuré"}),
            versioned=tuple(
                (f"{_mind_map(subject_id)}/nodes/{EDITED_NODE}", _mind_map(subject_id))
                for subject_id in dataset.TREE_SUBJECTS
            ),
        ),
        ENTITY_GET,
    ),
]


DASHBOARD = {"p50": 50, "p95": 100, "rps": 30}


def _qualifications(name: str, filter_text: str, sort: str) -> tuple[Call, dict[str, float]]:
    body = json.dumps({"filter": filter_text, "sort": sort, "page": 1, "pageSize": 50})
    return Call(name, "POST", "/backend/api/v2/qualifications/query", body), LIST_PAGE


# dataset_qualifications.top_up_qualifications: the group QUALIFIED_GROUP of 500 learners with current
# paths and graded modules, QUALIFICATIONS_ON_MAP qualifications of it on QUALIFICATION_CARTOGRAPHY; My
# dashboard as MEASURED_LEARNER, one of them (the bench administrator is no learner).
LEARNER = (f"user{dataset_qualifications.MEASURED_LEARNER}", dataset.ADMIN_PASSWORD)
SCENARIOS["qualifications"] = [
    (
        Call(
            "GET /dashboards/trainingPath/group/{id} (500 learners)",
            "GET",
            f"/backend/api/v2/dashboards/trainingPath/group/{dataset_qualifications.QUALIFIED_GROUP}",
        ),
        DASHBOARD,
    ),
    (
        Call(
            "GET /dashboards/qualifications/cartography/{id}",
            "GET",
            f"/backend/api/v2/dashboards/qualifications/cartography/{dataset_qualifications.QUALIFICATION_CARTOGRAPHY}",
        ),
        DASHBOARD,
    ),
    (
        Call("GET /dashboards/mine (a learner)", "GET", "/backend/api/v2/dashboards/mine", login=LEARNER),
        DASHBOARD,
    ),
    (
        Call(
            "GET /qualifications/{id}",
            "GET",
            f"/backend/api/v2/qualifications/{dataset_qualifications.MEASURED_QUALIFICATION}",
        ),
        ENTITY_GET,
    ),
    _qualifications("POST /qualifications/query (default page)", "", "name"),
    _qualifications(
        "POST /qualifications/query, groups & name",
        f"qualifiableGroups oneOf {dataset_qualifications.QUALIFIED_GROUP} & name contains habilitation",
        "name",
    ),
]


def _databases(choice: str) -> list[str]:
    sqlite_url = f"sqlite:///{ROOT}/var/bench/spot.db"
    pg_url = os.environ.get("BENCH_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/spot_bench")
    return {"sqlite": [sqlite_url], "postgresql": [pg_url], "both": [sqlite_url, pg_url]}[choice]


def _ensure_pg_database(url: str) -> None:
    from sqlalchemy import create_engine, text

    parsed = make_url(url)
    admin = create_engine(parsed.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if not conn.scalar(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": parsed.database}):
            conn.execute(text(f'CREATE DATABASE "{parsed.database}"'))
    admin.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    choices = [
        *SCENARIOS,
        "all",
        "upload",
        "reports",
        "people",
        "scan",
        "burst",
        "matrix",
        "coverage",
        "duerp",
        "lms",
    ]
    parser.add_argument("scenario", choices=choices, nargs="?", default="all")
    parser.add_argument("--db", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--seconds", type=int, default=10)
    args = parser.parse_args()
    if args.scenario == "people":
        # An import of 20,000 people on fresh databases (bench/people.py): not a wrk scenario.
        people.main(_databases(args.db))
        return
    if args.scenario == "scan":
        # The daily scan over 20,000 people and 50,000 paths on fresh databases (bench/scan.py).
        scan.main(_databases(args.db))
        return
    if args.scenario == "matrix":
        # The skills matrix of 500 people × 60 functions and its files on fresh databases (bench/matrix.py).
        matrix.main(_databases(args.db))
        return
    if args.scenario == "duerp":
        # The DUERP of a site of 100,000 risks on fresh databases (bench/duerp.py), timed in the process.
        duerp.main(_databases(args.db))
        return
    if args.scenario == "lms":
        # A cmi5 course of 1,000 units: its import, then a first launch satisfying all (bench/lms.py).
        lms.main(_databases(args.db))
        return
    if args.scenario == "coverage":
        # Tomorrow's coverage on the matrix's organisation (bench/coverage.py): scan step, plan, bell.
        coverage.main(_databases(args.db))
        return
    if args.scenario == "burst":
        # 1,000 messages sent while another client reads (bench/burst.py): not a wrk scenario.
        burst.main(_databases(args.db))
        return
    if args.scenario == "upload":
        # A 30 MB upload while another client reads (bench/upload.py): not a wrk scenario.
        upload.main(_databases(args.db))
        return
    scenarios = list(SCENARIOS) if args.scenario == "all" else [args.scenario]
    from spot.db import make_engine

    for url in _databases(args.db):
        kind = make_url(url).get_backend_name()
        if kind == "postgresql":
            _ensure_pg_database(url)
        engine = make_engine(url)
        if not dataset.present(engine):
            print(f"generating the {kind} dataset…", flush=True)
            dataset.generate(engine, url)
        dataset.top_up_nodes(engine)
        dataset.top_up_node_parents(engine)
        dataset.top_up_trees(engine)
        dataset.top_up_mediations(engine)
        dataset_training.top_up_modules(engine)
        dataset_training.top_up_paths(engine)
        dataset_qualifications.top_up_qualifications(engine)
        engine.dispose()
        data_dir = ROOT / "var" / "bench" / "data"
        if args.scenario == "reports":
            print(f"reports on {kind}", flush=True)
            reports.main(url, Path(data_dir))
            continue
        for scenario in scenarios:
            print(f"{scenario} on {kind}", flush=True)
            rows = run_calls(
                url,
                Path(data_dir),
                SCENARIOS[scenario],
                (dataset.ADMIN_LOGIN, dataset.ADMIN_PASSWORD),
                args.seconds,
            )
            text = table(f"{scenario} on {kind}", rows)
            print(text, flush=True)
            print(f"written to {save(f'{scenario}-{kind}', text)}", flush=True)


if __name__ == "__main__":
    main()
