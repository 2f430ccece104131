"""The skills matrix of a cartography (docs/qualifications.md, "The skills matrix"): its cells, rows and
foot by the coverage rule, its filters and sorts, visibility, and its Excel and PDF files."""

import io
from datetime import date

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from qualifications.world import graded, group, in_progress, module, on, qualification
from spot.dashboards.matrix_schemas import SkillsMatrix
from spot.mapping.models import CartographyVisibility
from spot.qualifications.models import QualificationFunction
from spot.users.models import User
from support import API


def matrix_url(cartography: int, query: str = "", file: str = "") -> str:
    """The matrix's address (`file`: "/excel" or "/pdf") with its query."""
    return f"{API}/dashboards/cartography/{cartography}/matrix{file}{query}"


def get(client, headers, url):
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def grid(answer) -> dict[str, list[tuple[str, str | None]]]:
    """Each row's name: its cells as (state, last valid day)."""
    return {r["name"]: [(c["state"], c["validUntil"]) for c in r["cells"]] for r in answer["rows"]}


@pytest.fixture
def plant(client, db, test_map, make_user, manager, today):
    """C1 (functions F1, F2, F3) and C2; people in two teams; three qualifications:

    - 'Réglage' names C1, team A, module 'Régler' (a spot element on subject S1 of F1);
    - 'Contrôle' names C1, teams A and B, modules 'Mesurer' (on function F2) and 'Régler';
    - 'Montage' names C2 only, team B, module 'Monter' (on function G1 of C2).
    """
    p = {
        n: make_user(n, first_name=n.title(), last_name="Test")
        for n in ("alice", "bruno", "chloe", "david", "emma")
    }
    team_a = group(db, "Équipe A", [p["alice"].id, p["bruno"].id, p["chloe"].id])
    team_b = group(db, "Équipe B", [p["david"].id, p["emma"].id, p["alice"].id])
    regler = module(db, "Régler", subjects=[test_map.subject("S1")])
    mesurer = module(db, "Mesurer", functions=[test_map.function("F2")])
    monter = module(db, "Monter", functions=[test_map.function("G1")])
    c1, c2 = test_map.cartography("C1"), test_map.cartography("C2")
    q = {
        "réglage": qualification(
            client, manager, "Réglage", groups=[team_a], modules=[regler], cartographies=[c1]
        ),
        "contrôle": qualification(
            client,
            manager,
            "Contrôle",
            groups=[team_a, team_b],
            modules=[mesurer, regler],
            cartographies=[c1],
        ),
        "montage": qualification(
            client, manager, "Montage", groups=[team_b], modules=[monter], cartographies=[c2]
        ),
    }
    ids = {name: user.id for name, user in p.items()}
    # Régler: alice 200 days, bruno 10, chloe expired, david permanent, emma never (in progress).
    graded(db, ids["alice"], regler, days=200)
    graded(db, ids["bruno"], regler, days=10)
    graded(db, ids["chloe"], regler, days=-5)
    graded(db, ids["david"], regler, days=None)
    # Mesurer: alice 50, david 0 (its last day), emma 90.
    graded(db, ids["alice"], mesurer, days=50)
    graded(db, ids["david"], mesurer, days=0)
    graded(db, ids["emma"], mesurer, days=90)
    in_progress(db, ids["emma"], regler)
    return {
        "people": ids,
        "teams": {"a": team_a, "b": team_b},
        "q": q,
        "c1": c1,
        "c2": c2,
        "map": test_map,
    }


# The cells of C1 by the rule: F1 is covered by Réglage and Contrôle (Régler on S1), F2 by Contrôle
# (Mesurer on F2), F3 by nothing. Contrôle's hold is the earliest of Mesurer and Régler.
CELLS = {
    "Alice Test": [("valid", on(200)), ("valid", on(50)), ("never", None)],
    "Bruno Test": [("expiring", on(10)), ("never", None), ("never", None)],
    "Chloe Test": [("expired", on(-5)), ("never", None), ("never", None)],
    "David Test": [("expiring", on(0)), ("expiring", on(0)), ("never", None)],
    "Emma Test": [("inProgress", None), ("inProgress", None), ("never", None)],
}


def test_the_cells_rows_and_foot(client, manager, plant):
    answer = get(client, manager, matrix_url(plant["c1"]))
    SkillsMatrix.model_validate(answer)
    m = plant["map"]
    assert answer["cartography"] == {"id": plant["c1"], "name": "Atelier de test", "siteName": "Site de test"}
    assert [(c["id"], c["name"]) for c in answer["columns"]] == [
        (m.function("F1"), "Opérateur régleur"),
        (m.function("F2"), "Contrôleur"),
        (m.function("F3"), "Magasinier"),
    ]
    assert grid(answer) == CELLS
    assert [(r["name"], r["held"]) for r in answer["rows"]] == [
        ("Alice Test", 2),
        ("Bruno Test", 1),
        ("Chloe Test", 0),
        ("David Test", 2),
        ("Emma Test", 0),
    ]
    f1, f2, f3 = answer["columns"]
    assert (f1["qualified"], f1["minimum"], f1["level"], f1["underMinimum"]) == (3, 3, "covered", False)
    assert (f2["qualified"], f2["level"], f2["underMinimum"]) == (2, "covered", True)
    assert (f3["qualified"], f3["level"], f3["underMinimum"]) == (0, "none", True)
    assert f1["counts"] == {"valid": 1, "expiring": 2, "inProgress": 1, "expired": 1, "never": 0}
    # Tomorrow's coverage: F1 rests on alice alone after bruno's 10 days and david's last day, today.
    assert [p["valid"] for p in f1["forecast"]["points"]] == [3, 1, 1, 1]
    assert [p["valid"] for p in f2["forecast"]["points"]] == [2, 1, 0, 0]
    assert (f1["forecast"]["outlook"], f1["forecast"]["fallsOn"]) == ("falling", on(1))
    assert answer["totalPeople"] == 5
    assert answer["groups"] == [
        {"id": plant["teams"]["a"], "name": "Équipe A"},
        {"id": plant["teams"]["b"], "name": "Équipe B"},
    ]
    assert answer["can"] == {"editMinimum": True}


def test_the_foot_counts_what_the_dashboard_counts(client, manager, plant):
    board = get(client, manager, f"{API}/dashboards/qualifications/cartography/{plant['c1']}")
    answer = get(client, manager, matrix_url(plant["c1"]))
    assert {c["id"]: (c["qualified"], c["level"], c["underMinimum"]) for c in answer["columns"]} == {
        f["function"]["id"]: (len(f["qualified"]), f["level"], f["underMinimum"]) for f in board["coverage"]
    }


def test_functions_a_qualification_names(client, db, manager, plant):
    """Réglage names F3: it covers F3 alone, its module's spot element on F1 no longer counts; Contrôle
    names nothing and still covers F1 and F2 by its modules."""
    m = plant["map"]
    db.add(QualificationFunction(qualification_id=plant["q"]["réglage"], function_id=m.function("F3")))
    db.commit()
    answer = get(client, manager, matrix_url(plant["c1"]))
    assert grid(answer) == {
        "Alice Test": [("valid", on(50)), ("valid", on(50)), ("valid", on(200))],
        "Bruno Test": [("never", None), ("never", None), ("expiring", on(10))],
        "Chloe Test": [("never", None), ("never", None), ("expired", on(-5))],
        "David Test": [("expiring", on(0)), ("expiring", on(0)), ("never", None)],
        "Emma Test": [("inProgress", None), ("inProgress", None), ("never", None)],
    }
    assert [c["qualified"] for c in answer["columns"]] == [2, 2, 2]
    coverage = get(client, manager, f"{API}/dashboards/qualifications/cartography/{plant['c1']}")["coverage"]
    assert {f["function"]["name"]: [p["user"]["name"] for p in f["qualified"]] for f in coverage} == {
        "Opérateur régleur": ["Alice Test", "David Test"],
        "Contrôleur": ["Alice Test", "David Test"],
        "Magasinier": ["Alice Test", "Bruno Test"],
    }


def test_a_named_function_outside_the_qualifications_cartographies_opens_nothing(client, db, manager, plant):
    """Réglage names G1 of C2, a cartography it does not name: G1 gains nobody, and Réglage, naming no
    function of its own cartography, still covers F1 by its module."""
    db.add(
        QualificationFunction(qualification_id=plant["q"]["réglage"], function_id=plant["map"].function("G1"))
    )
    db.commit()
    assert grid(get(client, manager, matrix_url(plant["c1"]))) == CELLS
    c2 = get(client, manager, matrix_url(plant["c2"]))
    assert [(c["name"], c["qualified"]) for c in c2["columns"]] == [("Monteur", 0)]
    assert "Bruno Test" not in grid(c2)


def test_filters_and_sorts(client, manager, plant):
    p, m = plant["people"], plant["map"]
    by_team = get(client, manager, matrix_url(plant["c1"], f"?group={plant['teams']['b']}"))
    assert [r["name"] for r in by_team["rows"]] == ["Alice Test", "David Test", "Emma Test"]
    assert by_team["totalPeople"] == 5
    # The foot's qualified count is the function's, whatever the rows shown; its counts are the rows'.
    assert by_team["columns"][0]["qualified"] == 3
    assert by_team["columns"][0]["counts"] == {
        "valid": 1,
        "expiring": 1,
        "inProgress": 1,
        "expired": 0,
        "never": 0,
    }

    f2 = get(client, manager, matrix_url(plant["c1"], f"?function={m.function('F2')}"))
    assert [c["name"] for c in f2["columns"]] == ["Contrôleur"]
    assert [(r["name"], r["held"]) for r in f2["rows"]][:2] == [("Alice Test", 1), ("Bruno Test", 0)]
    assert [f["name"] for f in f2["functions"]] == ["Opérateur régleur", "Contrôleur", "Magasinier"]

    assert [r["id"] for r in get(client, manager, matrix_url(plant["c1"], "?state=inProgress"))["rows"]] == [
        p["emma"]
    ]
    both = get(client, manager, matrix_url(plant["c1"], "?state=expired&state=inProgress"))["rows"]
    assert [r["name"] for r in both] == ["Chloe Test", "Emma Test"]
    # The state filter looks at the columns shown: nobody is expired on F2.
    assert (
        get(client, manager, matrix_url(plant["c1"], f"?state=expired&function={m.function('F2')}"))["rows"]
        == []
    )

    held = get(client, manager, matrix_url(plant["c1"], "?sort=held"))["rows"]
    assert [(r["name"], r["held"]) for r in held] == [
        ("Alice Test", 2),
        ("David Test", 2),
        ("Bruno Test", 1),
        ("Chloe Test", 0),
        ("Emma Test", 0),
    ]


@pytest.mark.parametrize(
    "query", ["?state=good", "?sort=days", "?group=abc", "?function=-1", "?function=1.5"]
)
def test_bad_filters_are_refused(client, manager, plant, query):
    response = client.get(matrix_url(plant["c1"], query), headers=manager)
    assert response.status_code == 422, response.text


def test_a_deactivated_person_leaves_the_matrix(client, db, manager, plant):
    db.get(User, plant["people"]["david"]).active = False
    db.commit()
    answer = get(client, manager, matrix_url(plant["c1"]))
    assert "David Test" not in grid(answer)
    assert [c["qualified"] for c in answer["columns"]] == [2, 1, 0]


def test_who_may_see_it(client, db, make_user, login, plant):
    c1 = plant["c1"]
    for permissions in ([], ["perm_QualificationAdmin"], ["perm_VisuTrack"]):
        headers = login(make_user(permissions=permissions))
        for suffix in ("", "/excel", "/pdf"):
            assert client.get(matrix_url(c1) + suffix, headers=headers).status_code == 403
    board = login(make_user(permissions=["perm_TableauBord"]))
    answer = get(client, board, matrix_url(c1))
    assert answer["can"] == {"editMinimum": False}
    assert client.get(matrix_url(999_999), headers=board).status_code == 404


def test_a_hidden_cartography_and_hidden_functions(client, db, make_user, login, plant):
    """A manager whose group sees C1's F2 alone: one column, F2; C2 hidden (403), in every form."""
    user = make_user(permissions=["perm_TableauBord"])
    db.add(
        CartographyVisibility(
            group_id=user.groups[0].id, item_type="function", item_id=plant["map"].function("F2")
        )
    )
    db.commit()
    headers = login(user)
    answer = get(client, headers, matrix_url(plant["c1"]))
    assert [c["name"] for c in answer["columns"]] == ["Contrôleur"]
    assert [f["name"] for f in answer["functions"]] == ["Contrôleur"]
    # Asking for a hidden function's column shows nothing of it.
    hidden = get(client, headers, matrix_url(plant["c1"], f"?function={plant['map'].function('F1')}"))
    assert hidden["columns"] == [] and all(r["cells"] == [] for r in hidden["rows"])
    book = load_workbook(io.BytesIO(client.get(matrix_url(plant["c1"]) + "/excel", headers=headers).content))
    assert [c.value for c in book.worksheets[0][1]] == ["Personne", "Contrôleur", "Fonctions tenues"]
    text = pdf_text(client.get(matrix_url(plant["c1"]) + "/pdf", headers=headers).content)
    assert "Contrôleur" in text and "Opérateur régleur" not in text and "Magasinier" not in text
    for suffix in ("", "/excel", "/pdf"):
        assert client.get(matrix_url(plant["c2"]) + suffix, headers=headers).status_code == 403


def pdf_text(content: bytes) -> str:
    """The PDF's words, one space between each (a header's name may wrap)."""
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages)


# Files ---------------------------------------------------------------------------------------------


FILLS = {
    "C6EFCE": "valid",
    "FFEB9C": "expiring",
    "DDEBF7": "inProgress",
    "FFC7CE": "expired",
    "F2F2F2": "never",
}


def sheet_cells(sheet, rows: int, columns: int) -> dict[str, list[tuple[str, object]]]:
    """Each person's cells as (state by fill colour, value)."""
    found = {}
    for row in sheet.iter_rows(min_row=2, max_row=rows + 1, max_col=columns + 1):
        found[row[0].value] = [(FILLS[c.fill.fgColor.rgb[-6:]], c.value) for c in row[1:]]
    return found


def test_the_excel_file(client, manager, plant):
    response = client.get(matrix_url(plant["c1"]) + "/excel", headers=manager)
    assert response.status_code == 200
    assert (
        response.headers["content-type"]
        == "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
    )
    assert response.headers["content-disposition"] == 'attachment; filename="skills-matrix.xlsx"'
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Matrice", "Légende"]
    sheet = book["Matrice"]
    assert sheet.freeze_panes == "B2"
    assert [c.value for c in sheet[1]] == [
        "Personne",
        "Opérateur régleur",
        "Contrôleur",
        "Magasinier",
        "Fonctions tenues",
    ]
    cells = sheet_cells(sheet, 5, 3)
    expected = {
        name: [(state, None if day is None else date.fromisoformat(day)) for state, day in row]
        for name, row in CELLS.items()
    }
    expected["Emma Test"] = [("inProgress", "En cours"), ("inProgress", "En cours"), ("never", None)]
    assert {
        n: [(s, v.date() if hasattr(v, "date") else v) for s, v in row] for n, row in cells.items()
    } == expected
    assert [sheet.cell(row=r, column=5).value for r in range(2, 7)] == [2, 1, 0, 2, 0]
    foot = {
        sheet.cell(row=r, column=1).value: [sheet.cell(row=r, column=c).value for c in range(2, 5)]
        for r in range(7, 13)
    }
    assert foot == {
        "Personnes qualifiées": [3, 2, 0],
        "Minimum": [3, 3, 3],
        "Sous le minimum": ["non", "oui", "oui"],
        "Qualifiées dans 30 jours": [1, 1, 0],
        "Qualifiées dans 60 jours": [1, 0, 0],
        "Qualifiées dans 90 jours": [1, 0, 0],
    }
    legend = [[c.value for c in row] for row in book["Légende"].iter_rows()]
    assert legend[0][0] == "Matrice de compétences"
    assert ["Cartographie", "Atelier de test"] in legend
    assert ["Groupes", "tous"] in legend
    assert ["Expire sous 30 jours", "Qualifié, dernier jour valide dans 30 jours au plus"] in legend


def test_the_excel_file_in_english_with_filters(client, manager, plant):
    headers = {**manager, "Accept-Language": "en"}
    response = client.get(
        matrix_url(plant["c1"], f"?group={plant['teams']['b']}&sort=held", "/excel"), headers=headers
    )
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames == ["Matrix", "Legend"]
    sheet = book["Matrix"]
    assert [sheet.cell(row=r, column=1).value for r in range(1, 5)] == [
        "Person",
        "Alice Test",
        "David Test",
        "Emma Test",
    ]
    assert sheet.cell(row=4, column=2).value == "In progress"
    legend = [[c.value for c in row] for row in book["Legend"].iter_rows()]
    assert ["Groups", "Équipe B"] in legend
    assert ["People", "3 of 5"] in legend


def test_the_pdf_file(client, manager, plant):
    for language, words in (
        ("fr", ("Matrice de compétences", "Personnes qualifiées", "Expirée")),
        ("en", ("Skills matrix", "People qualified", "Expired")),
    ):
        response = client.get(
            matrix_url(plant["c1"]) + "/pdf", headers={**manager, "Accept-Language": language}
        )
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/pdf"
        assert response.headers["content-disposition"] == 'attachment; filename="skills-matrix.pdf"'
        reader = PdfReader(io.BytesIO(response.content))
        width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
        assert (round(width), round(height)) == (842, 595)
        text = pdf_text(response.content)
        for word in words + ("Alice Test", "Emma Test", "Atelier de test", "Opérateur régleur"):
            assert word in text, (language, word)
