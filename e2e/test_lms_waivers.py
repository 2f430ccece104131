"""Readings, quizzes and waivers on the learning platform: a training manager imports a standalone
cmi5.xml (its units on another site), sees its units named for what they are (a reading, a quiz) in the
catalogue and the course tree, and waives the quiz for a learner, who is then done with it (cmi5
"waived", the unit satisfied). axe checks the page and the dialog (conftest); the pages are seen again
in English. The course is made for the journey and removed after it: the demo's units stay untouched."""

import uuid
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from conftest import API, DEMO_PASSWORD, expect_no_sideways_scroll, imported_course, in_language, sign_in

TEXTS = {
    "fr": {
        "drawer": "Navigation principale",
        "entry": "Plateforme de formation",
        "counts": "1 lecture · 1 quiz",
        "content": "Contenu de {}",
        "reading": "Lecture",
        "quiz": "Quiz",
        "open": "Dispenser un apprenant de {}",
        "title": "Dispenser de {}",
        "learner": "Apprenant",
        "notSatisfied": "Cet apprenant n'a pas encore satisfait cette unité.",
        "reason": "Motif",
        "testedOut": "Évaluation réussie",
        "submit": "Dispenser",
        "done": "{} est dispensé(e) de cette unité.",
        "close": "Fermer",
    },
    "en": {
        "drawer": "Main navigation",
        "entry": "Learning platform",
        "counts": "1 reading · 1 quiz",
        "content": "Content of {}",
        "reading": "Reading",
        "quiz": "Quiz",
        "open": "Waive for a learner: {}",
        "title": "Waive {}",
        "learner": "Learner",
        "notSatisfied": "This learner has not satisfied this unit yet.",
        "reason": "Reason",
        "testedOut": "Tested out",
        "submit": "Waive",
        "done": "{} is waived from this unit.",
        "close": "Close",
    },
}
TRAINING_MANAGER = "formation"
LEARNER, LEARNER_NAME = "apprenant", "Gabriel Roux"
NS = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
READING, QUIZ = "Lire les consignes", "Évaluation des consignes"


def structure(course_id: str, title: str) -> bytes:
    """A course structure alone, as the CATAPULT test suite's 101: its units live on another site."""

    def texts(name: str) -> str:
        return (
            f'<title><langstring lang="fr-FR">{name}</langstring></title>'
            '<description><langstring lang="fr-FR"></langstring></description>'
        )

    return f"""<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="{NS}">
  <course id="{course_id}">{texts(title)}</course>
  <block id="{course_id}/bloc">{texts("Les consignes")}
    <au id="{course_id}/lire" moveOn="CompletedOrPassed">{texts(READING)}
      <url>https://elearning.example.com/consignes/lire.html</url></au>
    <au id="{course_id}/evaluation" moveOn="Passed" masteryScore="0.8">{texts(QUIZ)}
      <url>https://elearning.example.com/consignes/evaluation.html</url></au>
  </block>
</courseStructure>""".encode()


def _login(base_url: str, login: str) -> httpx.Client:
    token = httpx.post(
        f"{base_url}{API}/account/login", json={"username": login, "password": DEMO_PASSWORD, "returnUrl": ""}
    ).json()["token"]
    return httpx.Client(
        base_url=base_url, headers={"x-access-token": token}, limits=httpx.Limits(max_keepalive_connections=0)
    )


def _unit(tree: dict[str, Any], name: str) -> dict[str, Any]:
    for child in tree.get("children", []):
        if child.get("type") == "group":
            found = _unit(child, name)
            if found:
                return found
        elif child["name"] == name:
            return child
    return {}


@in_language("fr")
def test_a_training_manager_sees_readings_and_quizzes_and_waives_a_unit(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    title = f"Consignes d'atelier {uuid.uuid4().hex[:6]}"
    with _login(base_url, TRAINING_MANAGER) as manager:
        course_id = imported_course(
            manager,
            f"{API}/lms/courses",
            structure(f"https://spot.example.com/courses/{uuid.uuid4()}", title),
            "application/xml",
        )["id"]
        try:
            sign_in(page, base_url, TRAINING_MANAGER, language)
            page.get_by_role("navigation", name=texts["drawer"]).get_by_role(
                "link", name=texts["entry"]
            ).click()
            card = page.get_by_role("listitem").filter(
                has=page.get_by_role("heading", name=title, exact=True)
            )
            expect(card.get_by_text(texts["counts"], exact=True)).to_be_visible()
            card.get_by_role("button", name=title, exact=True).click()
            content = page.get_by_role("region", name=texts["content"].format(title), exact=True)
            tree = content.get_by_role("tree")
            expect(tree.get_by_role("treeitem", name=f"{READING} {texts['reading']}")).to_be_visible()
            expect(tree.get_by_role("treeitem", name=f"{QUIZ} {texts['quiz']}")).to_be_visible()
            tree.get_by_text(QUIZ, exact=True).click()
            content.get_by_role("button", name=texts["open"].format(QUIZ), exact=True).click()
            dialog = page.get_by_role("dialog", name=texts["title"].format(QUIZ), exact=True)
            expect(dialog).to_be_visible()
            dialog.get_by_role("combobox", name=texts["learner"]).fill("Roux")
            page.get_by_role("option", name=LEARNER_NAME, exact=True).click()
            expect(dialog.get_by_text(texts["notSatisfied"], exact=True)).to_be_visible()
            dialog.get_by_role("combobox", name=texts["reason"]).click()
            page.get_by_role("option", name=texts["testedOut"], exact=True).click()
            dialog.get_by_role("button", name=texts["submit"], exact=True).click()
            expect(dialog.get_by_text(texts["done"].format(LEARNER_NAME), exact=True)).to_be_visible()
            expect(dialog.get_by_role("button", name=texts["submit"], exact=True)).to_be_disabled()

            # The server's record: the quiz waived for the learner, with the reason chosen.
            quiz = _unit(manager.get(f"{API}/lms/courses/{course_id}").json(), QUIZ)
            learner = next(
                u
                for u in manager.get(f"{API}/user/search", params={"name": "Roux"}).json()
                if u["displayName"] == LEARNER_NAME
            )
            state = manager.get(
                f"{API}/lms/courses/{course_id}/satisfaction", params={"learnerId": learner["id"]}
            ).json()
            assert [(i["itemId"], i["method"], i["reason"]) for i in state["items"]] == [
                (quiz["id"], "waived", "Tested Out")
            ]

            # On a phone, the dialog takes the screen and nothing scrolls sideways.
            page.set_viewport_size({"width": 390, "height": 844})
            expect(dialog.get_by_role("button", name=texts["close"], exact=True)).to_be_visible()
            expect_no_sideways_scroll(page)
            page.set_viewport_size({"width": 1280, "height": 800})
            dialog.get_by_role("button", name=texts["close"], exact=True).click()
            expect(dialog).to_be_hidden()
        finally:
            manager.delete(f"{API}/lms/courses/{course_id}")
