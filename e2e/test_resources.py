"""The resource gallery's journey, in French (its pages seen again in English): an image, a pdf, a link and a
YouTube video added to a subject (the upload's progress shown), reordered by keyboard, and the carousel opened
on them; axe checks every page and dialog on the way (conftest)."""

import io
import re

from PIL import Image
from playwright.sync_api import Locator, Page, expect

from conftest import admin_client, in_language, sign_in

TEXTS = {
    "fr": {
        "gallery": "Ressources",
        "empty": "Aucune ressource pour l'instant.",
        "add": "Ajouter une ressource",
        "type": "Type",
        "types": {"image": "Image", "pdf": "PDF", "link": "Lien", "youtube": "Vidéo YouTube"},
        "name": "Nom",
        "link": "Adresse du lien",
        "youtube": "Adresse de la vidéo YouTube",
        "file": "Fichier à envoyer",
        "save": "Enregistrer",
        "uploading": "Envoi du fichier",
        "open": "Afficher {}",
        "openLink": "Ouvrir le lien {} dans un nouvel onglet",
        "move": "Déplacer {}",
        "next": "Ressource suivante",
        "close": "Fermer",
        "badYoutube": "Cette adresse YouTube n'est pas valide",
    },
    "en": {
        "gallery": "Resources",
        "empty": "No resource yet.",
        "add": "Add a resource",
        "type": "Type",
        "types": {"image": "Image", "pdf": "PDF", "link": "Link", "youtube": "YouTube video"},
        "name": "Name",
        "link": "Link address",
        "youtube": "YouTube video address",
        "file": "File to send",
        "save": "Save",
        "uploading": "Sending the file",
        "open": "Show {}",
        "openLink": "Open the link {} in a new tab",
        "move": "Move {}",
        "next": "Next resource",
        "close": "Close",
        "badYoutube": "This is not a valid YouTube address",
    },
}
# A subject per language, so that each journey starts with an empty gallery.
SUBJECTS = {"fr": "USI-005", "en": "USI-006"}
# The pdf is sent at this pace, so that its progress shows for a few seconds.
UPLOAD_BYTES_PER_SECOND = 1_000_000
PDF_BYTES = 3_000_000


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (640, 400), "#0074c8").save(out, format="PNG")
    return out.getvalue()


def big_pdf() -> bytes:
    head = (
        b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n"
    )
    return head + b"%" + bytes(PDF_BYTES) + b"\ntrailer<</Root 1 0 R>>\n%%EOF\n"


def subject_id(base_url: str, code: str) -> int:
    with admin_client(base_url) as api:
        page = api.post("/subject/query", json={"filter": "", "sort": "", "page": 1, "pageSize": 100}).json()
    return next(s["id"] for s in page["results"] if s["code"] == code)


def add(
    page: Page,
    texts: dict,
    kind: str,
    name: str,
    *,
    link: str = "",
    file: tuple[str, str, bytes] | None = None,
) -> Locator:
    page.get_by_role("button", name=texts["add"], exact=True).click()
    dialog = page.get_by_role("dialog", name=texts["add"])
    dialog.get_by_role("combobox", name=texts["type"]).click()
    page.get_by_role("option", name=texts["types"][kind], exact=True).click()
    dialog.get_by_role("textbox", name=texts["name"], exact=True).fill(name)
    if kind in ("link", "youtube"):
        dialog.get_by_role("textbox", name=texts[kind], exact=True).fill(link)
    if file is not None:
        file_name, mime, content = file
        dialog.get_by_label(texts["file"]).set_input_files(
            {"name": file_name, "mimeType": mime, "buffer": content}
        )
    dialog.get_by_role("button", name=texts["save"], exact=True).click()
    return dialog


def tile_names(gallery: Locator) -> list[str]:
    return [
        name.strip()
        for name in gallery.get_by_role("listitem").locator("span.MuiTypography-body2").all_inner_texts()
    ]


@in_language("fr")
def test_resources_are_added_reordered_and_shown_in_the_carousel(
    page: Page, base_url: str, language: str
) -> None:
    texts = TEXTS[language]
    subject = subject_id(base_url, SUBJECTS[language])
    # No video site from the test machine: the player's frame gets a page of its own.
    page.route(
        "https://www.youtube-nocookie.com/**",
        lambda route: route.fulfill(body="<p>video</p>", content_type="text/html"),
    )
    sign_in(page, base_url, "createur", language, to=f"/spotv2/subject/{subject}")
    gallery = page.get_by_role("region", name=texts["gallery"], exact=True)
    expect(gallery.get_by_text(texts["empty"])).to_be_visible()

    dialog = add(page, texts, "image", "Photo du poste", file=("poste.png", "image/png", png()))
    expect(dialog).to_be_hidden()
    expect(gallery.locator("img")).to_have_count(1)

    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": 0,
            "downloadThroughput": -1,
            "uploadThroughput": UPLOAD_BYTES_PER_SECOND,
        },
    )
    dialog = add(
        page,
        texts,
        "pdf",
        "Consigne de sécurité électrique",
        file=("consigne.pdf", "application/pdf", big_pdf()),
    )
    progress = dialog.get_by_role("progressbar", name=texts["uploading"])
    expect(progress).to_be_visible()
    expect(dialog).to_be_hidden()
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1},
    )

    add(page, texts, "link", "Fiche INRS", link="https://www.inrs.fr/")
    expect(page.get_by_role("dialog")).to_be_hidden()
    dialog = add(page, texts, "youtube", "Vidéo", link="https://www.youtube.com/watch?v=abc")
    expect(dialog.get_by_text(texts["badYoutube"])).to_be_visible()
    dialog.get_by_role("textbox", name=texts["youtube"], exact=True).fill("https://youtu.be/aqz-KE-bpKQ")
    dialog.get_by_role("button", name=texts["save"], exact=True).click()
    expect(dialog).to_be_hidden()
    # 22 characters or more: 19 and an ellipsis, the whole name for screen readers.
    expect(gallery.get_by_text("Consigne de sécurit…", exact=True)).to_be_visible()
    expect(
        gallery.get_by_role("button", name=texts["open"].format("Consigne de sécurité électrique"))
    ).to_be_visible()
    link = gallery.get_by_role("link", name=texts["openLink"].format("Fiche INRS"))
    expect(link).to_have_attribute("target", "_blank")
    assert tile_names(gallery) == ["Photo du poste", "Consigne de sécurit…", "Fiche INRS", "Vidéo"]

    # The video goes first, by keyboard: picked up, moved left three times, dropped.
    handle = gallery.get_by_role("button", name=texts["move"].format("Vidéo"))
    handle.focus()
    # Each key waits for the move before it to be announced: a key pressed while dnd-kit still
    # measures the tiles was lost (the video stopped at position 2).
    announcer = page.locator("[id^=DndLiveRegion]")
    page.keyboard.press("Space")
    expect(announcer).to_contain_text(re.compile(r"\b4\.$"))
    # dnd-kit's keyboard sensor listens to the arrows from a timer it sets on the pick-up: a timer set
    # now runs after it, whatever the machine's speed (on a loaded one, the announcement came first
    # and the first arrow was lost).
    page.evaluate("() => new Promise((resolve) => setTimeout(resolve))")
    for position in (3, 2, 1):
        page.keyboard.press("ArrowLeft")
        expect(announcer).to_contain_text(re.compile(rf"\b{position}\.$"))
    page.keyboard.press("Space")
    expect(gallery.get_by_role("listitem").first).to_contain_text("Vidéo")
    page.reload()
    gallery = page.get_by_role("region", name=texts["gallery"], exact=True)
    expect(gallery.get_by_role("listitem").first).to_contain_text("Vidéo")
    assert tile_names(gallery) == ["Vidéo", "Photo du poste", "Consigne de sécurit…", "Fiche INRS"]

    gallery.get_by_role("button", name=texts["open"].format("Photo du poste")).click()
    carousel = page.get_by_role("dialog", name="Photo du poste")
    expect(carousel.get_by_role("img", name="Photo du poste")).to_be_visible()
    height = page.viewport_size["height"] if page.viewport_size else 800
    box = page.get_by_test_id("carousel").bounding_box()
    assert box is not None and abs(box["height"] - round(height * 0.9)) <= 1
    carousel.get_by_role("button", name=texts["next"], exact=True).click()
    pdf = page.get_by_role("dialog", name="Consigne de sécurité électrique")
    expect(pdf.locator("iframe")).to_have_attribute("src", re.compile(r"^blob:"))
    pdf.get_by_role("button", name=texts["next"], exact=True).click()
    video = page.get_by_role("dialog", name="Vidéo")
    expect(video.locator("iframe")).to_have_attribute(
        "src", "https://www.youtube-nocookie.com/embed/aqz-KE-bpKQ"
    )
    video.get_by_role("button", name=texts["close"], exact=True).click()
    expect(page.get_by_role("dialog")).to_be_hidden()
