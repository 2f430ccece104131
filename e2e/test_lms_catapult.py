"""cmi5 content written by others: ADL's CATAPULT course example "masteryscore_responsive" (its own cmi5
library, 3.x, which calls the endpoint with a doubled slash), imported as it is published. A learner of
his own launches it from the catalogue, goes to its quiz, answers it rightly and leaves; Spot then
shows the attempt with its grade, and the unit satisfied (moveOn CompletedOrPassed). axe checks Spot's
pages; the course's own tab, which others wrote, is opened in a context of its own and is not audited.
Skipped, saying why, where the CATAPULT mirror is absent (backend/tests/lms/conformance.py)."""

import re
import sys
import uuid
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import DEMO_PASSWORD, ROOT, WAIT_MS, admin_client, imported_course, in_language, sign_in

sys.path.insert(0, str(ROOT / "backend" / "tests"))
from lms.conformance import catapult_course, needs_catapult

COURSE = "Introduction to Geology - Responsive Style - Mastery Score"
TEXTS = {"attempts": "Mes tentatives aux quiz", "grade": "10,0 / 10", "passed": "Réussi"}


def new_learner(base_url: str) -> str:
    """A learner of his own for each run: cmi5 records passed once per registration."""
    login = f"geologue-{uuid.uuid4().hex[:8]}"
    with admin_client(base_url) as api:
        operators = next(g["id"] for g in api.get("/user/groups").json() if g["name"] == "Opérateurs")
        created = api.put(
            "/user/create",
            json={
                "login": login,
                "password": DEMO_PASSWORD,
                "firstName": "Inès",
                "lastName": "Géologue",
                "groupIds": [operators],
            },
        )
        assert created.status_code == 200, created.text
    return login


def import_course(base_url: str, folder: Path) -> tuple[int, int]:
    """The example imported as published (the administrator manages trainings): its course and unit ids."""
    package = catapult_course("masteryscore_responsive", folder)
    with admin_client(base_url) as api:
        course_id = imported_course(api, "/lms/courses", package.read_bytes(), "application/zip")["id"]
        (unit,) = api.get(f"/lms/courses/{course_id}").json()["children"]
    return course_id, unit["id"]


@needs_catapult
@in_language("fr")
def test_a_learner_passes_the_catapult_mastery_score_example(
    browser: Browser, context: BrowserContext, page: Page, base_url: str, language: str, tmp_path: Path
) -> None:
    course_id, unit_id = import_course(base_url, tmp_path)
    learner = new_learner(base_url)

    # The course's tab, in a context of its own (not audited: the course is others' work).
    content = browser.new_context(viewport={"width": 1280, "height": 800}, locale="fr-FR")
    content.set_default_timeout(WAIT_MS)
    try:
        catalogue = content.new_page()
        sign_in(catalogue, base_url, learner, language, to="/spotv2/lms")
        catalogue.get_by_role("region", name="Cours", exact=True).get_by_role(
            "heading", name=COURSE, exact=True
        ).click()
        tree = catalogue.get_by_role("region", name=f"Contenu de {COURSE}", exact=True)
        # The course and its one unit bear the same title: the unit is the inner one.
        tree.get_by_role("tree").get_by_text(COURSE, exact=True).last.click()
        with content.expect_page() as opened:
            tree.get_by_role("button", name=f"Lancer {COURSE}", exact=True).click()
        unit = opened.value
        expect(unit).to_have_url(re.compile(r"/backend/api/v2/lms/play/.+/index\.html\?.*registration="))
        # The course reads its launch data (through …/xapi//activities/state) and says it is not read-only.
        expect(unit.locator("#navmenuitems .navmenuitem").last).to_have_text("Quiz")
        expect(unit.locator("#info-bar")).to_be_hidden()
        # Its start is over once it opened its first page (no bookmark for a new learner).
        expect(unit.locator("#navmenuitems .navmenuitem").first).to_have_class(re.compile(r"\bseen\b"))
        unit.locator("#navmenuitems .navmenuitem").last.click()
        unit.get_by_role("button", name=re.compile(r"Select correct answers")).click()
        unit.get_by_role("button", name="Submit Answers").click()
        expect(unit.locator("#score-passed")).to_be_visible()
        unit.locator("#score-panel").get_by_role("button", name="Exit the Course").click()
        # Leaving returns to the platform (cmi5 returnURL), in the course's tab.
        expect(unit).to_have_url(re.compile(r"/spotv2/lms$"))
    finally:
        content.close()

    # Spot's pages (audited): the attempt and its grade among the learner's attempts.
    sign_in(page, base_url, learner, language, to="/spotv2/lms")
    row = page.get_by_role("region", name=TEXTS["attempts"], exact=True).get_by_role("listitem")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(COURSE)
    expect(row).to_contain_text(TEXTS["grade"])
    expect(row).to_contain_text(TEXTS["passed"])
    # The unit is satisfied (its moveOn met), and so the course.
    with admin_client(base_url) as api:
        learner_id = api.get("/user/byLogin", params={"login": learner}).json()["id"]
        satisfaction = api.get(f"/lms/courses/{course_id}/satisfaction", params={"learnerId": learner_id})
        assert satisfaction.status_code == 200, satisfaction.text
        body = satisfaction.json()
        assert [item["itemId"] for item in body["items"]] == [unit_id]
        assert body["satisfiedAt"] is not None
