"""SCORM on the learning platform, in French (its pages seen again in English): a training manager imports
the golf examples through the catalogue (SCORM 1.2, one SCO; SCORM 2004 3rd edition, eighteen); a learner
opens the 1.2 course in Spot's player, reads a few pages, leaves saving where he was, comes back there,
takes the quiz and sees its grade in the player and among his attempts; then goes through the 2004
course by its contents, on a laptop and on a phone. The content runs on the content origin: it reads
neither Spot's cookie nor its storage. Skipped, saying why, where the golf mirror is absent."""

import re
import sys
import uuid
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Dialog, FrameLocator, Page, expect

from conftest import API, DEMO_PASSWORD, ROOT, admin_client, expect_no_sideways_scroll, in_language, sign_in

sys.path.insert(0, str(ROOT / "backend" / "tests"))
from lms.conformance import GOLF_12_SINGLE, GOLF_2004_MULTI, golf_zip, needs_golf

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "catalogue": "Cours",
        "upload": "Importer un cours",
        "import": "Importer",
        "imported": re.compile(r"^Cours « (.+) » (importé|mis à jour)$"),
        "content": "Contenu de {}",
        "open": "Ouvrir dans le lecteur : {}",
        "contents": "Sommaire",
        "frame": "Unité : {}",
        "left": "Vous avez quitté cette unité.",
        "openAgain": "Rouvrir",
        "inProgress": "En cours · reprend là où vous vous êtes arrêté",
        "notStarted": "Pas commencé",
        "back": "Retour au catalogue",
        "attempts": "Mes tentatives aux quiz",
        "decimal": ",",
        "elementsOf": "Éléments de {}",
        "doneOn": "Fait le",
        "launch": "Lancer {}",
        "opensToLook": "S'ouvre en consultation : rien n'est enregistré",
        "browsing": "Ouvert en consultation : rien de ce que vous faites ici n'est enregistré.",
    },
}
COURSE_12 = "Golf Explained - Run-time Basic Calls"
UNIT_12 = "Golf Explained"
COURSE_2004 = "Golf Explained - Minimum Run-time Calls"
# The module's second element: a 2004 unit to look through (Browse).
BROWSED = "Taking Care of the Course"
TRAINING_MANAGER = "formation"
# The 1.2 SCO's pages, in its own order (shared/launchpage.html): the quiz is the last one.
PAGES_12 = 15
PAUSE_AT = 4


MODULE = "Golf : les règles de base"


def new_learner(base_url: str) -> str:
    """A learner of his own for each run: the SCO resumes what an earlier run left."""
    login = f"golfeur-{uuid.uuid4().hex[:8]}"
    with admin_client(base_url) as api:
        operators = next(g["id"] for g in api.get("/user/groups").json() if g["name"] == "Opérateurs")
        created = api.put(
            "/user/create",
            json={
                "login": login,
                "password": DEMO_PASSWORD,
                "firstName": "Paul",
                "lastName": "Golfeur",
                "groupIds": [operators],
            },
        )
        assert created.status_code == 200, created.text
    return login


def unit_id(api: httpx.Client, course: str, unit: str) -> int:
    found = next(card for card in api.get("/lms/courses").json() if card["title"] == course)
    pending = [api.get(f"/lms/courses/{found['id']}").json()]
    while pending:
        node = pending.pop()
        if node["type"] != "group" and node["name"] == unit:
            return int(node["id"])
        pending.extend(node.get("children", []))
    raise AssertionError(f"no {unit} in {course}")


def path_with_the_unit(base_url: str, learner: str) -> str:
    """A module holding the golf 1.2 unit and, to look through, a 2004 unit, in a path of the learner's,
    accepted, started and the module open (the administrator its creator and referent): the address of
    the path's page."""
    with admin_client(base_url) as api:
        module = api.post(
            "/training/module",
            json={
                "name": MODULE,
                "moduleType": "training",
                "goals": "Connaître le jeu.",
                "estimatedDuration": 30,
                "periodicity": 0,
                "passThreshold": 5,
                "moduleItems": [
                    {"type": "lms", "lmsCourseId": unit_id(api, COURSE_12, UNIT_12)},
                    {
                        "type": "lms",
                        "lmsCourseId": unit_id(api, COURSE_2004, BROWSED),
                        "launchMode": "Browse",
                    },
                ],
            },
        )
        assert module.status_code == 200, module.text
        admin = api.get("/account/whoAmI").json()["id"]
        token = httpx.post(
            f"{base_url}{API}/account/login",
            json={"username": learner, "password": DEMO_PASSWORD, "returnUrl": ""},
        ).json()["token"]
        learner_id = httpx.get(f"{base_url}{API}/account/whoAmI", headers={"x-access-token": token}).json()[
            "id"
        ]
        today = date.today()
        created = api.post(
            "/training/path",
            json={
                "title": "Parcours golf",
                "startDate": today.isoformat(),
                "stopDate": (today + timedelta(days=60)).isoformat(),
                "passThreshold": 5,
                "assignedModules": [{"moduleId": module.json()["id"], "referents": [admin]}],
                "learnerIds": [learner_id],
            },
        )
        assert created.status_code == 200, created.text
        path_id = created.json()[0]["id"]
        accepted = httpx.post(
            f"{base_url}{API}/training/path/{path_id}/accept", headers={"x-access-token": token}
        )
        assert accepted.status_code == 200, accepted.text
        started = api.post(f"/training/path/{path_id}/start")
        assert started.status_code == 200, started.text
        index = started.json()["assignedModules"][0]["index"]
        opened = api.post(f"/training/path/{path_id}/{index}/startNow")
        assert opened.status_code == 200, opened.text
    return f"{base_url}/spotv2/training/path/view/{path_id}"


def upload(page: Page, texts: dict[str, Any], package: Path) -> str:
    """The package imported through the catalogue's dialog; the course's title, as the notice says."""
    page.get_by_role("button", name=texts["upload"], exact=True).click()
    dialog = page.get_by_role("dialog")
    dialog.locator("input[type=file]").set_input_files(str(package))
    dialog.get_by_role("button", name=texts["import"], exact=True).click()
    expect(dialog).to_be_hidden()
    notice = page.get_by_text(texts["imported"])
    expect(notice).to_be_visible()
    match = texts["imported"].match(notice.inner_text())
    assert match
    return match.group(1)


def open_in_player(page: Page, texts: dict[str, Any], course: str, unit: str) -> None:
    """From the catalogue: the course, its unit in the tree, then Open in the player."""
    catalogue = page.get_by_role("region", name=texts["catalogue"], exact=True)
    catalogue.get_by_role("button", name=course, exact=True).click()
    content = page.get_by_role("region", name=texts["content"].format(course), exact=True)
    content.get_by_role("tree").get_by_text(unit, exact=True).click()
    content.get_by_role("link", name=texts["open"].format(unit), exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/lms/courses/\d+/player\?item=\d+$"))
    expect(page.get_by_role("heading", level=1, name=course, exact=True)).to_be_visible()


def sco_of(page: Page, texts: dict[str, Any], unit: str) -> FrameLocator:
    """The SCO, framed by the player's frame page (which holds the SCORM runtime)."""
    return page.frame_locator(f'iframe[title="{texts["frame"].format(unit)}"]').frame_locator("iframe")


def loaded(sco: FrameLocator) -> None:
    """Waits for the SCO's page to have loaded: the golf SCOs call Initialize from their load handler, and
    their text shows before their images have come; a unit left before then was never started."""
    handle = sco.locator("h1").first.element_handle()
    frame = handle.owner_frame() if handle else None
    assert frame is not None
    frame.wait_for_load_state("load")


@needs_golf
@in_language("fr")
def test_a_learner_takes_the_golf_scorm_courses_in_spots_player(
    page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    texts = TEXTS[language]
    learner = new_learner(base_url)
    # The SCO asks "resume where you left off?" and "save your progress?": the learner says yes.
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)

    # The training manager imports both examples through the catalogue.
    sign_in(page, base_url, TRAINING_MANAGER, language, to="/spotv2/lms")
    assert upload(page, texts, golf_zip(GOLF_12_SINGLE, tmp_path / "golf12.zip")) == COURSE_12
    assert upload(page, texts, golf_zip(GOLF_2004_MULTI, tmp_path / "golf2004.zip")) == COURSE_2004

    # The golf 1.2 unit is an element of a module of the learner's path, open.
    path = path_with_the_unit(base_url, learner)

    # The learner opens the 1.2 course in the player: one unit, not started.
    sign_in(page, base_url, learner, language, to="/spotv2/lms")
    open_in_player(page, texts, COURSE_12, UNIT_12)
    contents = page.get_by_role("region", name=texts["contents"], exact=True)
    expect(contents.get_by_role("button", name=re.compile(f"^{UNIT_12}"))).to_contain_text(
        texts["notStarted"]
    )
    sco = sco_of(page, texts, UNIT_12)
    for _ in range(PAUSE_AT):
        sco.locator("#butNext").click()
    expect(sco.frame_locator("#contentFrame").locator("h1")).to_have_text("The Rules of Golf")

    # The content runs on an origin of its own: neither Spot's cookie nor its storage are within reach.
    content = next(frame for frame in page.frames if frame.url.endswith("/shared/launchpage.html"))
    assert not content.url.startswith(base_url)
    seen = content.evaluate(
        """() => {
            const read = (what) => { try { return what() } catch (error) { return error.name } }
            return [document.cookie, read(() => localStorage.getItem('spot.language'))]
        }"""
    )
    assert seen == ["", "SecurityError"], seen

    # He leaves saving where he was: the player says so, the contents say it resumes.
    sco.locator("#butExit").click()
    expect(page.get_by_text(texts["left"])).to_be_visible()
    expect(contents.get_by_text(texts["inProgress"], exact=True)).to_be_visible()
    page.get_by_role("button", name=texts["openAgain"], exact=True).click()
    expect(sco.frame_locator("#contentFrame").locator("h1")).to_have_text("The Rules of Golf")
    assert any("resume" in message for message in asked), asked

    # The quiz, the last page: its score is the grade Spot shows, out of 10.
    for _ in range(PAGES_12 - 1 - PAUSE_AT):
        sco.locator("#butNext").click()
    quiz = sco.frame_locator("#contentFrame")
    # Next is disabled once the last page is asked for; its questions are there once it has loaded (read
    # earlier, the frame may still be navigating and its page be gone under the read).
    expect(sco.locator("#butNext")).to_be_disabled()
    expect(quiz.locator("input[type=button]").last).to_be_visible()
    first_answers = quiz.locator("input[type=radio]").evaluate_all(
        "inputs => [...new Set(inputs.map((input) => input.name))]"
    )
    for name in first_answers:
        quiz.locator(f'input[name="{name}"]').first.check()
    for field in quiz.locator("input[type=text]").all():
        field.fill("3")
    quiz.locator("input[type=button]").last.click()
    score = int(re.sub(r"\D", "", quiz.locator("#test h3").first.inner_text()))
    grade = f"{score // 10}{texts['decimal']}{score % 10} / 10"
    sco.locator("#butExit").click()
    expect(page.get_by_text(texts["left"])).to_be_visible()
    expect(contents.get_by_role("button", name=re.compile(f"^{UNIT_12}"))).to_contain_text(grade)
    page.get_by_role("link", name=texts["back"]).click()
    attempts = page.get_by_role("region", name=texts["attempts"], exact=True)
    expect(attempts.get_by_text(grade, exact=True)).to_be_visible()
    # His path's module counts the unit done.
    page.goto(path)
    summary = page.get_by_role("button", name=re.compile(f"^{re.escape(MODULE)}"))
    if summary.get_attribute("aria-expanded") == "false":
        summary.click()
    elements = page.get_by_role("list", name=texts["elementsOf"].format(MODULE), exact=True)
    expect(elements.get_by_role("listitem").first).to_contain_text(texts["doneOn"])
    # The second element opens its unit to look through: the player says nothing is recorded, and the
    # element is done once opened.
    browsed = elements.get_by_role("listitem").nth(1)
    expect(browsed).to_contain_text(texts["opensToLook"])
    with page.context.expect_page() as opened:
        browsed.get_by_role("button", name=texts["launch"].format(BROWSED), exact=True).click()
    player = opened.value
    expect(player).to_have_url(re.compile(r"/spotv2/lms/courses/\d+/player\?item=\d+&mode=Browse$"))
    expect(player.get_by_text(texts["browsing"])).to_be_visible()
    expect(sco_of(player, texts, BROWSED).locator("h1").first).to_be_visible()
    player.close()
    page.reload()
    if summary.get_attribute("aria-expanded") == "false":
        summary.click()
    expect(browsed).to_contain_text(texts["doneOn"])
    page.goto(f"{base_url}/spotv2/lms")

    # The 2004 course, unit by unit from its contents (its blocks allow choice, not flow).
    open_in_player(page, texts, COURSE_2004, "How to Play")
    expect(sco_of(page, texts, "How to Play").locator("h1")).to_have_text("Play of the game")
    loaded(sco_of(page, texts, "How to Play"))
    for unit in ("Par", "Keeping Score"):
        contents.get_by_role("button", name=re.compile(f"^{unit}")).click()
        expect(sco_of(page, texts, unit).locator("h1").first).to_be_visible()
        loaded(sco_of(page, texts, unit))
    # The units left are no longer "not started".
    for unit in ("How to Play", "Par"):
        expect(contents.get_by_role("button", name=re.compile(f"^{unit}"))).not_to_contain_text(
            texts["notStarted"]
        )

    # On a phone: the unit first, the contents under it, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(sco_of(page, texts, "Keeping Score").locator("h1").first).to_be_visible()
    expect_no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 800})
