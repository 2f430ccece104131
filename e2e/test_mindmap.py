"""The subject's mind map (docs/mind-map.md), the creator's journey in French and the learner's in English
(their pages seen again in the other): a creator (perm_EditNotHaute and perm_ValidNotHaute in the demo) opens
a subject's mind map from its page, adds three nodes by keyboard (Tab a child, Shift+Enter a sibling, Enter
saves the dialog), renames one in place on the canvas (F2, Enter), moves one with the Move dialog and another
by dragging it on the canvas, validates one and sets the main node's status from the status menu; the
subject's card shows that status, and a referent who had read the subject before sees it unread again; then
the subject is standardized, a node renamed, and the standardized mind map lists and marks the difference, on
a subject of its own made through the API and deleted afterwards. axe checks every page, dialog and menu on
the way (conftest)."""

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from conftest import admin_client, audited_context, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "mindMapButton": "Carte mentale",
        "standardizedButton": "Carte mentale standardisée",
        "title": "Carte mentale : {}",
        "canvas": "Carte mentale de {}",
        "outlineView": "Plan",
        "canvasView": "Carte",
        "outline": "Plan de la carte mentale de {}",
        "addTitle": "Nouveau nœud sous {}",
        "editTitle": "Modifier {}",
        "name": "Nom",
        "move": "Déplacer",
        "moveTitle": "Déplacer {}",
        "newParent": "Nouveau nœud parent",
        "moved": "{} déplacé sous {}",
        "status": "Statut",
        "details": "Nœud sélectionné",
        "empty": "Vide",
        "inProgress": "En cours",
        "toValidate": "À valider",
        "validated": "Validé",
        "unread": "Non lu",
        "standardize": "Standardiser",
        "comment": "Commentaire",
        "confirm": "Confirmer",
        "standardized": "Standardisé",
        "standardizedHeading": "Carte mentale standardisée de {}",
        "differences": "1 différence avec la carte mentale actuelle",
        "formerName": "anciennement « {} »",
        "renamed": "Renommé",
        "livePane": "Carte mentale actuelle",
        "copyPane": "Copie standardisée",
        "subject": "Sujet carte mentale (e2e)",
        "nodes": ("Chute de la charge", "Zone de manœuvre", "Port des gants"),
        "renamedNode": "Zone de manœuvre balisée",
        "draftNode": "Zone",
        "nameOf": "Nom de {}",
        "standardComment": "Validé en revue de poste",
    },
    "en": {
        "mindMapButton": "Mind map",
        "standardizedButton": "Standardized mind map",
        "title": "Mind map: {}",
        "canvas": "Mind map of {}",
        "outlineView": "Outline",
        "canvasView": "Map",
        "outline": "Outline of the mind map of {}",
        "addTitle": "New node under {}",
        "editTitle": "Edit {}",
        "name": "Name",
        "move": "Move",
        "moveTitle": "Move {}",
        "newParent": "New parent node",
        "moved": "{} moved under {}",
        "status": "Status",
        "details": "Selected node",
        "empty": "Empty",
        "inProgress": "In progress",
        "toValidate": "To validate",
        "validated": "Validated",
        "unread": "Unread",
        "standardize": "Standardize",
        "comment": "Comment",
        "confirm": "Confirm",
        "standardized": "Standardized",
        "standardizedHeading": "Standardized mind map of {}",
        "differences": "1 difference with the current mind map",
        "formerName": "formerly “{}”",
        "renamed": "Renamed",
        "livePane": "Current mind map",
        "copyPane": "Standardized copy",
        "subject": "Mind map subject (e2e)",
        "nodes": ("Falling load", "Manoeuvring area", "Wearing gloves"),
        "renamedNode": "Marked manoeuvring area",
        "draftNode": "Area",
        "nameOf": "Name of {}",
        "standardComment": "Approved in the workstation review",
    },
}
EDITOR = "createur"
# Sees the machining workshop's subjects; reads the subject before the editor changes its mind map.
READER = "referent"
# The demo's machining workshop: the fork-lift driver's function, the raw-material reception activity.
CARTOGRAPHY, FUNCTION, ACTIVITY = "USI", "CAR", "USI-REC"


@pytest.fixture
def subject(base_url: str, language: str) -> Iterator[dict[str, Any]]:
    """A fresh subject of the machining workshop for this run (its mind map: the main node only),
    deleted afterwards."""
    name = f"{TEXTS[language]['subject']} {time.strftime('%H%M%S')}"
    with admin_client(base_url) as admin:
        cartography = next(c for c in admin.get("/cartography").json() if c["code"] == CARTOGRAPHY)
        found = admin.post("/subject/query", json={"filter": "", "sort": "code", "pageSize": 200}).json()
        model = next(
            s
            for s in found["results"]
            if s["cartographyId"] == cartography["id"]
            and any(e["type"] == "function" and e["code"] == FUNCTION for path in s["contexts"] for e in path)
            and any(e["type"] == "activity" and e["code"] == ACTIVITY for path in s["contexts"] for e in path)
        )
        created = admin.post(
            "/subject",
            json={
                "name": name,
                "type": "risk",
                "cartographyId": model["cartographyId"],
                "functionId": model["functionId"],
                "activityId": model["activityId"],
            },
        )
        assert created.status_code == 200, created.text
        subject_id = created.json()["id"]
        code = admin.get(f"/subject/{subject_id}").json()["code"]
    yield {"id": subject_id, "name": name, "code": code}
    with admin_client(base_url) as admin:
        admin.delete(f"/subject/{subject_id}")


def card(page: Page, base_url: str, subject: dict[str, Any]) -> Locator:
    """The subject's card in the subjects list, filtered on its code."""
    page.goto(f"{base_url}/spotv2/subjects/code%20equals%20{subject['code']}")
    found = page.get_by_role("article", name=subject["name"], exact=True)
    expect(found).to_be_visible()
    return found


def canvas_node(page: Page, name: str) -> Locator:
    return page.locator(".react-flow__node").filter(has=page.get_by_text(name, exact=True))


def row(tree: Locator, name: str) -> Locator:
    """The outline's row of the node named `name`: its name, its status and its marks."""
    return tree.locator(".MuiTreeItem-content").filter(has=tree.page.get_by_text(name, exact=True))


def parent_row(tree: Locator, name: str) -> Locator:
    """The outline's row of the parent of the node named `name`."""
    return row(tree, name).locator(
        "xpath=../ancestor::li[@role='treeitem'][1]/div[contains(@class, 'MuiTreeItem-content')]"
    )


def add_by_keyboard(page: Page, key: str, title: str, label: str, name: str) -> None:
    """A node added with `key` in the map's view: its dialog, the name typed, Enter to save."""
    page.keyboard.press(key)
    dialog = page.get_by_role("dialog", name=title, exact=True)
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("textbox", name=label, exact=True)).to_be_focused()
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    expect(dialog).to_have_count(0)


@in_language("fr")
def test_a_creator_edits_a_mind_map_and_compares_it_with_the_standardized_copy(
    page: Page, browser: Browser, base_url: str, language: str, subject: dict[str, Any]
) -> None:
    texts = TEXTS[language]
    name = subject["name"]
    first, second, third = texts["nodes"]

    with audited_context(browser, base_url, other_language=False) as reader_context:
        # The referent reads the subject first: its card is read.
        reader = reader_context.new_page()
        sign_in(reader, base_url, READER, language, to=f"/spotv2/subject/{subject['id']}")
        expect(reader.get_by_role("heading", level=1, name=name, exact=True)).to_be_visible()
        read_card = card(reader, base_url, subject)
        expect(read_card).to_have_attribute("data-unread", "false")
        expect(read_card.get_by_text(texts["unread"], exact=True)).to_have_count(0)

        # The creator opens the mind map from the subject's page.
        sign_in(page, base_url, EDITOR, language, to=f"/spotv2/subject/{subject['id']}")
        page.get_by_role("link", name=texts["mindMapButton"], exact=True).click()
        expect(page).to_have_url(re.compile(rf"/spotv2/subject/{subject['id']}/mindmap$"))
        expect(
            page.get_by_role("heading", level=1, name=texts["title"].format(name), exact=True)
        ).to_be_visible()

        # Three nodes by keyboard, the first two on the canvas: the main node selected, Tab adds a child,
        # then Shift+Enter a sibling of the node just added.
        canvas = page.get_by_role("application", name=texts["canvas"].format(name))
        expect(canvas).to_be_visible()
        canvas_node(page, name).click()
        expect(canvas).to_be_focused()
        add_by_keyboard(page, "Tab", texts["addTitle"].format(name), texts["name"], first)
        expect(canvas_node(page, first)).to_be_visible()
        # The second is added under a draft name, then renamed in place on the canvas: F2 turns its
        # name into a field with the name selected, typing replaces it, Enter saves.
        draft = texts["draftNode"]
        add_by_keyboard(page, "Shift+Enter", texts["addTitle"].format(name), texts["name"], draft)
        expect(canvas_node(page, draft)).to_be_visible()
        page.keyboard.press("F2")
        in_place = page.locator(".react-flow__node").get_by_role(
            "textbox", name=texts["nameOf"].format(draft), exact=True
        )
        expect(in_place).to_be_focused()
        expect(in_place).to_have_value(draft)
        page.keyboard.type(second)
        page.keyboard.press("Enter")
        expect(in_place).to_have_count(0)
        expect(canvas_node(page, second)).to_be_visible()
        expect(canvas).to_be_focused()
        details = page.get_by_role("region", name=texts["details"], exact=True)
        expect(details.get_by_role("heading", name=second, exact=True)).to_be_visible()
        expect(details.get_by_text(texts["inProgress"], exact=True)).to_be_visible()

        # The outline is the same tree, the accessible one; the keys work there too, and the node
        # added stays selected when its dialog gives the focus back.
        page.get_by_role("button", name=texts["outlineView"], exact=True).click()
        tree = page.get_by_role("tree", name=texts["outline"].format(name), exact=True)
        expect(row(tree, draft)).to_have_count(0)
        row(tree, second).click()
        expect(row(tree, second).locator("xpath=..")).to_be_focused()
        add_by_keyboard(page, "Shift+Enter", texts["addTitle"].format(name), texts["name"], third)
        expect(details.get_by_role("heading", name=third, exact=True)).to_be_visible()
        expect(row(tree, third).locator("xpath=..")).to_be_focused()
        expect(row(tree, name)).to_contain_text(texts["empty"])
        for node in (first, second, third):
            expect(row(tree, node)).to_contain_text(texts["inProgress"])
            expect(parent_row(tree, node)).to_contain_text(name)
        rows = tree.locator(".MuiTreeItem-content")
        expect(rows).to_have_count(4)
        expect(rows.nth(1)).to_contain_text(first)
        expect(rows.nth(2)).to_contain_text(second)
        expect(rows.nth(3)).to_contain_text(third)

        # The third goes under the first with the Move dialog.
        page.get_by_role("button", name=texts["move"], exact=True).click()
        dialog = page.get_by_role("dialog", name=texts["moveTitle"].format(third), exact=True)
        dialog.get_by_role("combobox", name=texts["newParent"]).click()
        page.get_by_role("option", name=first, exact=True).click()
        dialog.get_by_role("button", name=texts["move"], exact=True).click()
        expect(dialog).to_have_count(0)
        expect(page.get_by_text(texts["moved"].format(third, first), exact=True)).to_be_visible()
        expect(parent_row(tree, third)).to_contain_text(first)
        expect(parent_row(tree, second)).to_contain_text(name)

        # The first is validated from the status menu.
        row(tree, first).click()
        expect(details.get_by_role("heading", name=first, exact=True)).to_be_visible()
        page.get_by_role("button", name=texts["status"], exact=True).click()
        page.get_by_role("menuitem", name=texts["validated"], exact=True).click()
        expect(details.get_by_text(texts["validated"], exact=True)).to_be_visible()
        expect(row(tree, first)).to_contain_text(texts["validated"])

        # The main node's status goes to "to validate".
        row(tree, name).click()
        expect(details.get_by_role("heading", name=name, exact=True)).to_be_visible()
        page.get_by_role("button", name=texts["status"], exact=True).click()
        page.get_by_role("menuitem", name=texts["toValidate"], exact=True).click()
        expect(details.get_by_text(texts["toValidate"], exact=True)).to_be_visible()

        # The second goes under the first by dragging it on the canvas.
        page.get_by_role("button", name=texts["canvasView"], exact=True).click()
        dragged, target = canvas_node(page, second), canvas_node(page, first)
        start, end = dragged.bounding_box(), target.bounding_box()
        assert start is not None and end is not None
        page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
        page.mouse.down()
        page.mouse.move(end["x"] + end["width"] / 2, end["y"] + end["height"] / 2, steps=12)
        page.mouse.up()
        expect(page.get_by_text(texts["moved"].format(second, first), exact=True)).to_be_visible()
        page.get_by_role("button", name=texts["outlineView"], exact=True).click()
        expect(parent_row(tree, second)).to_contain_text(first)
        expect(parent_row(tree, third)).to_contain_text(first)
        expect(row(tree, name)).to_contain_text(texts["toValidate"])

        # The card shows the main node's status; the referent now sees the subject unread.
        editor_card = card(page, base_url, subject)
        expect(editor_card.get_by_text(texts["toValidate"], exact=True)).to_be_visible()
        expect(editor_card).to_have_attribute("data-unread", "false")
        unread_card = card(reader, base_url, subject)
        expect(unread_card).to_have_attribute("data-unread", "true")
        expect(unread_card.get_by_text(texts["unread"], exact=True)).to_be_visible()
        expect(unread_card.get_by_text(texts["toValidate"], exact=True)).to_be_visible()

    # Standardized from the subject's page, then a node renamed.
    page.goto(f"{base_url}/spotv2/subject/{subject['id']}")
    expect(page.get_by_role("link", name=texts["standardizedButton"], exact=True)).to_have_count(0)
    page.get_by_role("button", name=texts["standardize"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["standardize"], exact=True)
    dialog.get_by_role("textbox", name=texts["comment"], exact=True).fill(texts["standardComment"])
    dialog.get_by_role("button", name=texts["confirm"], exact=True).click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_label(texts["standardized"], exact=True).first).to_be_visible()

    page.get_by_role("link", name=texts["mindMapButton"], exact=True).click()
    canvas = page.get_by_role("application", name=texts["canvas"].format(name))
    canvas_node(page, second).click()
    canvas.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name=texts["editTitle"].format(second), exact=True)
    field = dialog.get_by_role("textbox", name=texts["name"], exact=True)
    expect(field).to_have_value(second)
    field.fill(texts["renamedNode"])
    field.press("Enter")
    expect(dialog).to_have_count(0)
    expect(canvas_node(page, texts["renamedNode"])).to_be_visible()

    # The standardized mind map: the copy beside the live tree, the renaming listed and marked.
    page.goto(f"{base_url}/spotv2/subject/{subject['id']}")
    page.get_by_role("link", name=texts["standardizedButton"], exact=True).click()
    expect(page).to_have_url(re.compile(rf"/spotv2/subject/{subject['id']}/mindmap/standardized$"))
    expect(
        page.get_by_role(
            "heading",
            level=1,
            name=texts["standardizedHeading"].format(name),
            exact=True,
        )
    ).to_be_visible()
    expect(page.get_by_text(texts["standardComment"], exact=True)).to_be_visible()
    differences = page.get_by_role("region", name=texts["differences"], exact=True)
    listed = differences.get_by_role("listitem")
    expect(listed).to_have_count(1)
    expect(listed.get_by_role("link", name=texts["renamedNode"], exact=True)).to_be_visible()
    expect(listed.get_by_text(texts["formerName"].format(second), exact=True)).to_be_visible()
    expect(listed.get_by_text(texts["renamed"], exact=True)).to_be_visible()
    copy = page.get_by_role("tree", name=texts["copyPane"], exact=True)
    live = page.get_by_role("tree", name=texts["livePane"], exact=True)
    expect(row(copy, second)).to_contain_text(texts["renamed"])
    expect(row(live, texts["renamedNode"])).to_contain_text(texts["renamed"])
    expect(row(live, first)).not_to_contain_text(texts["renamed"])
    expect(row(live, third)).not_to_contain_text(texts["renamed"])


READ_ONLY = {
    "fr": {
        "toolbar": "Actions de la carte mentale",
        "addChild": "Ajouter un enfant",
        "diagram": "Logigramme",
        "diagramHeading": "Logigramme de {}",
        "zoomIn": "Zoomer",
        "download": "Télécharger {}",
    },
    "en": {
        "toolbar": "Mind map actions",
        "addChild": "Add a child",
        "diagram": "Diagram",
        "diagramHeading": "Diagram of {}",
        "zoomIn": "Zoom in",
        "download": "Download {}",
    },
}
# The demo's subject with a diagram (demo.mindmap_extras), in the machining workshop a learner sees.
LEARNER = "apprenant"
DIAGRAM_SUBJECT = "Contrôle des bons de livraison à réception"
DIAGRAM_FILE = "implantation-reception.png"


@in_language("en")
def test_a_learner_reads_a_mind_map_and_opens_the_diagram_from_the_subjects_card(
    page: Page, base_url: str, language: str
) -> None:
    texts, read_only = TEXTS[language], READ_ONLY[language]
    sign_in(page, base_url, LEARNER, language, to="/spotv2/subjects/code%20equals%20USI-001")
    subject_card = page.get_by_role("article", name=DIAGRAM_SUBJECT, exact=True)

    # The mind map, read only: the tree in both views, no editing action.
    subject_card.get_by_role("link", name=texts["mindMapButton"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/subject/\d+/mindmap$"))
    subject_url = page.url.removesuffix("/mindmap")
    canvas = page.get_by_role("application", name=texts["canvas"].format(DIAGRAM_SUBJECT))
    expect(canvas).to_be_visible()
    expect(canvas_node(page, DIAGRAM_SUBJECT)).to_be_visible()
    toolbar = page.get_by_role("toolbar", name=read_only["toolbar"], exact=True)
    expect(toolbar.get_by_role("button", name=read_only["addChild"], exact=True)).to_have_count(0)
    canvas_node(page, DIAGRAM_SUBJECT).click()
    page.keyboard.press("Tab")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.get_by_role("button", name=texts["outlineView"], exact=True).click()
    tree = page.get_by_role("tree", name=texts["outline"].format(DIAGRAM_SUBJECT), exact=True)
    expect(row(tree, DIAGRAM_SUBJECT)).to_be_visible()
    assert tree.locator(".MuiTreeItem-content").count() > 1

    # The diagram, from the card's button: the demo's image, with its zoom and its download.
    page.goto(f"{base_url}/spotv2/subjects/code%20equals%20USI-001")
    subject_card.get_by_role("link", name=read_only["diagram"], exact=True).click()
    expect(page).to_have_url(f"{subject_url}/diagram")
    expect(
        page.get_by_role(
            "heading",
            level=1,
            name=read_only["diagramHeading"].format(DIAGRAM_SUBJECT),
            exact=True,
        )
    ).to_be_visible()
    image = page.get_by_role("img", name=DIAGRAM_FILE, exact=True)
    expect(image).to_be_visible()
    assert image.evaluate("img => img.complete && img.naturalWidth") == 640
    expect(page.get_by_role("button", name=read_only["zoomIn"], exact=True)).to_be_visible()
    expect(
        page.get_by_role("link", name=read_only["download"].format(DIAGRAM_FILE), exact=True)
    ).to_be_visible()
