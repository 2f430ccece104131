"""The skills matrix, and its Excel and PDF files read back, agree with the rule of docs/qualifications.md
computed here in plain Python over random organisations: which qualifications concern whom, name the
cartography, name functions (or leave it to their modules' spot elements), and random holds on their
modules (valid, expiring, expired, permanent, failed, never, in progress)."""

import io
import re
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from pypdf import PdfReader
from sqlalchemy import delete, insert, select

from qualifications.test_skills_matrix import FILLS
from qualifications.world import TODAY, graded, group, in_progress, module
from spot.qualifications.models import (
    Qualification,
    QualificationCartography,
    QualificationFunction,
    QualificationGroup,
    QualificationModule,
)
from spot.training.modules.models import TrainingModule
from spot.training.paths.models import TrainingPath
from spot.users.models import Group, User, user_group
from support import API

NONE, UNLIMITED, WARN = -10000, 10000, 30
PEOPLE = ("ana", "bob", "cyd", "dan", "eve")
GROUPS = 2
QUALIFICATIONS = 3
# The modules' spot elements: module index -> ("function" | "subject", code).
MODULE_SPOTS = [
    [("subject", "S1")],
    [("function", "F2")],
    [("function", "G1")],
    [("function", "F3"), ("function", "F1")],
]
C1_FUNCTIONS = ("F1", "F2", "F3")
# Subject S1 is on function F1 of C1.
SUBJECT_FUNCTION = {"S1": "F1"}

# A person's path on a module: none, a success valid for some days (None: permanent), a failure, and
# whether a path in progress will grade it.
days = st.one_of(st.none(), st.integers(-60, 60), st.sampled_from([0, 30, 31, -1]))
hold = st.one_of(
    st.just(("none",)),
    st.tuples(st.just("success"), days),
    st.just(("failure",)),
)
world = st.fixed_dictionaries(
    {
        "members": st.lists(st.sets(st.integers(0, GROUPS - 1)), min_size=len(PEOPLE), max_size=len(PEOPLE)),
        "qualifications": st.lists(
            st.fixed_dictionaries(
                {
                    "groups": st.sets(st.integers(0, GROUPS - 1)),
                    "modules": st.lists(st.integers(0, len(MODULE_SPOTS) - 1), unique=True, max_size=3),
                    "names_c1": st.booleans(),
                    "functions": st.sets(st.sampled_from(C1_FUNCTIONS + ("G1",)), max_size=2),
                }
            ),
            min_size=QUALIFICATIONS,
            max_size=QUALIFICATIONS,
        ),
        # Every (person, module): most people have some path on most modules.
        "holds": st.fixed_dictionaries(
            {
                (p, m): st.tuples(hold, st.booleans())
                for p in range(len(PEOPLE))
                for m in range(len(MODULE_SPOTS))
            }
        ),
    }
)


@dataclass(frozen=True)
class Hold:
    remaining: int
    requalifying: bool


def expected(w, names: list[str]) -> tuple[dict, dict]:
    """The rule in plain Python: each person's cells on C1's functions (state, days left), and each
    function's qualified count."""

    def module_hold(p: int, m: int) -> Hold:
        (outcome, *rest), requalifying = w["holds"].get((p, m), (("none",), False))
        if outcome == "success":
            remaining = UNLIMITED if rest[0] is None else rest[0]
        else:
            remaining = NONE
        return Hold(remaining, requalifying)

    def qualification_hold(p: int, q: dict) -> Hold:
        found = None
        for m in q["modules"]:
            h = module_hold(p, m)
            if found is None or h.remaining < found.remaining:
                found = h
        return found or Hold(NONE, False)

    def covers(q: dict, f: str) -> bool:
        if not q["names_c1"]:
            return False
        if q["functions"]:
            return f in q["functions"]
        return any(
            code == f if kind == "function" else SUBJECT_FUNCTION[code] == f
            for m in q["modules"]
            for kind, code in MODULE_SPOTS[m]
        )

    def concerned(p: int, q: dict) -> bool:
        return bool(w["members"][p] & q["groups"])

    def rank(h: Hold) -> tuple[bool, bool, int]:
        valid = h.remaining >= 0
        return valid, not valid and h.requalifying, h.remaining

    def state(h: Hold | None) -> tuple[str, int | None]:
        if h is None:
            return "never", None
        if h.remaining > WARN:
            return "valid", None if h.remaining == UNLIMITED else h.remaining
        if h.remaining >= 0:
            return "expiring", h.remaining
        if h.requalifying:
            return "inProgress", None if h.remaining == NONE else h.remaining
        if h.remaining == NONE:
            return "never", None
        return "expired", h.remaining

    rows = {}
    for p, name in enumerate(names):
        if not any(concerned(p, q) and q["names_c1"] for q in w["qualifications"]):
            continue
        cells = []
        for f in C1_FUNCTIONS:
            candidates = [
                qualification_hold(p, q) for q in w["qualifications"] if covers(q, f) and concerned(p, q)
            ]
            best = None
            for h in candidates:
                if best is None or rank(h) > rank(best):
                    best = h
            cells.append(state(best))
        rows[name] = cells
    qualified = {
        f: sum(cells[i][0] in ("valid", "expiring") for cells in rows.values())
        for i, f in enumerate(C1_FUNCTIONS)
    }
    return rows, qualified


def on(days: int | None) -> str | None:
    return None if days is None else (TODAY + timedelta(days=days)).isoformat()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(w=world)
def test_the_matrix_and_its_files_follow_the_rule(client, db, test_map, make_user, manager, today, w):
    people = [u.id for u in db.scalars(select(User).where(User.login.in_(PEOPLE)).order_by(User.login))]
    if not people:
        people = [make_user(login, first_name=login.title(), last_name="Test").id for login in PEOPLE]
    names = [f"{login.title()} Test" for login in PEOPLE]
    setup = _skeleton(db, test_map)
    c1 = test_map.cartography("C1")
    # This example's organisation.
    db.execute(delete(TrainingPath))
    for table in (QualificationFunction, QualificationGroup, QualificationModule, QualificationCartography):
        db.execute(delete(table))
    db.execute(delete(user_group).where(user_group.c.group_id.in_(setup["groups"])))
    for p, groups in enumerate(w["members"]):
        for g in groups:
            db.execute(insert(user_group).values(user_id=people[p], group_id=setup["groups"][g]))
    for q, spec in zip(setup["qualifications"], w["qualifications"], strict=True):
        if spec["names_c1"]:
            db.add(QualificationCartography(qualification_id=q, cartography_id=c1))
        db.add(QualificationCartography(qualification_id=q, cartography_id=test_map.cartography("C2")))
        for g in spec["groups"]:
            db.add(QualificationGroup(qualification_id=q, group_id=setup["groups"][g]))
        for position, m in enumerate(spec["modules"]):
            db.add(QualificationModule(qualification_id=q, module_id=setup["modules"][m], position=position))
        for code in spec["functions"]:
            db.add(QualificationFunction(qualification_id=q, function_id=test_map.function(code)))
    db.commit()
    for (p, m), ((outcome, *rest), requalifying) in w["holds"].items():
        if outcome != "none":
            graded(
                db, people[p], setup["modules"][m], days=rest[0] if rest else 0, success=outcome == "success"
            )
        if requalifying:
            in_progress(db, people[p], setup["modules"][m])

    rows, qualified = expected(w, names)
    response = client.get(f"{API}/dashboards/cartography/{c1}/matrix", headers=manager)
    assert response.status_code == 200, response.text
    answer = response.json()
    assert [c["name"] for c in answer["columns"]] == ["Opérateur régleur", "Contrôleur", "Magasinier"]
    got = {r["name"]: [(c["state"], c["validUntil"]) for c in r["cells"]] for r in answer["rows"]}
    assert got == {name: [(s, on(d)) for s, d in cells] for name, cells in rows.items()}
    assert [c["qualified"] for c in answer["columns"]] == [qualified[f] for f in C1_FUNCTIONS]
    assert [r["held"] for r in answer["rows"]] == [
        sum(s in ("valid", "expiring") for s, _ in rows[r["name"]]) for r in answer["rows"]
    ]

    book = load_workbook(
        io.BytesIO(client.get(f"{API}/dashboards/cartography/{c1}/matrix/excel", headers=manager).content)
    )
    sheet = book.worksheets[0]
    read = {}
    for row in sheet.iter_rows(min_row=2, max_row=len(rows) + 1, max_col=4):
        read[row[0].value] = [
            (FILLS[c.fill.fgColor.rgb[-6:]], c.value.date().isoformat() if hasattr(c.value, "date") else None)
            for c in row[1:]
        ]
    assert read == {name: [(s, on(d)) for s, d in cells] for name, cells in rows.items()}
    foot = [sheet.cell(row=len(rows) + 2, column=c).value for c in range(2, 5)]
    assert foot == [qualified[f] for f in C1_FUNCTIONS]

    pdf = client.get(
        f"{API}/dashboards/cartography/{c1}/matrix/pdf", headers={**manager, "Accept-Language": "fr"}
    )
    printed, printed_foot = pdf_rows(pdf.content, names)
    assert printed == {
        name: (
            sum(s in ("valid", "expiring") for s, _ in cells),
            Counter(word for s, d in cells for word in words_of(printed_cell(s, d))),
        )
        for name, cells in rows.items()
    }
    assert printed_foot == [str(qualified[f]) for f in C1_FUNCTIONS]


# What a PDF cell prints in French (core/texts, skills_matrix.short_states): its state's word, then its
# last valid day, "sans limite" for a permanent validation; a dash for a person never qualified.
SHORT = {
    "valid": "Valide",
    "expiring": "Expire",
    "inProgress": "En cours",
    "expired": "Expirée",
    "never": "—",
}


def words_of(text: str) -> list[str]:
    """Its words, a dash being one, and a capital starting one: the PDF's reader may join a dash, or a
    cell's first word, to the word before it ("coursValide", when the canvas writes a cell after one
    on its right)."""
    return re.findall(r"—|[^\s—]+?(?=[\s—]|[A-ZÉ]|$)", text)


def printed_cell(state: str, days: int | None) -> str:
    if state == "never":
        return SHORT[state]
    if days is None:
        return f"{SHORT[state]} sans limite" if state == "valid" else SHORT[state]
    return f"{SHORT[state]} {(TODAY + timedelta(days=days)).strftime('%d/%m/%y')}"


def pdf_rows(content: bytes, names: list[str]) -> tuple[dict[str, tuple[int, Counter[str]]], list[str]]:
    """Each person's row as the PDF prints it, read by position on its one page: the count of functions
    held beside the name, and the words of the row's cells (state and day, a cell's two lines around the
    name's baseline; the canvas writes several cells' words as one string, so their order is not read);
    and the foot's people qualified, by column."""
    (page,) = PdfReader(io.BytesIO(content)).pages
    items: list[tuple[float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], _font: object, _size: object) -> None:
        if text.strip():
            items.append((tm[4] * cm[1] + tm[5] * cm[3] + cm[5], text.strip()))

    page.extract_text(visitor_text=visit)
    rows: dict[str, tuple[int, Counter[str]]] = {}
    foot: list[str] = []
    for y, text in items:
        name = next((n for n in names if text.startswith(f"{n} ")), None)
        if name is not None:
            words = Counter(
                word for y2, other in items if abs(y2 - y) < 6 and other != text for word in words_of(other)
            )
            rows[name] = (int(text.removeprefix(name)), words)
        elif text.startswith("Personnes qualifiées "):
            foot = text.removeprefix("Personnes qualifiées ").split()
    return rows, foot


def _skeleton(db, test_map) -> dict[str, list[int]]:
    """The groups, modules and qualifications every example shares (made by the first one)."""
    found = db.scalars(
        select(Qualification.id).where(Qualification.name.like("Propriété %")).order_by(Qualification.id)
    ).all()
    if found:
        groups = db.scalars(select(Group.id).where(Group.name.like("Propriété %")).order_by(Group.id)).all()
        modules = db.scalars(
            select(TrainingModule.id)
            .where(TrainingModule.name.like("Propriété %"))
            .order_by(TrainingModule.id)
        ).all()
        return {"groups": list(groups), "modules": list(modules), "qualifications": list(found)}
    groups = [group(db, f"Propriété {g}") for g in range(GROUPS)]
    modules = []
    for i, spots in enumerate(MODULE_SPOTS):
        functions = [test_map.function(code) for kind, code in spots if kind == "function"]
        subjects = [test_map.subject(code) for kind, code in spots if kind == "subject"]
        modules.append(module(db, f"Propriété {i}", functions=functions, subjects=subjects))
    at = datetime(2026, 6, 1, 8, tzinfo=UTC)
    qualifications = []
    for q in range(QUALIFICATIONS):
        row = Qualification(name=f"Propriété {q}", created_at=at, updated_at=at)
        db.add(row)
        db.flush()
        qualifications.append(row.id)
    db.commit()
    return {"groups": groups, "modules": modules, "qualifications": qualifications}


def test_the_plain_rule_of_this_file_is_the_documented_one() -> None:
    """The oracle itself on a case worked by hand: 'ana' holds the qualification naming F3 (its module
    on F3 and F1 counts for F3 only); 'bob' is being requalified on the one covering F2."""
    w = {
        "members": [{0}, {0}, set(), set(), set()],
        "qualifications": [
            {"groups": {0}, "modules": [3], "names_c1": True, "functions": {"F3"}},
            {"groups": {0}, "modules": [1], "names_c1": True, "functions": set()},
            {"groups": {1}, "modules": [0], "names_c1": True, "functions": set()},
        ],
        "holds": {(0, 3): (("success", 40), False), (1, 1): (("success", -3), True)},
    }
    rows, qualified = expected(w, ["A", "B", "C", "D", "E"])
    assert rows == {
        "A": [("never", None), ("never", None), ("valid", 40)],
        "B": [("never", None), ("inProgress", -3), ("never", None)],
    }
    assert qualified == {"F1": 0, "F2": 0, "F3": 1}
