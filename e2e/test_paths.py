"""The training path journey, in French and English: a training manager creates paths for two learners
from the plus menu (one per learner); the first learner accepts hers; the referent starts the path and
its module; the learner opens the module's web link and its map element, and passes the demo quiz; the
referent grades the module under its threshold; the learner signs the module; the creator closes the
path, the warning of a module not passed shown; the learner signs the path; its card shows it archived.
The learners and the module are made for the test through the API (the demo's learners keep no quiz
attempt: test_lms expects none). axe checks every page and dialog on the way (conftest)."""

import re
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Locator, Page, expect

from conftest import API, DEMO_PASSWORD, IN_EACH_LANGUAGE, admin_client, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "create": "Créer",
        "newPath": "Nouveau parcours de formation",
        "learners": "Apprenants",
        "title": "Titre",
        "addModule": "Ajouter un module",
        "module": "Module de formation",
        "referents": "Référents",
        "save": "Enregistrer",
        "list": "Parcours de formation",
        "learnerOf": "Apprenant : {}",
        "status": "Statut : {}",
        "statuses": {
            "notAccepted": "Non accepté",
            "accepted": "Accepté",
            "started": "Démarré",
            "finished": "Terminé",
            "validated": "Clôturé",
            "archived": "Archivé",
        },
        "accept": "Accepter",
        "acceptTitle": "Accepter le parcours ?",
        "start": "Démarrer le parcours",
        "startNow": "Démarrer maintenant",
        "launch": "Lancer {}",
        "grade": "Noter",
        "gradeTitle": "Noter « {} »",
        "gradeField": "Note sur 10",
        "gradeLabel": "Note",
        "comment": "Commentaire",
        "gradeSubmit": "Noter et clôturer",
        "signModule": "Signer le module",
        "signModuleTitle": "Signer le module « {} »",
        "signSubmit": "Signer",
        "close": "Clôturer le parcours",
        "closeTitle": "Clôturer le parcours",
        "closeSubmit": "Clôturer et signer",
        "notPassed": "Au moins un module n'est pas réussi",
        "signPath": "Signer le parcours",
        "signPathTitle": "Signer le parcours « {} »",
        "archivedStep": "Archivé : étape actuelle",
        "quizResult": "Résultat du quiz : ",
        "elementsOf": "Éléments de {}",
        "doneOn": "Fait le",
    },
    "en": {
        "create": "Create",
        "newPath": "New training path",
        "learners": "Learners",
        "title": "Title",
        "addModule": "Add a module",
        "module": "Training module",
        "referents": "Referents",
        "save": "Save",
        "list": "Training paths",
        "learnerOf": "Learner: {}",
        "status": "Status: {}",
        "statuses": {
            "notAccepted": "Not accepted",
            "accepted": "Accepted",
            "started": "Started",
            "finished": "Finished",
            "validated": "Closed",
            "archived": "Archived",
        },
        "accept": "Accept",
        "acceptTitle": "Accept the path?",
        "start": "Start the path",
        "startNow": "Start now",
        "launch": "Launch {}",
        "grade": "Grade",
        "gradeTitle": "Grade « {} »",
        "gradeField": "Grade out of 10",
        "gradeLabel": "Grade",
        "comment": "Comment",
        "gradeSubmit": "Grade and close",
        "signModule": "Sign the module",
        "signModuleTitle": "Sign the module « {} »",
        "signSubmit": "Sign",
        "close": "Close the path",
        "closeTitle": "Close the path",
        "closeSubmit": "Close and sign",
        "notPassed": "At least one module is not passed",
        "signPath": "Sign the path",
        "signPathTitle": "Sign the path « {} »",
        "archivedStep": "Archived: current step",
        "quizResult": "Quiz result: ",
        "elementsOf": "Elements of {}",
        "doneOn": "Done on",
    },
}
MANAGER = "formation"
REFERENT = ("referent", "Émilie Laurent")
# Two learners made for each language's run: (login, first name, last name).
LEARNERS = {
    "fr": [("parcours-ines", "Inès", "Garnier"), ("parcours-jules", "Jules", "Perrin")],
    "en": [("parcours-nora", "Nora", "Blanc"), ("parcours-yann", "Yann", "Colin")],
}
MODULE_NAMES = {"fr": "Consignation : parcours de bout en bout", "en": "Lockout: end-to-end path"}
PATH_TITLES = {"fr": "Parcours consignation de l'atelier", "en": "Workshop lockout path"}
LINK_LABEL = "Spot : la plateforme"
DEMO_COURSE = "Consignation des énergies"
DEMO_QUIZ = "Quiz consignation"
# The demo quiz's right answers (docs/learning-platform.md): five out of five, a grade of 10.
RIGHT_ANSWERS = {"q1": "b", "q2": "c", "q3": "a", "q4": "d", "q5": "b"}
# The module asks 8 / 10; the referent gives 6: the module is not passed, which closing warns about.
MODULE_THRESHOLD = 8


def _quiz_item_id(api: httpx.Client) -> int:
    """The demo course's quiz, found in its course tree."""
    course = next(c for c in api.get("/lms/courses").json() if c["title"] == DEMO_COURSE)
    tree = api.get(f"/lms/courses/{course['id']}").json()
    pending = [tree]
    while pending:
        node = pending.pop()
        if node.get("type") == "quiz" and node.get("name") == DEMO_QUIZ:
            return int(node["id"])
        pending.extend(node.get("children", []))
    raise AssertionError(f"no {DEMO_QUIZ} in {DEMO_COURSE}")


def make_learners_and_module(base_url: str, language: str) -> dict[str, Any]:
    """Two learners among the operators, and a module of a web link, a subject and the demo quiz."""
    with admin_client(base_url) as api:
        operators = next(g["id"] for g in api.get("/user/groups").json() if g["name"] == "Opérateurs")
        learners = []
        for login, first, last in LEARNERS[language]:
            created = api.put(
                "/user/create",
                json={
                    "login": login,
                    "password": DEMO_PASSWORD,
                    "firstName": first,
                    "lastName": last,
                    "groupIds": [operators],
                },
            )
            assert created.status_code == 200, created.text
            learners.append({"login": login, "name": f"{first} {last}"})
        quiz = _quiz_item_id(api)
    # A subject the learner reads (the operators' visibility), found as the learner sees the map.
    token = httpx.post(
        f"{base_url}{API}/account/login",
        json={"username": learners[0]["login"], "password": DEMO_PASSWORD, "returnUrl": ""},
    ).json()["token"]
    subject = httpx.post(
        f"{base_url}{API}/subject/query",
        headers={"x-access-token": token},
        json={"filter": "", "sort": "code", "page": 1, "pageSize": 1},
    ).json()["results"][0]
    with admin_client(base_url) as api:
        module = api.post(
            "/training/module",
            json={
                "name": MODULE_NAMES[language],
                "moduleType": "training",
                "goals": "Consigner la machine avant tout réglage.",
                "estimatedDuration": 60,
                "periodicity": 0,
                "passThreshold": MODULE_THRESHOLD,
                "moduleItems": [
                    {"type": "url", "url": f"{base_url}/spotv2/lms", "label": LINK_LABEL},
                    {"type": "spot", "spotItemType": "subject", "spotItemId": subject["id"]},
                    {"type": "lms", "lmsCourseId": quiz},
                ],
            },
        )
        assert module.status_code == 200, module.text
    return {"learners": learners, "subject": subject, "module": MODULE_NAMES[language]}


def pick(scope: Page | Locator, page: Page, label: str, text: str, option: str) -> None:
    field = scope.get_by_role("combobox", name=re.compile(f"^{re.escape(label)}"))
    field.click()
    field.fill(text)
    page.get_by_role("option", name=option, exact=True).click()


def create_paths(page: Page, texts: dict, facts: dict[str, Any], title: str) -> None:
    """The training manager's part: one path per learner, from the plus menu."""
    page.get_by_role("banner").get_by_role("button", name=texts["create"], exact=True).click()
    page.get_by_role("menu").get_by_role("menuitem", name=texts["newPath"], exact=True).click()
    expect(page.get_by_role("heading", name=texts["newPath"], exact=True)).to_be_visible()
    for learner in facts["learners"]:
        pick(page, page, texts["learners"], learner["name"].split()[0], learner["name"])
    page.get_by_role("textbox", name=re.compile(f"^{texts['title']}")).fill(title)
    page.get_by_role("button", name=texts["addModule"], exact=True).click()
    row = page.get_by_role("listitem", name=re.compile(r"^Module 1$"))
    pick(row, page, texts["module"], facts["module"].split()[0], facts["module"])
    pick(row, page, texts["referents"], "Laurent", REFERENT[1])
    page.get_by_role("button", name=texts["save"], exact=True).click()
    expect(page).to_have_url(re.compile(r"/spotv2/training/paths$"))
    expect(page.get_by_role("heading", name=texts["list"], exact=True)).to_be_visible()


def path_card(page: Page, texts: dict, title: str, learner: str) -> Locator:
    cards = page.get_by_role("article", name=title, exact=True)
    return cards.filter(has_text=texts["learnerOf"].format(learner))


def expect_status(page: Page, texts: dict, status: str) -> None:
    expect(page.get_by_label(texts["status"].format(texts["statuses"][status]), exact=True)).to_be_visible()


def module_panel(page: Page, name: str) -> Locator:
    return page.get_by_role("region", name=re.compile(re.escape(name))).first


def open_module(page: Page, name: str) -> None:
    """The module's panel, expanded when it is not yet."""
    summary = page.get_by_role("button", name=re.compile(f"^{re.escape(name)}"))
    if summary.get_attribute("aria-expanded") == "false":
        summary.click()
    expect(summary).to_have_attribute("aria-expanded", "true")


def sign_dialog(page: Page, texts: dict, name: str) -> None:
    dialog = page.get_by_role("dialog", name=name, exact=True)
    dialog.get_by_role("textbox", name=re.compile(f"^{texts['comment']}")).fill("Merci, c'était clair.")
    dialog.get_by_role("button", name=texts["signSubmit"], exact=True).click()
    expect(dialog).to_be_hidden()


def pass_the_quiz(context: BrowserContext, page: Page, texts: dict) -> None:
    with context.expect_page() as opened:
        page.get_by_role("button", name=texts["launch"].format(DEMO_QUIZ), exact=True).click()
    quiz = opened.value
    expect(quiz.get_by_role("heading", level=1, name=DEMO_QUIZ)).to_be_visible()
    submit = quiz.get_by_role("button", name="Valider mes réponses")
    expect(submit).to_be_enabled()
    for question, answer in RIGHT_ANSWERS.items():
        quiz.locator(f"#{question}-{answer}").check()
    submit.click()
    expect(quiz.get_by_role("status")).to_have_text("Votre score : 5 / 5, soit 10 sur 10. Quiz réussi.")
    quiz.close()
    page.bring_to_front()


@IN_EACH_LANGUAGE
def test_a_path_is_created_accepted_followed_graded_closed_and_signed(
    context: BrowserContext, page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    title = PATH_TITLES[language]
    facts = make_learners_and_module(base_url, language)
    learner = facts["learners"][0]
    module = facts["module"]

    sign_in(page, base_url, MANAGER, language)
    create_paths(page, texts, facts, title)
    for each in facts["learners"]:
        expect(path_card(page, texts, title, each["name"])).to_be_visible()
    card = path_card(page, texts, title, learner["name"])
    path_url = card.get_by_role("link", name=title, exact=True).get_attribute("href")
    assert path_url is not None and re.search(r"/training/path/view/\d+$", path_url)
    path_url = path_url.removeprefix("/spotv2")

    # The learner accepts her path.
    sign_in(page, base_url, learner["login"], language, to=f"/spotv2{path_url}")
    expect_status(page, texts, "notAccepted")
    page.get_by_role("button", name=texts["accept"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["acceptTitle"], exact=True)
    dialog.get_by_role("button", name=texts["accept"], exact=True).click()
    expect_status(page, texts, "accepted")

    # The referent starts the path, then its module.
    sign_in(page, base_url, REFERENT[0], language, to=f"/spotv2{path_url}")
    page.get_by_role("button", name=texts["start"], exact=True).click()
    expect_status(page, texts, "started")
    open_module(page, module)
    page.get_by_role("button", name=texts["startNow"], exact=True).click()
    expect(page.get_by_role("button", name=texts["startNow"], exact=True)).to_have_count(0)

    # The learner opens the web link and the subject, and passes the demo quiz.
    sign_in(page, base_url, learner["login"], language, to=f"/spotv2{path_url}")
    open_module(page, module)
    results = page.get_by_role("list", name=texts["elementsOf"].format(module), exact=True)
    elements = results.get_by_role("listitem")
    with context.expect_page() as opened:
        page.get_by_role("link", name=re.compile(re.escape(LINK_LABEL))).click()
    opened.value.close()
    page.bring_to_front()
    expect(elements.nth(0)).to_contain_text(texts["doneOn"])
    page.get_by_role("link", name=re.compile(re.escape(facts["subject"]["name"]))).first.click()
    expect(page).to_have_url(re.compile(r"/spotv2/subject/\d+$"))
    page.go_back()
    open_module(page, module)
    expect(elements.nth(1)).to_contain_text(texts["doneOn"])
    pass_the_quiz(context, page, texts)
    page.reload()
    open_module(page, module)
    expect(elements.nth(2)).to_contain_text(re.compile(re.escape(texts["quizResult"]) + "10"))
    expect(elements.nth(2)).to_contain_text(texts["doneOn"])

    # The referent grades the module, under its threshold.
    sign_in(page, base_url, REFERENT[0], language, to=f"/spotv2{path_url}")
    open_module(page, module)
    page.get_by_role("button", name=texts["grade"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["gradeTitle"].format(module), exact=True)
    slider = dialog.get_by_role("slider")
    slider.focus()
    # The keyboard moves the grade by whole points; the field beside the slider shows it.
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuenow", "6")
    expect(dialog.get_by_role("textbox", name=texts["gradeField"], exact=True)).to_have_value("6")
    comment = dialog.get_by_role("textbox", name=re.compile(f"^{texts['comment']}"))
    comment.fill("Encore un effort sur la vérification.")
    dialog.get_by_role("button", name=texts["gradeSubmit"], exact=True).click()
    expect(dialog).to_be_hidden()

    # The learner signs the module.
    sign_in(page, base_url, learner["login"], language, to=f"/spotv2{path_url}")
    open_module(page, module)
    page.get_by_role("button", name=texts["signModule"], exact=True).click()
    sign_dialog(page, texts, texts["signModuleTitle"].format(module))
    expect(page.get_by_role("button", name=texts["signModule"], exact=True)).to_have_count(0)

    # The creator closes the path, warned that the module is not passed.
    sign_in(page, base_url, MANAGER, language, to=f"/spotv2{path_url}")
    expect_status(page, texts, "finished")
    page.get_by_role("button", name=texts["close"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["closeTitle"], exact=True)
    expect(dialog.get_by_text(texts["notPassed"], exact=True)).to_be_visible()
    dialog.get_by_role("textbox", name=re.compile(f"^{texts['comment']}")).fill("Parcours suivi en entier.")
    dialog.get_by_role("button", name=texts["closeSubmit"], exact=True).click()
    expect(dialog).to_be_hidden()
    expect_status(page, texts, "validated")

    # The learner signs the path; its card shows it archived.
    sign_in(page, base_url, learner["login"], language, to=f"/spotv2{path_url}")
    page.get_by_role("button", name=texts["signPath"], exact=True).click()
    sign_dialog(page, texts, texts["signPathTitle"].format(title))
    expect_status(page, texts, "archived")
    page.goto(f"{base_url}/spotv2/training/paths")
    card = path_card(page, texts, title, learner["name"])
    expect(card.get_by_role("listitem", name=texts["archivedStep"], exact=True)).to_be_visible()
