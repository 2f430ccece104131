"""Stored files in an S3-compatible object store (SPOT_FILE_STORE=s3://bucket/prefix), against a real
S3-protocol server (tests/object_server.py): what the folder store does, the object store does, through
the same interface and the same routes; a store that stops answering is a clear error and leaves
nothing half-stored; `spot migrate-files` copies one store to another and checks every file."""

import hashlib
import io
import threading
import tracemalloc
import zipfile

import pytest
from typer.testing import CliRunner

from resources.gallery import EDIT, PDF, add, gallery_url, image
from spot.cli import app as cli
from spot.core import files
from spot.core.errors import ApiError
from spot.lms import package
from support import API, assert_error


@pytest.fixture
def editor(make_user, login):
    return login(make_user("editeur", [EDIT]))


@pytest.fixture
def subject(test_map):
    return ("subject", test_map.subject("S1"))


def names(client, headers, parent):
    return [r["name"] for r in client.get(gallery_url(*parent), headers=headers).json()["resources"]]


def _objects(s3_server, address: str) -> set[str]:
    bucket, prefix = address.removeprefix("s3://").split("/", 1)
    listed = s3_server.client().list_objects_v2(Bucket=bucket, Prefix=f"{prefix}/")
    return {item["Key"].removeprefix(f"{prefix}/") for item in listed.get("Contents", ())}


def test_the_store_keeps_reads_lists_and_removes_files(s3_store, s3_server, tmp_path) -> None:
    store = files.get_file_store()
    assert type(store).__name__ == "S3FileStore"
    store.check()
    name = f"{'a' * 32}.bin"
    (tmp_path / "f").write_bytes(b"0123456789" * 1000)
    store.adopt(tmp_path / "f", name)
    assert not (tmp_path / "f").exists()  # moved, as into a folder
    assert _objects(s3_server, s3_store) == {name}
    assert store.get(name) == b"0123456789" * 1000
    with store.open(name) as stream:
        stream.seek(9993)
        assert stream.read(7) == b"3456789"
        stream.seek(3)
        assert stream.read(2) == b"34"
    assert list(store.names()) == [name]
    store.delete(name)
    assert list(store.names()) == []
    for missing in (name, "../etc/passwd", "x"):
        with pytest.raises(ApiError) as raised:
            store.open(missing)
        assert (raised.value.status, raised.value.message) == (404, "fileNotFound")


def test_a_resource_goes_up_and_is_served_as_from_a_folder(
    s3_store, s3_server, client, editor, subject
) -> None:
    picture = image(1600, 900)
    before = _objects(s3_server, s3_store)  # the test map's plans and pictures
    created = add(client, editor, subject, "image", "Poste", "poste.png", picture)
    assert created.status_code == 200, created.text
    resource = created.json()
    # The file and its thumbnail, nothing else, in the bucket; nothing left in the scratch folder.
    assert len(_objects(s3_server, s3_store) - before) == 2
    assert list(files.scratch_folder().iterdir()) == []

    served = client.get(resource["fileUrl"], headers=editor)
    assert served.status_code == 200 and served.content == picture
    assert served.headers["content-length"] == str(len(picture))
    assert served.headers["content-type"] == "image/png"
    again = client.get(resource["fileUrl"], headers={**editor, "If-None-Match": served.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    thumbnail = client.get(resource["thumbnailUrl"], headers=editor)
    assert thumbnail.status_code == 200 and thumbnail.content[:3] == b"\xff\xd8\xff"  # a JPEG

    removed = client.delete(f"{gallery_url(*subject)}/{resource['id']}", headers=editor)
    assert removed.status_code in (200, 204), removed.text
    assert _objects(s3_server, s3_store) == before


def test_a_30_mb_file_goes_up_in_parts_without_its_size_in_memory(s3_store, tmp_path) -> None:
    size = 30_000_000
    path = tmp_path / "big.bin"
    with path.open("wb") as out:
        for index in range(30):
            out.write(bytes([index]) * 1_000_000)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    store = files.get_file_store()
    name = f"{'b' * 32}.bin"
    tracemalloc.start()
    try:
        store.adopt(path, name)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # Each part is read from the file as it is sent: far under the file's 30 MB, and under the 10 MB
    # above idle that DESIGN §8 allows an upload (4.4 MB measured).
    assert peak < 10_000_000, peak
    read = hashlib.sha256()
    total = 0
    with store.open(name) as stream:
        while chunk := stream.read(1 << 20):
            read.update(chunk)
            total += len(chunk)
    assert (total, read.hexdigest()) == (size, digest)


def test_a_course_package_is_read_from_the_store_by_seeking(s3_store, db) -> None:
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("index.html", "<html>1</html>")
        archive.writestr("media/clip.bin", bytes(range(256)) * 4000)
    name = files.store(db, zipped.getvalue(), extension="zip")
    db.commit()
    size, chunks = package.member_chunks(files.get_file_store().open(name), "media/clip.bin")
    assert size == 1_024_000 and b"".join(chunks) == bytes(range(256)) * 4000


def test_a_store_that_stops_answering_fails_the_upload_clearly_and_keeps_nothing(
    s3_store, s3_server, client, editor, subject
) -> None:
    assert names(client, editor, subject) == []
    s3_server.stop()
    try:
        refused = add(client, editor, subject, "pdf", "Notice", "notice.pdf", PDF)
        assert_error(refused, 503, "fileStoreUnavailable")
        assert list(files.scratch_folder().iterdir()) == []
    finally:
        s3_server.start()
    # The server came back empty: the bucket is made again; nothing was listed meanwhile.
    bucket = s3_store.removeprefix("s3://").split("/")[0]
    s3_server.client().create_bucket(Bucket=bucket)
    assert names(client, editor, subject) == []
    ready = client.get(f"{API}/health/ready")
    assert ready.status_code == 200, ready.text


def test_a_store_that_fails_on_a_second_file_leaves_no_object_of_the_first(s3_store, s3_server, db) -> None:
    """The second of two files fails to go up: the transaction rolls back, and the first one is
    removed from the store again."""
    first = files.store(db, b"first", extension="bin")
    assert _objects(s3_server, s3_store) == {first}
    s3_server.stop()
    try:
        with pytest.raises(ApiError) as raised:
            files.store(db, b"second", extension="bin")
        assert (raised.value.status, raised.value.message) == (503, "fileStoreUnavailable")
    finally:
        s3_server.start()
    bucket = s3_store.removeprefix("s3://").split("/")[0]
    s3_server.client().create_bucket(Bucket=bucket)
    s3_server.client().put_object(Bucket=bucket, Key=f"files/{first}", Body=b"first")  # as before the stop
    db.rollback()
    assert _objects(s3_server, s3_store) == set()
    assert list(files.scratch_folder().iterdir()) == []


def test_readiness_says_when_the_store_does_not_answer(s3_store, s3_server, client) -> None:
    s3_server.stop()
    try:
        answer = client.get(f"{API}/health/ready")
    finally:
        s3_server.start()
    assert answer.status_code == 503 and answer.json()["fileStore"] == "unreachable"


def test_migrate_files_copies_a_folder_to_the_object_store_and_checks_every_file(
    s3_server, settings_env, tmp_path, db
) -> None:
    settings_env(SPOT_FILE_STORE=str(tmp_path / "folder"))
    kept = {files.store(db, f"file {index}".encode() * 100, extension="txt") for index in range(5)}
    db.commit()
    target = f"s3://{s3_server.new_bucket()}/copy"
    env = {
        "SPOT_S3_ENDPOINT_URL": s3_server.url,
        "SPOT_S3_REGION": "us-east-1",
        "AWS_ACCESS_KEY_ID": "spot-tests",
        "AWS_SECRET_ACCESS_KEY": "spot-tests-secret",
    }
    settings_env(**env)
    runner = CliRunner()
    first = runner.invoke(cli, ["migrate-files", "--to", target])
    assert first.exit_code == 0, first.output
    assert "5 copied, 0 already there, 5 checked" in first.output
    assert _objects(s3_server, target) == kept
    copied = files.store_at(target)
    for name in kept:
        assert copied.get(name) == files.get_file_store().get(name)

    again = runner.invoke(cli, ["migrate-files", "--to", target])
    assert again.exit_code == 0 and "0 copied, 5 already there, 5 checked" in again.output

    # A damaged copy is found, said, and copied again.
    damaged = sorted(kept)[0]
    bucket = target.removeprefix("s3://").split("/")[0]
    s3_server.client().put_object(Bucket=bucket, Key=f"copy/{damaged}", Body=b"damaged")
    repaired = runner.invoke(cli, ["migrate-files", "--to", target])
    assert repaired.exit_code == 0 and "1 copied, 4 already there, 5 checked" in repaired.output
    assert copied.get(damaged) == files.get_file_store().get(damaged)


def test_migrate_files_refuses_a_target_that_is_the_store_itself(settings_env, tmp_path) -> None:
    settings_env(SPOT_FILE_STORE=str(tmp_path / "folder"))
    refused = CliRunner().invoke(cli, ["migrate-files", "--to", str(tmp_path / "folder")])
    assert refused.exit_code == 2 and "is the store itself" in refused.output


def test_uploads_through_two_threads_each_reach_the_store(s3_store, s3_server, db, app) -> None:
    """The store's client is shared by the threads of a process (request threads, the job runner)."""
    from spot.db import session_factory

    made: list[str] = []

    def one(index: int) -> None:
        with session_factory()() as session:
            made.append(files.store(session, f"thread {index}".encode(), extension="bin"))
            session.commit()

    threads = [threading.Thread(target=one, args=(index,)) for index in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert _objects(s3_server, s3_store) == set(made) and len(made) == 4


@pytest.mark.parametrize("store", ["folder", "s3"])
def test_a_range_of_a_file_is_served_from_either_store(store, request, client, editor, subject) -> None:
    """A video's seek: 206 with the bytes asked and Content-Range; 416 outside the file; the whole file
    for what cannot be read as one range, or an If-Range that is not the file's ETag."""
    if store == "s3":
        request.getfixturevalue("s3_store")
    content = bytes(range(256)) * 40  # 10,240 bytes
    url = add(client, editor, subject, "file", "Clip", "clip.bin", content).json()["fileUrl"]
    whole = client.get(url, headers=editor)
    assert whole.status_code == 200 and whole.headers["accept-ranges"] == "bytes"
    etag = whole.headers["etag"]

    def get(**headers: str):
        return client.get(url, headers={**editor, **headers})

    for asked, first, last in (
        ("bytes=0-99", 0, 99),
        ("bytes=10000-", 10000, 10239),
        ("bytes=-40", 10200, 10239),
    ):
        part = get(Range=asked)
        assert part.status_code == 206, (asked, part.status_code)
        assert part.headers["content-range"] == f"bytes {first}-{last}/10240"
        assert part.headers["content-length"] == str(last - first + 1)
        assert part.content == content[first : last + 1]
    assert get(Range="bytes=10000-99999").content == content[10000:]  # the end past the file: to its end
    for outside in ("bytes=10240-", "bytes=-0", "bytes=50-10"):
        refused = get(Range=outside)
        assert refused.status_code == 416 and refused.headers["content-range"] == "bytes */10240"
    for unread in (
        {"Range": "bytes=0-1,5-6"},
        {"Range": "lines=1-2"},
        {"Range": "bytes=0-9", "If-Range": '"old"'},
    ):
        assert get(**unread).status_code == 200 and get(**unread).content == content
    assert get(Range="bytes=0-9", **{"If-Range": etag}).status_code == 206
