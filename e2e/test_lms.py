"""The learning platform's journeys, one in French and one in English (their pages seen again in the other): a
learner opens the platform from the drawer, launches the demo course's quiz in a new tab, answers it there
(the course's own page, driven through the cmi5 runtime), comes back and sees the attempt with its grade; a
training manager uploads a course package built here, sees a broken one refused with its faulty entry named,
and removes the course. axe checks every page and dialog on the way, the quiz's tab too (conftest)."""

import io
import re
import zipfile
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from conftest import expect_no_sideways_scroll, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "drawer": "Navigation principale",
        "entry": "Plateforme de formation",
        "catalogue": "Cours",
        "content": "Contenu de {}",
        "launch": "Lancer {}",
        "attempts": "Mes tentatives aux quiz",
        "noAttempt": "Vous n'avez encore passé aucun quiz.",
        "grade": "10,0 / 10",
        "passed": "Réussi",
        "upload": "Importer un cours",
        "uploadTitle": "Importer un paquet de cours cmi5",
        "import": "Importer",
        "imported": "Cours « {} » importé",
        "invalid": "Ce fichier n'est pas un paquet de cours cmi5 valide",
        "faulty": "Entrée en cause : cmi5.xml, imsmanifest.xml",
        "cancel": "Annuler",
        "remove": "Retirer {}",
        "removeTitle": "Retirer le cours",
        "confirm": "Retirer",
        "removed": "Cours « {} » retiré",
    },
    "en": {
        "drawer": "Main navigation",
        "entry": "Learning platform",
        "catalogue": "Courses",
        "content": "Content of {}",
        "launch": "Launch {}",
        "attempts": "My quiz attempts",
        "noAttempt": "You have not taken any quiz yet.",
        "grade": "10.0 / 10",
        "passed": "Passed",
        "upload": "Import a course",
        "uploadTitle": "Import a cmi5 course package",
        "import": "Import",
        "imported": "Course “{}” imported",
        "invalid": "This file is not a valid cmi5 course package",
        "faulty": "Faulty entry: cmi5.xml, imsmanifest.xml",
        "cancel": "Cancel",
        "remove": "Remove {}",
        "removeTitle": "Remove the course",
        "confirm": "Remove",
        "removed": "Course “{}” removed",
    },
}
# One learner per language, so that each run starts with no attempt of its own.
LEARNERS = {"fr": "apprenant", "en": "operatrice"}
TRAINING_MANAGER = "formation"
DEMO_COURSE = "Consignation des énergies"
DEMO_QUIZ = "Quiz consignation"
# The demo quiz's right answers (docs/learning-platform.md): five out of five, a grade of 10.
RIGHT_ANSWERS = {"q1": "b", "q2": "c", "q3": "a", "q4": "d", "q5": "b"}


def open_platform(page: Page, texts: dict[str, Any]) -> None:
    """The learning platform, reached from the drawer."""
    page.get_by_role("navigation", name=texts["drawer"]).get_by_role("link", name=texts["entry"]).click()
    expect(page).to_have_url(re.compile(r"/spotv2/lms$"))
    expect(page.get_by_role("heading", level=1, name=texts["entry"], exact=True)).to_be_visible()


def course_package(activity_id: str, title: str, *, with_structure: bool = True) -> bytes:
    """A one-page cmi5 course, as an authoring tool would export it; without its cmi5.xml, a broken one."""
    structure = f"""<?xml version="1.0" encoding="utf-8"?>
<courseStructure xmlns="https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd">
  <course id="{activity_id}">
    <title><langstring lang="fr-FR">{title}</langstring></title>
    <description><langstring lang="fr-FR">Un cours d'une page.</langstring></description>
  </course>
  <au id="{activity_id}/page" moveOn="Completed">
    <title><langstring lang="fr-FR">Page unique</langstring></title>
    <description><langstring lang="fr-FR">À lire.</langstring></description>
    <url>index.html</url>
  </au>
</courseStructure>
"""
    page = (
        '<!doctype html><html lang="fr"><head><title>Page unique</title></head>'
        "<body><main><h1>Page unique</h1></main></body></html>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        if with_structure:
            archive.writestr("cmi5.xml", structure)
        archive.writestr("index.html", page)
    return buffer.getvalue()


def zip_file(name: str, content: bytes) -> dict[str, Any]:
    return {"name": name, "mimeType": "application/zip", "buffer": content}


@in_language("en")
def test_a_learner_launches_the_demo_quiz_answers_it_and_sees_the_grade(
    context: BrowserContext, page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    sign_in(page, base_url, LEARNERS[language], language)
    open_platform(page, texts)
    attempts = page.get_by_role("region", name=texts["attempts"], exact=True)
    expect(attempts.get_by_text(texts["noAttempt"], exact=True)).to_be_visible()

    content = page.get_by_role("region", name=texts["content"].format(DEMO_COURSE), exact=True)
    content.get_by_role("tree").get_by_text(DEMO_QUIZ, exact=True).click()
    with context.expect_page() as opened:
        content.get_by_role("button", name=texts["launch"].format(DEMO_QUIZ), exact=True).click()
    quiz = opened.value
    expect(quiz).to_have_url(re.compile(r"/backend/api/v2/lms/play/.+/quiz\.html\?.*registration="))
    expect(quiz.get_by_role("heading", level=1, name=DEMO_QUIZ)).to_be_visible()
    # The page is ready once it holds its auth token and its launch data.
    submit = quiz.get_by_role("button", name="Valider mes réponses")
    expect(submit).to_be_enabled()
    for question, answer in RIGHT_ANSWERS.items():
        quiz.locator(f"#{question}-{answer}").check()
    submit.click()
    expect(quiz.get_by_role("status")).to_have_text("Votre score : 5 / 5, soit 10 sur 10. Quiz réussi.")
    quiz.get_by_role("button", name="Quitter le quiz").click()
    # Leaving the quiz returns to the platform (cmi5 returnURL), in the quiz's tab.
    expect(quiz).to_have_url(re.compile(r"/spotv2/lms$"))
    quiz.close()

    # Back on the first tab: the attempt is read again as the tab comes to the front. Headless Chromium
    # keeps every tab visible and so never tells a page it came back: its event is played here.
    page.bring_to_front()
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true }))")
    row = attempts.get_by_role("listitem")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(DEMO_QUIZ)
    expect(row).to_contain_text(DEMO_COURSE)
    expect(row).to_contain_text(texts["grade"])
    expect(row).to_contain_text(texts["passed"])


@in_language("fr")
def test_a_training_manager_uploads_a_course_and_removes_it(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    title = {"fr": "Cours d'essai", "en": "Trial course"}[language]
    activity_id = f"https://courses.spot.example/e2e-{language}"
    sign_in(page, base_url, TRAINING_MANAGER, language)
    open_platform(page, texts)
    catalogue = page.get_by_role("region", name=texts["catalogue"], exact=True)
    expect(catalogue.get_by_role("heading", name=DEMO_COURSE, exact=True)).to_be_visible()

    # A package without its cmi5.xml (nor a SCORM manifest) is refused, the missing entries named.
    page.get_by_role("button", name=texts["upload"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["uploadTitle"], exact=True)
    files = dialog.locator("input[type=file]")
    files.set_input_files(zip_file("broken.zip", course_package(activity_id, title, with_structure=False)))
    dialog.get_by_role("button", name=texts["import"], exact=True).click()
    refusal = dialog.get_by_role("alert")
    expect(refusal).to_contain_text(texts["invalid"])
    expect(refusal).to_contain_text(texts["faulty"])

    # A good one is imported and shown.
    files.set_input_files(zip_file("course.zip", course_package(activity_id, title)))
    dialog.get_by_role("button", name=texts["import"], exact=True).click()
    expect(dialog).to_be_hidden()
    expect(page.get_by_text(texts["imported"].format(title), exact=True)).to_be_visible()
    expect(catalogue.get_by_role("button", name=title, exact=True)).to_have_attribute("aria-pressed", "true")
    tree = page.get_by_role("region", name=texts["content"].format(title), exact=True).get_by_role("tree")
    expect(tree.get_by_text("Page unique", exact=True)).to_be_visible()

    # On a phone, the page does not scroll sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    expect(tree.get_by_text("Page unique", exact=True)).to_be_visible()
    expect_no_sideways_scroll(page)
    page.set_viewport_size({"width": 1280, "height": 800})

    # Removed after confirming: the catalogue no longer offers it.
    catalogue.get_by_role("button", name=texts["remove"].format(title), exact=True).click()
    confirm = page.get_by_role("dialog", name=texts["removeTitle"], exact=True)
    confirm.get_by_role("button", name=texts["confirm"], exact=True).click()
    expect(confirm).to_be_hidden()
    expect(page.get_by_text(texts["removed"].format(title), exact=True)).to_be_visible()
    expect(catalogue.get_by_role("heading", name=title, exact=True)).to_have_count(0)
    expect(catalogue.get_by_role("heading", name=DEMO_COURSE, exact=True)).to_be_visible()
