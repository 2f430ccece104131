"""The map's journeys: a cartography zoomed, panned and clicked; a function reached; a subject added,
followed, rated, resolved, standardized, duplicated and deleted; a hidden cartography refused."""

import re
import time

import httpx
import pytest
from playwright.sync_api import FloatRect, Locator, Page, expect

from conftest import DEMO_PASSWORD, WAIT_MS
from conftest import sign_in as sign_in_as

API = "/backend/api/v2"


def sign_in(page: Page, base_url: str, login: str, to: str = "/spotv2/sites") -> None:
    """Signed in in French; the journeys start from the sites, the map's first page, unless told."""
    sign_in_as(page, base_url, login, to=to)


@pytest.fixture(scope="module")
def cartography_ids(base_url: str) -> dict[str, int]:
    """The demo's cartographies by code, as the administrator sees them."""
    token = httpx.post(
        f"{base_url}{API}/account/login",
        json={"username": "admin", "password": DEMO_PASSWORD, "returnUrl": ""},
    ).json()["token"]
    cartographies = httpx.get(f"{base_url}{API}/cartography", headers={"x-access-token": token}).json()
    return {c["code"]: c["id"] for c in cartographies}


def zoom_level(page: Page) -> int:
    return int(re.sub(r"\D", "", page.get_by_text(re.compile(r"^\d+\s?%$")).inner_text()))


def test_a_cartography_zooms_pans_and_leads_to_subjects_and_functions(page: Page, base_url: str) -> None:
    sign_in(page, base_url, "createur")
    page.get_by_role("link", name=re.compile("Atelier d'usinage")).click()
    expect(page.get_by_role("heading", name="Atelier d'usinage", exact=True)).to_be_visible()
    # The way there reads like the other pages': names, with chevrons between them.
    crumbs = page.get_by_role("navigation", name="Emplacement de la cartographie", exact=True)
    expect(crumbs.get_by_text("Atelier d'usinage", exact=True)).to_be_visible()
    expect(crumbs.get_by_text("USI", exact=True)).to_have_count(0)
    expect(crumbs).not_to_contain_text("/")
    expect(crumbs.locator(".MuiBreadcrumbs-separator svg")).to_have_count(1)
    expect(page.get_by_text("30 %")).to_be_visible()
    expect(page.get_by_role("region", name="Activités", exact=True).get_by_text("Tournage")).to_be_visible()
    expect(page.get_by_test_id("pictogram").first).to_be_visible()

    page.get_by_role("button", name="Zoomer", exact=True).click()
    expect(page.get_by_text("80 %")).to_be_visible()
    page.get_by_role("button", name="Recentrer le plan", exact=True).click()
    expect(page.get_by_text("30 %")).to_be_visible()
    plan = page.get_by_role("group", name="Plan de Atelier d'usinage", exact=True)
    box = plan.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    expect(page.get_by_text("30 %")).not_to_be_visible()
    assert zoom_level(page) > 30
    # Recentred at once, while the wheel's zoom still has to glide the plan into its frame.
    page.get_by_role("button", name="Recentrer le plan", exact=True).click()
    expect(page.get_by_text("30 %")).to_be_visible()

    zone = page.get_by_role("link", name="Réception matière : voir les sujets", exact=True)
    zone_box = zone.bounding_box()
    assert zone_box is not None
    centre_x, centre_y = zone_box["x"] + zone_box["width"] / 2, zone_box["y"] + zone_box["height"] / 2
    # A press that moves 40 px pans the map: it is no click on the zone.
    page.mouse.move(centre_x, centre_y)
    page.mouse.down()
    page.mouse.move(centre_x + 20, centre_y, steps=4)
    page.mouse.move(centre_x + 40, centre_y, steps=4)
    page.mouse.up()
    expect(page).to_have_url(re.compile(r"/spotv2/cartography/\d+$"))
    page.get_by_role("button", name="Recentrer le plan", exact=True).click()

    page.get_by_role("link", name="Réception matière : voir les sujets", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/subjects/location%20oneOf%20\d+$"))
    expect(page.get_by_text("4 sujets")).to_be_visible()
    expect(
        page.get_by_text(re.compile(r"Emplacement .*Réception matière \(Atelier d'usinage\)"))
    ).to_be_visible()
    expect(page.get_by_role("article", name="Déchargement des barres d'acier", exact=True)).to_be_visible()

    page.go_back()
    page.get_by_role("region", name="Fonctions", exact=True).get_by_role(
        "link", name="Opérateur régleur", exact=True
    ).click()
    expect(page).to_have_url(re.compile(r"/spotv2/function/\d+$"))
    expect(page.get_by_role("heading", name="Opérateur régleur", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Réglage du tour à commande numérique", exact=True)).to_be_visible()


def settled_box(locator: Locator) -> FloatRect:
    """The element's box once it has stopped moving (the plan glides into place after a wheel, a
    recentring or a throw): the same box twice, a tenth of a second apart, within the journeys' wait."""
    previous = locator.bounding_box()
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        locator.page.wait_for_timeout(100)
        box = locator.bounding_box()
        if box == previous and box is not None:
            return box
        previous = box
    raise AssertionError(f"{locator} is still moving")


def test_the_plan_zooms_a_step_per_wheel_notch_and_follows_the_pointer_within_its_frame(
    page: Page, base_url: str
) -> None:
    sign_in(page, base_url, "createur")
    page.get_by_role("link", name=re.compile("Atelier d'usinage")).click()
    expect(page.get_by_text("30 %")).to_be_visible()
    plan = page.get_by_role("group", name="Plan de Atelier d'usinage", exact=True)
    frame = settled_box(page.locator(".react-transform-wrapper"))
    page.mouse.move(frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2)
    page.mouse.wheel(0, -100)
    expect(page.get_by_text("30 %")).not_to_be_visible()
    settled_box(plan)
    assert 30 < zoom_level(page) <= 60

    page.get_by_role("button", name="Recentrer le plan", exact=True).click()
    expect(page.get_by_text("30 %")).to_be_visible()
    before = settled_box(plan)
    # The plan moves with the pointer as far as its frame lets it, and no further once let go.
    room_x = abs(frame["width"] - before["width"]) / 2
    room_y = abs(frame["height"] - before["height"]) / 2
    start_x, start_y = before["x"] + before["width"] / 2, before["y"] + before["height"] / 2
    page.mouse.move(start_x, start_y)
    page.mouse.down()
    page.mouse.move(start_x + 150, start_y + 80, steps=10)
    page.mouse.up()
    after = settled_box(plan)
    assert abs(after["x"] - before["x"] - min(150, room_x)) <= 2, (before, after, frame)
    assert abs(after["y"] - before["y"] - min(80, room_y)) <= 2, (before, after, frame)

    # A fast, long throw leaves the plan in its frame.
    page.mouse.move(start_x, start_y)
    page.mouse.down()
    page.mouse.move(start_x - 1500, start_y - 1200, steps=3)
    page.mouse.up()
    thrown = settled_box(plan)
    inside = (
        thrown["x"] >= frame["x"] - 1
        and thrown["y"] >= frame["y"] - 1
        and thrown["x"] + thrown["width"] <= frame["x"] + frame["width"] + 1
        and thrown["y"] + thrown["height"] <= frame["y"] + frame["height"] + 1
    )
    covers = (
        thrown["x"] <= frame["x"] + 1
        and thrown["y"] <= frame["y"] + 1
        and thrown["x"] + thrown["width"] >= frame["x"] + frame["width"] - 1
        and thrown["y"] + thrown["height"] >= frame["y"] + frame["height"] - 1
    )
    assert inside or covers, (thrown, frame)


def overlapping(container: Locator, control: Locator) -> list[str]:
    """The texts in the container whose box meets the control's."""
    return control.evaluate(
        """(control, container) => {
            const c = control.getBoundingClientRect()
            return [...container.querySelectorAll('*')]
                .filter((el) => el.children.length === 0 && el.textContent.trim())
                .filter((el) => !control.contains(el) && !el.contains(control))
                .filter((el) => {
                    const r = el.getBoundingClientRect()
                    return r.left < c.right && c.left < r.right && r.top < c.bottom && c.top < r.bottom
                })
                .map((el) => el.textContent)
        }""",
        container.element_handle(),
    )


def test_a_subject_is_added_marked_duplicated_and_deleted(page: Page, base_url: str) -> None:
    sign_in(page, base_url, "createur")
    page.get_by_role("link", name="Fonctions", exact=True).click()
    page.get_by_role("article", name="Opérateur régleur", exact=True).filter(
        has_text="Atelier d'usinage"
    ).get_by_role("link", name="Opérateur régleur", exact=True).click()
    page.get_by_role("link", name="Ajouter un sujet dans Usinage", exact=True).click()

    expect(page.get_by_role("heading", name="Nouveau sujet", exact=True)).to_be_visible()
    expect(page.get_by_role("combobox", name="Fonction", exact=True)).to_have_value("Opérateur régleur")
    expect(page.get_by_role("combobox", name="Activité", exact=True)).to_have_value("Usinage")
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    expect(page.get_by_text("Ce champ ne peut pas rester vide")).to_be_visible()
    page.get_by_role("textbox", name="Nom", exact=True).fill("Contrôle du serrage des mors")
    page.get_by_role("combobox", name="Sous-activité", exact=True).click()
    page.get_by_role("option", name="Tournage", exact=True).click()
    page.get_by_role("button", name="Enregistrer", exact=True).click()

    expect(page).to_have_url(re.compile(r"/spotv2/subject/\d+$"))
    subject_url = page.url
    expect(page.get_by_role("heading", name="Contrôle du serrage des mors", exact=True)).to_be_visible()
    expect(page.get_by_role("link", name="Tournage", exact=True)).to_be_visible()
    marks = page.get_by_role("region", name="Suivi du sujet", exact=True)
    expect(marks.get_by_text("non suivi")).to_be_visible()

    page.get_by_role("button", name="Marquer comme suivi", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Confirmer", exact=True).click()
    expect(
        marks.get_by_role("group", name="Suivi", exact=True).get_by_text(
            re.compile("^par François Girard le")
        )
    ).to_be_visible()

    page.get_by_role("button", name="Évaluer la criticité", exact=True).click()
    dialog = page.get_by_role("dialog", name="Évaluer la criticité", exact=True)
    dialog.get_by_role("combobox", name="Fréquence", exact=True).click()
    page.get_by_role("option", name=re.compile("^5 — Très fréquente")).click()
    dialog.get_by_role("combobox", name="Gravité", exact=True).click()
    page.get_by_role("option", name=re.compile("^4 — Grave")).click()
    expect(dialog.get_by_text("Élevée")).to_be_visible()
    dialog.get_by_role("button", name="Confirmer", exact=True).click()
    expect(marks.get_by_text("Fréquence : Très fréquente (chaque jour)")).to_be_visible()
    expect(marks.get_by_text("score 80 / 100")).to_be_visible()
    # On a phone, the criticity's texts keep clear of its pencil.
    page.set_viewport_size({"width": 390, "height": 844})
    criticity = marks.get_by_role("group", name="Criticité", exact=True)
    pencil = criticity.get_by_role("button", name="Évaluer la criticité", exact=True)
    expect(pencil).to_be_visible()
    assert overlapping(criticity, pencil) == []
    page.set_viewport_size({"width": 1280, "height": 800})

    page.get_by_role("button", name="Marquer comme résolu", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Confirmer", exact=True).click()
    expect(
        marks.get_by_role("group", name="Résolu", exact=True).get_by_text(
            re.compile("^par François Girard le")
        )
    ).to_be_visible()

    page.get_by_role("button", name="Standardiser", exact=True).click()
    dialog = page.get_by_role("dialog", name="Standardiser", exact=True)
    dialog.get_by_role("textbox", name="Commentaire", exact=True).fill("Validé avec l'équipe de tournage")
    dialog.get_by_role("button", name="Confirmer", exact=True).click()
    expect(marks.get_by_text("Validé avec l'équipe de tournage")).to_be_visible()
    expect(page.get_by_label("Standardisé", exact=True).first).to_be_visible()

    page.get_by_role("link", name="Créer à partir de", exact=True).click()
    expect(page.get_by_role("heading", name="Créer un sujet à partir d'un autre", exact=True)).to_be_visible()
    expect(page.get_by_text("Copie de « Contrôle du serrage des mors »")).to_be_visible()
    expect(page.get_by_role("textbox", name="Nom", exact=True)).to_have_value("")
    page.get_by_role("textbox", name="Nom", exact=True).fill("Contrôle du serrage des pinces")
    expect(page.get_by_role("combobox", name="Sous-activité", exact=True)).to_have_value("Tournage")
    page.get_by_role("button", name="Enregistrer", exact=True).click()
    expect(page.get_by_role("heading", name="Contrôle du serrage des pinces", exact=True)).to_be_visible()
    assert page.url != subject_url
    expect(
        page.get_by_role("region", name="Suivi du sujet", exact=True).get_by_text("score 80 / 100")
    ).to_be_visible()

    page.get_by_role("button", name="Supprimer", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Supprimer", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/subjects$"))
    page.goto(subject_url)
    expect(page.get_by_role("heading", name="Contrôle du serrage des mors", exact=True)).to_be_visible()
    page.get_by_role("button", name="Supprimer", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Supprimer", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/subjects$"))
    page.goto(subject_url)
    expect(page.get_by_text("La page ou l'information recherchée est introuvable")).to_be_visible()


def test_the_cartographies_list_is_filtered_by_name(page: Page, base_url: str) -> None:
    sign_in(page, base_url, "createur")
    page.get_by_role("link", name="Cartographies", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/cartographies$"))
    expect(page.get_by_role("status")).to_have_text("2 cartographies")
    expect(page.get_by_role("article")).to_have_count(2)

    page.get_by_role("button", name="Filtrer", exact=True).click()
    page.get_by_role("button", name="Ajouter un critère", exact=True).click()
    criterion = page.get_by_role("group", name="Critère 1")
    criterion.get_by_role("combobox", name="Champ").click()
    page.get_by_role("option", name="Nom", exact=True).click()
    expect(criterion.get_by_role("combobox", name="Opérateur")).to_have_text("contient")
    criterion.get_by_role("textbox", name="Valeur").fill("LIGNE")
    page.get_by_role("button", name="Appliquer", exact=True).click()

    expect(page).to_have_url(re.compile(r"/spotv2/cartographies/name%20contains%20LIGNE$"))
    expect(page.get_by_role("status")).to_have_text("1 cartographie")
    page.get_by_role("button", name="Filtrer", exact=True).click()
    expect(page.get_by_role("group", name="Filtre :")).to_contain_text("Nom contient « LIGNE »")

    # Typed text is checked as it is typed; a refusal is shown, and is no failed request.
    failed: list[str] = []
    page.on("response", lambda answer: failed.append(answer.url) if answer.status >= 400 else None)
    page.get_by_role("button", name="Filtrer", exact=True).click()
    page.get_by_role("button", name="Texte", exact=True).click()
    text = page.get_by_role("textbox", name="Texte du filtre")
    expect(text).to_have_attribute("placeholder", re.compile(r"^ex\. : name contains atelier"))
    text.fill("(name contains LIGNE")
    refusal = page.get_by_role("alert").filter(has_text="Parenthèse correspondante introuvable (caractère 1)")
    expect(refusal).to_be_visible()
    expect(page.get_by_role("button", name="Appliquer", exact=True)).to_be_disabled()
    assert failed == []
    text.fill("name contains LIGNE")
    expect(page.get_by_role("button", name="Appliquer", exact=True)).to_be_enabled()
    expect(page.get_by_role("article", name="Atelier d'usinage", exact=True)).to_have_count(0)
    card = page.get_by_role("article", name="Ligne d'assemblage", exact=True)
    expect(card.get_by_role("link", name="Usine de Lyon", exact=True)).to_be_visible()
    card.get_by_role("link", name="Ligne d'assemblage", exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/cartography/\d+$"))
    expect(page.get_by_role("heading", name="Ligne d'assemblage", exact=True)).to_be_visible()


def test_the_functions_list_is_filtered_by_a_cartography_found_by_name(page: Page, base_url: str) -> None:
    sign_in(page, base_url, "createur", to="/spotv2/functions?sorting=-name")
    expect(page.get_by_role("status")).to_have_text("9 fonctions")

    page.get_by_role("button", name="Filtrer", exact=True).click()
    page.get_by_role("button", name="Ajouter un critère", exact=True).click()
    criterion = page.get_by_role("group", name="Critère 1")
    criterion.get_by_role("combobox", name="Champ").click()
    page.get_by_role("option", name="Cartographie", exact=True).click()
    criterion.get_by_role("combobox", name="Valeur").fill("assem")
    page.get_by_role("option", name="Ligne d'assemblage (Usine de Lyon)", exact=True).click()
    page.get_by_role("button", name="Appliquer", exact=True).click()

    expect(page).to_have_url(re.compile(r"/spotv2/functions/cartography%20oneOf%20\d+\?sorting=-name$"))
    expect(page.get_by_role("status")).to_have_text("5 fonctions")
    page.get_by_role("button", name="Filtrer", exact=True).click()
    expect(page.get_by_role("group", name="Filtre :")).to_contain_text(
        "Cartographie est parmi Ligne d'assemblage (Usine de Lyon)"
    )
    functions = page.get_by_role("article")
    expect(functions).to_have_count(5)
    assert [f.get_attribute("aria-label") for f in functions.all()] == [
        "Technicien maintenance",
        "Opérateur de montage",
        "Contrôleur qualité",
        "Chef d'équipe",
        "Cariste",
    ]


def test_a_group_without_visibility_gets_forbidden(
    page: Page, base_url: str, cartography_ids: dict[str, int]
) -> None:
    sign_in(page, base_url, "apprenant")
    expect(page.get_by_role("link", name=re.compile("Atelier d'usinage"))).to_be_visible()
    expect(page.get_by_role("link", name=re.compile("Ligne d'assemblage"))).to_have_count(0)
    page.goto(f"{base_url}/spotv2/cartographies")
    expect(page.get_by_role("status")).to_have_text("1 cartographie")
    expect(page.get_by_role("article", name="Atelier d'usinage", exact=True)).to_be_visible()
    page.goto(f"{base_url}/spotv2/cartography/{cartography_ids['ASM']}")
    expect(page).to_have_url(re.compile(r"/spotv2/forbidden$"))
    expect(page.get_by_text("Droits insuffisants pour accéder à cette information")).to_be_visible()
    page.goto(f"{base_url}/spotv2/cartography/{cartography_ids['USI']}")
    expect(page.get_by_role("heading", name="Atelier d'usinage", exact=True)).to_be_visible()
