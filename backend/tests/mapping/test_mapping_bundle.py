import io
import json
import struct
import zipfile
import zlib

import pytest
from sqlalchemy import delete, func, select
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from mapping.maps import FILES, Map, document, import_map, jpeg, load, make_zip, png
from spot.cli import app as cli
from spot.config import get_settings
from spot.db import Base
from spot.mapping import bundle
from spot.mapping.models import Cartography, Site, Subject
from support import API, assert_error, damaged_deflate_zip


@pytest.fixture
def admin(make_user, login):
    return login(make_user("admin-map", ["perm_SetPermissions"]))


def snapshot(db):
    """Row counts of every table and the stored files: what a refused bundle must leave alone (the jobs
    aside: each import is one)."""
    db.expire_all()
    tables = [t for t in Base.metadata.sorted_tables if t.name != "job"]
    counts = {t.name: db.scalar(select(func.count()).select_from(t)) for t in tables}
    files_dir = get_settings().data_dir / "files"
    files = sorted(str(p) for p in files_dir.rglob("*") if p.is_file()) if files_dir.exists() else []
    return counts, files


def manifest(zip_bytes):
    with zipfile.ZipFile(io.BytesIO(zip_bytes)) as archive:
        return json.loads(archive.read("map.json")), {
            n: archive.read(n) for n in archive.namelist() if n != "map.json"
        }


def test_import_by_upload_creates_the_map(client, db, admin):
    response = import_map(client, content=make_zip(), headers=admin)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["created"] == {
        "sites": 1,
        "cartographies": 2,
        "activities": 6,
        "functions": 3,
        "zones": 3,
        "pictograms": 1,
        "subjects": 4,
    }
    assert body["updated"] == {}
    m = Map(db)
    assert body["siteId"] == m.site_id
    subject = db.get(Subject, m.subject("S1"))
    assert (subject.frequency, subject.gravity, subject.criticity_score, subject.has_diagram) == (
        3,
        4,
        48,
        True,
    )
    assert [(n.code, n.name, n.status) for n in subject.mind_map_items] == [
        (0, "Changer une plaquette", "inProgress"),
        (1, "Consigner", "validated"),
    ]
    # A subject without a mind map gets its main node.
    assert [(n.code, n.name) for n in db.get(Subject, m.subject("S2")).mind_map_items] == [
        (0, "Mesurer une cote")
    ]


def test_reimport_updates_and_never_duplicates(client, db, admin):
    import_map(client, content=make_zip(), headers=admin)
    before = snapshot(db)
    again = import_map(client, content=make_zip(), headers=admin)
    assert again.status_code == 200
    assert again.json()["created"] == {"zones": 3}  # zones and pictograms are replaced, the rest kept
    assert snapshot(db) == before

    changed = document()
    changed["cartographies"][0]["name"] = "Atelier renommé"
    changed["cartographies"][0]["activities"][1]["activities"] = [{"code": "A21", "name": "Métrologie"}]
    changed["cartographies"][0]["subjects"][1]["name"] = "Mesurer une cote au pied à coulisse"
    third = import_map(client, content=make_zip(changed), headers=admin)
    assert third.status_code == 200
    assert third.json()["created"]["activities"] == 1
    assert third.json()["updated"]["subjects"] == 1
    m = Map(db)
    db.expire_all()
    assert db.get(Cartography, m.cartography("C1")).name == "Atelier renommé"
    assert db.scalar(select(func.count()).select_from(Subject)) == 4


def stored_names(db) -> set[str]:
    return {path.rsplit("/", 1)[-1] for path in snapshot(db)[1]}


def test_images_a_reimport_replaces_or_drops_leave_the_file_store(client, db, admin):
    earlier = stored_names(db)  # other tests' files: the store outlives their rows
    import_map(client, content=make_zip(), headers=admin)
    m = Map(db)
    db.expire_all()
    plan = db.get(Cartography, m.cartography("C1")).image_ref
    picture = db.get(Subject, m.subject("S1")).picture_ref
    imported = stored_names(db) - earlier
    assert len(imported) == 4 and {plan, picture} <= imported

    changed = document()
    changed["cartographies"][0]["pictograms"] = []
    del changed["cartographies"][0]["subjects"][0]["picture"]
    files = {**FILES, "plan-1.png": png(500, 300)}
    reimported = import_map(client, content=make_zip(changed, files), headers=admin)
    assert reimported.status_code == 200
    db.expire_all()
    assert db.get(Subject, m.subject("S1")).picture_ref is None
    plans = {db.get(Cartography, m.cartography(c)).image_ref for c in ("C1", "C2")}
    assert plan not in plans
    assert stored_names(db) - earlier == plans


def test_a_deleted_subjects_picture_goes_unless_a_duplicate_shares_it(client, db, test_map, make_user, login):
    headers = login(make_user(permissions=["perm_EditPdv", "perm_RemPdv"]))
    original = test_map.subject("S1")
    picture = db.get(Subject, original).picture_ref
    copy = client.post(f"{API}/subject/{original}/duplicate", headers=headers).json()["id"]
    assert client.delete(f"{API}/subject/{original}", headers=headers).status_code == 204
    assert picture in stored_names(db)
    assert client.get(f"{API}/subject/{copy}/picture", headers=headers).status_code == 200
    assert client.delete(f"{API}/subject/{copy}", headers=headers).status_code == 204
    assert picture not in stored_names(db)


def test_reimport_keeps_ratings_the_bundle_leaves_out(db, make_user):
    load(db)
    m = Map(db)
    subject = db.get(Subject, m.subject("S2"))
    subject.frequency, subject.gravity = 5, 5
    db.commit()
    load(db)
    db.expire_all()
    assert (db.get(Subject, m.subject("S2")).frequency, db.get(Subject, m.subject("S2")).gravity) == (5, 5)


def test_export_then_import_gives_the_same_map(client, db, admin):
    import_map(client, content=make_zip(), headers=admin)
    site_id = Map(db).site_id
    exported = client.get(f"{API}/mapping/export/{site_id}", headers=admin)
    assert exported.status_code == 200
    assert exported.headers["content-type"] == "application/zip"
    assert exported.headers["content-disposition"] == 'attachment; filename="TST.zip"'
    first_doc, first_files = manifest(exported.content)
    assert sorted(first_files.values()) == sorted(FILES.values())

    db.execute(delete(Site))
    db.commit()
    assert db.scalar(select(func.count()).select_from(Subject)) == 0
    reimported = import_map(client, content=exported.content, headers=admin)
    assert reimported.status_code == 200, reimported.text
    second = client.get(f"{API}/mapping/export/{reimported.json()['siteId']}", headers=admin)
    second_doc, second_files = manifest(second.content)
    assert second_doc == first_doc
    assert second_files == first_files
    # And the export describes what was imported in the first place.
    original = document()
    assert [c["code"] for c in first_doc["cartographies"]] == ["C1", "C2"]
    assert first_doc["cartographies"][0]["activities"][0]["activities"][1]["activities"][0]["code"] == "A121"
    assert first_doc["cartographies"][0]["zones"] == [
        {**z, "x": float(z["x"]), "y": float(z["y"])} for z in original["cartographies"][0]["zones"]
    ]
    s1 = first_doc["cartographies"][0]["subjects"][0]
    assert (s1["code"], s1["frequency"], s1["gravity"], s1["hasDiagram"]) == ("S1", 3, 4, True)


def test_import_and_export_are_for_administrators(client, db, test_map, make_user, login):
    for permissions in ([], ["perm_EditPdv", "perm_RemPdv", "perm_ValidNotHaute"]):
        headers = login(make_user(permissions=permissions))
        assert_error(import_map(client, content=make_zip(), headers=headers), 403)
        assert_error(client.get(f"{API}/mapping/export/{test_map.site_id}", headers=headers), 403)


def test_export_of_an_unknown_site(client, admin):
    assert_error(client.get(f"{API}/mapping/export/424242", headers=admin), 404)


def _without(doc, path):
    del doc["cartographies"][0][path]
    return doc


def _bad_zone():
    doc = document()
    doc["cartographies"][1]["zones"].append(
        {"type": "activity", "target": "A12", "x": 1, "y": 1, "width": 1, "height": 1}
    )
    return doc


def _with(path_setter):
    doc = document()
    path_setter(doc)
    return doc


BROKEN = [
    ("bad JSON", make_zip(manifest=b'{"format": "spot-map/1", '), "map.json: invalid JSON at line 1"),
    ("not UTF-8", make_zip(manifest=b"\xff\xfe{"), "map.json: not UTF-8 text"),
    ("not a zip", b"PK\x03\x04 this is not a zip", "bundle: not a zip file"),
    ("empty body", b"", "bundle: not a zip file"),
    (
        "damaged compressed manifest",
        damaged_deflate_zip({"map.json": json.dumps(document()).encode(), **FILES}, "map.json"),
        "map.json: unreadable file map.json",
    ),
    (
        "missing image",
        make_zip(files={k: v for k, v in FILES.items() if k != "plan-2.jpg"}),
        "cartographies[1].image: missing file plan-2.jpg",
    ),
    (
        "non-image file",
        make_zip(files={**FILES, "picto.png": b"GIF89a not really"}),
        "cartographies[0].pictograms[0].image: picto.png is not a png or jpeg image",
    ),
    (
        "text as image",
        make_zip(files={**FILES, "photo.jpg": b"<html>hello</html>"}),
        "cartographies[0].subjects[0].picture: photo.jpg is not a png or jpeg image",
    ),
    (
        "truncated png",
        make_zip(files={**FILES, "plan-1.png": FILES["plan-1.png"][:40]}),
        "cartographies[0].image: plan-1.png is not a readable image",
    ),
    ("unknown zone target", make_zip(_bad_zone()), "cartographies[1].zones[1]: unknown activity code A12"),
    (
        "unknown subject function",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][2].update(function="F9"))),
        "cartographies[0].subjects[2]: unknown function code F9",
    ),
    (
        "unknown pictogram activity",
        make_zip(_with(lambda d: d["cartographies"][0]["pictograms"][0].update(activity="B1"))),
        "cartographies[0].pictograms[0]: unknown activity code B1",
    ),
    (
        "duplicate nested activity",
        make_zip(
            _with(
                lambda d: d["cartographies"][0]["activities"][0]["activities"][1]["activities"].append(
                    {"code": "A11", "name": "Doublon"}
                )
            )
        ),
        "cartographies[0].activities[0].activities[1].activities[1].code: duplicate activity code A11",
    ),
    (
        "duplicate cartography",
        make_zip(_with(lambda d: d["cartographies"][1].update(code="C1"))),
        "cartographies[1].code: duplicate cartography code C1",
    ),
    (
        "bad rating",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0].update(gravity=7))),
        "cartographies[0].subjects[0].gravity: Input should be less than or equal to 5",
    ),
    (
        "name with spaces",
        make_zip(_with(lambda d: d["cartographies"][0]["functions"][0].update(name=" F "))),
        "cartographies[0].functions[0].name: Text may not begin or end with whitespace",
    ),
    (
        "unknown field",
        make_zip(_with(lambda d: d.update(colour="red"))),
        "colour: Extra inputs are not permitted",
    ),
    (
        "wrong format",
        make_zip(_with(lambda d: d.update(format="other/2"))),
        "format: Input should be 'spot-map/1'",
    ),
    (
        "missing main node",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0]["mindMap"].pop(0))),
        "cartographies[0].subjects[0].mindMap: the main node (code 0) is missing",
    ),
    (
        "negative width",
        make_zip(_with(lambda d: d["cartographies"][0]["zones"][0].update(width=0))),
        "cartographies[0].zones[0].width: Input should be greater than 0",
    ),
]


@pytest.mark.parametrize("name, data, message", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_bundle_is_refused_and_changes_nothing(client, db, admin, test_map, name, data, message):
    before = snapshot(db)
    response = import_map(client, content=data, headers=admin)
    body = assert_error(response, 400)
    assert body["message"].startswith(message), body["message"]
    assert snapshot(db) == before


def test_a_missing_manifest_is_named(client, db, admin):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("plan.png", FILES["plan-1.png"])
    assert_error(
        import_map(client, content=out.getvalue(), headers=admin),
        400,
        "map.json: missing file map.json",
    )


def test_a_bundle_over_the_size_limit_is_refused_while_reading(client, db, admin, monkeypatch):
    monkeypatch.setattr(bundle, "MAX_BUNDLE_BYTES", 1000)
    assert_error(import_map(client, content=make_zip(), headers=admin), 413, "fileTooBig")

    def chunks():
        for _ in range(20):
            yield b"x" * 100

    assert_error(import_map(client, content=chunks(), headers=admin), 413, "fileTooBig")


def test_a_failure_while_writing_leaves_no_file_behind(db, monkeypatch):
    before = snapshot(db)

    def explode(*args, **kwargs):
        raise RuntimeError("disk full")

    monkeypatch.setattr(bundle, "_write_subject", explode)
    with pytest.raises(RuntimeError):
        bundle.import_bundle(db, data=make_zip(), user=None)
    db.rollback()
    assert snapshot(db) == before


def test_cli_import_map(db, tmp_path):
    path = tmp_path / "map.zip"
    path.write_bytes(make_zip())
    result = CliRunner().invoke(cli, ["import-map", str(path)])
    assert result.exit_code == 0, result.output
    assert "imported site" in result.output
    assert Map(db).cartography("C1")
    broken = tmp_path / "broken.zip"
    broken.write_bytes(make_zip(_bad_zone()))
    before = snapshot(db)
    refused = CliRunner().invoke(cli, ["import-map", str(broken)])
    assert refused.exit_code == 2
    assert "cartographies[1].zones[1]: unknown activity code A12" in refused.output
    assert snapshot(db) == before


def test_an_import_holds_the_map_from_its_start(db):
    """Even when the map itself is unchanged (no trigger takes the version row), an import queues
    map writers from its first statement: two imports of one site wait, never deadlock."""
    import psycopg

    from spot import db as database

    if db.get_bind().dialect.name != "postgresql":
        pytest.skip("SQLite has a single writer")
    load(db)
    bundle.import_bundle(db, data=make_zip(), user=None)  # the same map: no map row changes
    with database.get_engine().connect() as other:
        with pytest.raises(OperationalError) as refused:
            other.exec_driver_sql("SELECT version FROM map_version FOR UPDATE NOWAIT")
        assert isinstance(refused.value.orig, psycopg.errors.LockNotAvailable)
    db.rollback()


# --- hostile bundles: absurd images, deep nesting, numbers that are not numbers ---------------------


def png_claiming(width, height):
    """A PNG whose header claims these dimensions, with no pixel behind them."""

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b""))
        + chunk(b"IEND", b"")
    )


def jpeg_claiming(width, height):
    """A real small JPEG whose frame header is rewritten to claim these dimensions."""
    data = bytearray(jpeg(8, 8))
    start = data.index(b"\xff\xc0") + 5  # marker, length (2), precision (1)
    data[start : start + 4] = struct.pack(">HH", height, width)
    return bytes(data)


def nested_activities(depth):
    """map.json with `depth` levels of activities in the second cartography, written without recursion."""
    doc = document()
    doc["cartographies"][1]["activities"] = "CHAIN"
    doc["cartographies"][1]["zones"] = []
    doc["cartographies"][1]["subjects"] = []
    chain = "".join(
        f'{{"code": "D{level}", "name": "Niveau {level}", "activities": [' for level in range(depth)
    )
    return json.dumps(doc).replace('"CHAIN"', "[" + chain + "]}" * depth + "]").encode()


def deep_manifest(depth):
    return (
        b'{"format": "spot-map/1", "code": "X", "name": "X", "cartographies": '
        + b"[" * depth
        + b"]" * depth
        + b"}"
    )


HOSTILE = [
    (
        "PNG claiming 100000 x 100000",
        make_zip(files={**FILES, "plan-1.png": png_claiming(100_000, 100_000)}),
        "cartographies[0].image: plan-1.png is too large an image",
    ),
    (
        "JPEG claiming 65535 x 65535",
        make_zip(files={**FILES, "plan-2.jpg": jpeg_claiming(65535, 65535)}),
        "cartographies[1].image: plan-2.jpg is too large an image",
    ),
    (
        "PNG claiming 30000 x 10",
        make_zip(files={**FILES, "picto.png": png_claiming(30_000, 10)}),
        "cartographies[0].pictograms[0].image: picto.png is too large an image",
    ),
    (
        "PNG claiming 9000 x 9000",
        make_zip(files={**FILES, "photo.jpg": png_claiming(9000, 9000)}),
        "cartographies[0].subjects[0].picture: photo.jpg is too large an image",
    ),
    ("JSON nested 200,000 deep", make_zip(manifest=deep_manifest(200_000)), "map.json: nested deeper than"),
    (
        "activities nested 3,000 deep",
        make_zip(manifest=nested_activities(3000)),
        "map.json: nested deeper than",
    ),
    (
        "activities nested 51 deep",
        make_zip(manifest=nested_activities(51)),
        "cartographies[1].activities[0]"
        + ".activities[0]" * 50
        + ": activities nested deeper than 50 levels",
    ),
    (
        "infinite x",
        make_zip(manifest=json.dumps(document()).replace('"x": 10', '"x": 1e999', 1).encode()),
        "cartographies[0].zones[0].x: Input should be a finite number",
    ),
    (
        "NaN width",
        make_zip(manifest=json.dumps(document()).replace('"width": ', '"width": NaN, "w": ', 1).encode()),
        "map.json: NaN is not a number",
    ),
    (
        "Infinity height",
        make_zip(_with(lambda d: d["cartographies"][0]["zones"][0].update(height=float("inf")))),
        "map.json: Infinity is not a number",
    ),
    (
        "boolean frequency",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0].update(frequency=True))),
        "cartographies[0].subjects[0].frequency: Input should be a valid integer",
    ),
    (
        "boolean zone coordinate",
        make_zip(_with(lambda d: d["cartographies"][0]["zones"][0].update(y=False))),
        "cartographies[0].zones[0].y: Input should be a valid number",
    ),
    (
        "text rating",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0].update(gravity="4"))),
        "cartographies[0].subjects[0].gravity: Input should be a valid integer",
    ),
    (
        "fractional node code",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0]["mindMap"][1].update(code=1.0))),
        "cartographies[0].subjects[0].mindMap[1].code: Input should be a valid integer",
    ),
    (
        "numeric diagram flag",
        make_zip(_with(lambda d: d["cartographies"][0]["subjects"][0].update(hasDiagram=1))),
        "cartographies[0].subjects[0].hasDiagram: Input should be a valid boolean",
    ),
    (
        "control character in a node name",
        make_zip(
            _with(lambda d: d["cartographies"][0]["subjects"][0]["mindMap"][1].update(name="Con\x00signer"))
        ),
        "cartographies[0].subjects[0].mindMap[1].name: Text may not contain a control character",
    ),
    (
        "lone surrogate in a name",
        make_zip(manifest=json.dumps(_with(lambda d: d.update(name="Site \ud800"))).encode()),
        "name: Text may not contain a control character",
    ),
]


@pytest.mark.parametrize("name, data, message", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_bundle_is_refused_naming_the_entry(client, db, admin, test_map, name, data, message):
    before = snapshot(db)
    response = import_map(client, content=data, headers=admin)
    body = assert_error(response, 400)
    assert body["message"].startswith(message), body["message"]
    assert "\n" not in body["message"]
    assert snapshot(db) == before


def test_activities_nested_50_deep_are_imported(client, db, admin):
    response = import_map(client, content=make_zip(manifest=nested_activities(50)), headers=admin)
    assert response.status_code == 200, response.text
    site_id = response.json()["siteId"]
    exported = client.get(f"{API}/mapping/export/{site_id}", headers=admin)
    doc, _ = manifest(exported.content)
    depth, activities = 0, doc["cartographies"][1]["activities"]
    while activities:
        depth, activities = depth + 1, activities[0]["activities"]
    assert depth == 50


def test_the_export_is_always_strict_json(client, db, admin):
    import_map(client, content=make_zip(), headers=admin)
    exported = client.get(f"{API}/mapping/export/{Map(db).site_id}", headers=admin)
    with zipfile.ZipFile(io.BytesIO(exported.content)) as archive:
        text = archive.read("map.json").decode()

    def refuse(constant):
        raise AssertionError(constant)

    json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(
    "name, data, message", [HOSTILE[0], HOSTILE[4], HOSTILE[5]], ids=["image", "json", "activities"]
)
def test_cli_refuses_a_hostile_bundle_in_one_line(db, tmp_path, name, data, message):
    path = tmp_path / "hostile.zip"
    path.write_bytes(data)
    result = CliRunner().invoke(cli, ["import-map", str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.output.startswith(f"refused: {message}")
    assert result.output.count("\n") == 1
