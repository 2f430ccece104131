"""The people journeys, each in French or English (their texts are in both):

- the leaver (fr): the administrator creates a person with an e-mail address (one that is not an
  address is refused on its field, what was typed kept), deactivates them after confirming, sees them
  marked inactive in the users list, and the person's right password is then answered with the account
  being deactivated;
- the HR file (en): a preview with one bad row, the file fixed, applied, the people found;
- a person who left (en): deactivated again, marked inactive on the path he signed;
- the identity provider's API token (fr): shown once, opens SCIM, refused once revoked.

axe checks every page and dialog on the way (conftest)."""

import re
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from conftest import API, admin_client, in_language, sign_in

TEXTS: dict[str, dict[str, Any]] = {
    "fr": {
        "create": "Nouvel utilisateur",
        "login": "Identifiant",
        "firstName": "Prénom",
        "lastName": "Nom",
        "email": "Adresse e-mail",
        "password": "Mot de passe",
        "save": "Enregistrer",
        "notAnEmail": "Ce n'est pas une adresse e-mail",
        "created": "Utilisateur créé",
        "deactivate": "Désactiver",
        "deactivateTitle": "Désactiver cette personne ?",
        "deactivated": "Personne désactivée",
        "inactive": "Inactif",
        "account": "Compte",
        "signIn": "Se connecter",
        "refused": "Ce compte est désactivé",
    },
    "en": {
        "create": "New user",
        "login": "Login",
        "firstName": "First name",
        "lastName": "Last name",
        "email": "E-mail address",
        "password": "Password",
        "save": "Save",
        "notAnEmail": "This is not an e-mail address",
        "created": "User created",
        "deactivate": "Deactivate",
        "deactivateTitle": "Deactivate this person?",
        "deactivated": "Person deactivated",
        "inactive": "Inactive",
        "account": "Account",
        "signIn": "Sign in",
        "refused": "This account is deactivated",
    },
}
PASSWORD = "depart-2026-juin"


@in_language("fr")
def test_an_administrator_deactivates_a_person_who_left(page: Page, base_url: str, language: str) -> None:
    texts = TEXTS[language]
    login = f"lea.depart.{language}"
    sign_in(page, base_url, "admin", language, to="/spotv2/administration/users")
    page.get_by_role("button", name=texts["create"]).click()
    dialog = page.get_by_role("dialog", name=texts["create"])
    dialog.get_by_role("textbox", name=texts["login"], exact=True).fill(login)
    dialog.get_by_role("textbox", name=texts["firstName"], exact=True).fill("Léa")
    dialog.get_by_role("textbox", name=texts["lastName"], exact=True).fill("Départ")
    dialog.get_by_role("textbox", name=texts["email"], exact=True).fill("lea.depart-usine")
    dialog.get_by_label(texts["password"]).fill(PASSWORD)
    dialog.get_by_role("button", name=texts["save"]).click()
    expect(dialog.get_by_text(texts["notAnEmail"])).to_be_visible()
    expect(dialog.get_by_role("textbox", name=texts["firstName"], exact=True)).to_have_value("Léa")
    email = dialog.get_by_role("textbox", name=texts["email"], exact=True)
    email.fill(f"Lea.Depart.{language}@Usine-Demo.example")
    dialog.get_by_role("button", name=texts["save"]).click()
    expect(page.get_by_text(texts["created"])).to_be_visible()

    card = page.get_by_role("article", name="Léa Départ")
    expect(card).to_contain_text(f"lea.depart.{language}@usine-demo.example")
    card.get_by_role("button", name=f"{texts['deactivate']} Léa Départ").click()
    confirm = page.get_by_role("dialog", name=texts["deactivateTitle"])
    confirm.get_by_role("button", name=texts["deactivate"]).click()
    expect(page.get_by_text(texts["deactivated"])).to_be_visible()
    expect(card.get_by_text(texts["inactive"], exact=True)).to_be_visible()

    # The person's right password now says why they cannot come in.
    page.context.clear_cookies()
    page.goto(f"{base_url}/spotv2/login")
    page.get_by_label(texts["login"]).fill(login)
    page.get_by_label(texts["password"]).fill(PASSWORD)
    page.get_by_role("button", name=texts["signIn"]).click()
    expect(page.get_by_text(re.compile(texts["refused"]))).to_be_visible()
    expect(page).to_have_url(re.compile(r"/spotv2/login"))


IMPORT_TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "tab": "Import",
        "users": "Utilisateurs",
        "choose": "Choisir un fichier",
        "rows": "Les lignes du fichier",
        "refused": "Refusée",
        "reason": "email : Ce n'est pas une adresse e-mail",
        "fixFirst": "Rien ne peut être importé tant qu'une ligne est refusée",
        "apply": "Appliquer l'import",
        "done": "L'import est fait.",
    },
    "en": {
        "tab": "Import",
        "users": "Users",
        "choose": "Choose a file",
        "rows": "The file's rows",
        "refused": "Refused",
        "reason": "email: This is not an e-mail address",
        "fixFirst": "Nothing can be imported while a row is refused",
        "apply": "Apply the import",
        "done": "The import is done.",
    },
}


def _people_file(language: str, second_email: str) -> dict[str, object]:
    lines = [
        "login;firstName;lastName;externalId;email;groups;active",
        f"imp.soudeur.{language};Sami;Soudeur;HR-{language}-1;sami.soudeur.{language}@usine-demo.example;Opérateurs;oui",
        f"imp.cariste.{language};Inès;Cariste;HR-{language}-2;{second_email};Opérateurs|Maintenance;",
    ]
    content = ("\ufeff" + "\r\n".join(lines) + "\r\n").encode()
    return {"name": "personnes.csv", "mimeType": "text/csv", "buffer": content}


@in_language("en")
def test_an_administrator_imports_people_from_an_hr_file(page: Page, base_url: str, language: str) -> None:
    texts = IMPORT_TEXTS[language]
    sign_in(page, base_url, "admin", language, to="/spotv2/administration/users?tab=import")
    expect(page.get_by_role("tab", name=texts["tab"])).to_have_attribute("aria-selected", "true")
    page.get_by_label(texts["choose"]).set_input_files(_people_file(language, "ines-cariste"))
    table = page.get_by_role("table", name=texts["rows"])
    refused = table.get_by_role("row", name=re.compile(f"imp.cariste.{language}"))
    expect(refused).to_contain_text(texts["refused"])
    expect(refused).to_contain_text(texts["reason"])
    expect(page.get_by_role("status")).to_contain_text(texts["fixFirst"])
    expect(page.get_by_role("button", name=texts["apply"])).to_have_count(0)

    # The file corrected and chosen again: previewed clean, then applied.
    page.get_by_label(texts["choose"]).set_input_files(
        _people_file(language, f"ines.cariste.{language}@usine-demo.example")
    )
    page.get_by_role("button", name=texts["apply"]).click()
    expect(page.get_by_role("status")).to_contain_text(texts["done"])

    page.get_by_role("tab", name=texts["users"], exact=True).click()
    card = page.get_by_role("article", name=f"Inès Cariste (HR-{language}-2)")
    expect(card).to_contain_text(f"ines.cariste.{language}@usine-demo.example")
    expect(card.get_by_text("Maintenance")).to_be_visible()


LEFT_TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "inactive": "Inactif",
        "signatures": "Signatures",
        "details": "Détails",
        "reactivate": "Réactiver",
        "reactivated": "Personne réactivée",
        "deactivate": "Désactiver",
        "deactivateTitle": "Désactiver cette personne ?",
        "deactivated": "Personne désactivée",
    },
    "en": {
        "inactive": "Inactive",
        "signatures": "Signatures",
        "details": "Details",
        "reactivate": "Reactivate",
        "reactivated": "Person reactivated",
        "deactivate": "Deactivate",
        "deactivateTitle": "Deactivate this person?",
        "deactivated": "Person deactivated",
    },
}


@in_language("en")
def test_a_person_who_left_stays_named_marked_inactive_on_the_path_they_signed(
    page: Page, base_url: str, language: str
) -> None:
    """The demo's Julien Bernard signed his forklift path, then left: the administrator brings him back
    (his path names him plainly), deactivates him again, and his path shows him, still named, marked
    inactive beside his signatures."""
    texts = LEFT_TEXTS[language]
    with admin_client(base_url) as api:
        [julien] = api.get("/user/search", params={"name": "Julien", "includeInactive": "true"}).json()
        paths = api.post("/training/path/query", json={"filter": f"learner oneOf {julien['id']}"}).json()
    [path_id] = [card["id"] for card in paths["results"]]
    path_page = f"{base_url}/spotv2/training/path/view/{path_id}"
    sign_in(page, base_url, "admin", language, to="/spotv2/administration/users")
    card = page.get_by_role("article", name="Julien Bernard")
    expect(card.get_by_text(texts["inactive"], exact=True)).to_be_visible()
    card.get_by_role("button", name=f"{texts['reactivate']} Julien Bernard").click()
    expect(page.get_by_text(texts["reactivated"])).to_be_visible()
    expect(card.get_by_text(texts["inactive"], exact=True)).to_have_count(0)

    page.goto(path_page)
    details = page.get_by_role("region", name=texts["details"])
    expect(details).to_contain_text("Julien Bernard")
    expect(details.get_by_text(texts["inactive"], exact=True)).to_have_count(0)

    page.goto(f"{base_url}/spotv2/administration/users")
    card.get_by_role("button", name=f"{texts['deactivate']} Julien Bernard").click()
    confirm = page.get_by_role("dialog", name=texts["deactivateTitle"])
    confirm.get_by_role("button", name=texts["deactivate"]).click()
    expect(page.get_by_text(texts["deactivated"])).to_be_visible()

    page.goto(path_page)
    expect(details).to_contain_text(f"Julien Bernard{texts['inactive']}")
    signatures = page.get_by_role("list", name=texts["signatures"]).first
    signed = signatures.get_by_role("listitem").filter(has_text="Julien Bernard")
    expect(signed.first.get_by_text(texts["inactive"], exact=True)).to_be_visible()


TOKEN_TEXTS: dict[str, dict[str, str]] = {
    "fr": {
        "tab": "Jetons d'API",
        "new": "Nouveau jeton",
        "newTitle": "Nouveau jeton d'API",
        "name": "Nom",
        "create": "Créer",
        "value": "Jeton",
        "done": "Terminé",
        "live": "Actif",
        "revoke": "Révoquer",
        "revokeTitle": "Révoquer ce jeton ?",
        "revokedOn": "Révoqué le",
    },
    "en": {
        "tab": "API tokens",
        "new": "New token",
        "newTitle": "New API token",
        "name": "Name",
        "create": "Create",
        "value": "Token",
        "done": "Done",
        "live": "Live",
        "revoke": "Revoke",
        "revokeTitle": "Revoke this token?",
        "revokedOn": "Revoked on",
    },
}


def _scim_users(base_url: str, token: str) -> httpx.Response:
    return httpx.get(
        f"{base_url}{API}/scim/v2/Users",
        params={"filter": 'userName eq "admin"'},
        headers={"Authorization": f"Bearer {token}"},
    )


@in_language("fr")
def test_an_administrator_gives_the_identity_provider_a_token_then_revokes_it(
    page: Page, base_url: str, language: str
) -> None:
    """The token is shown once, opens SCIM (the provider finds the administrator by userName), and is
    refused once revoked."""
    texts = TOKEN_TEXTS[language]
    name = f"Okta {language}"
    sign_in(page, base_url, "admin", language, to="/spotv2/administration/users?tab=tokens")
    table = page.get_by_role("table", name=texts["tab"])
    expect(table.get_by_role("row", name=re.compile("Microsoft Entra ID"))).to_contain_text(texts["live"])
    old = table.get_by_role("row", name=re.compile("Ancien connecteur RH"))
    expect(old).to_contain_text(texts["revokedOn"])

    page.get_by_role("button", name=texts["new"]).click()
    dialog = page.get_by_role("dialog", name=texts["newTitle"])
    dialog.get_by_role("textbox", name=texts["name"], exact=True).fill(name)
    dialog.get_by_role("button", name=texts["create"]).click()
    shown = page.get_by_role("dialog").get_by_role("textbox", name=texts["value"], exact=True)
    expect(shown).to_have_value(re.compile(r"^spot_"))
    token = shown.input_value()
    found = _scim_users(base_url, token)
    assert found.status_code == 200 and found.json()["totalResults"] == 1, found.text
    page.get_by_role("button", name=texts["done"]).click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_text(token)).to_have_count(0)

    row = table.get_by_role("row", name=re.compile(name))
    row.get_by_role("button", name=f"{texts['revoke']} {name}").click()
    page.get_by_role("dialog", name=texts["revokeTitle"]).get_by_role("button", name=texts["revoke"]).click()
    expect(row).to_contain_text(texts["revokedOn"])
    assert _scim_users(base_url, token).status_code == 401
