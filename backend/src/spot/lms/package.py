"""cmi5 course packages (cmi5 §13 course structure, §14 course package): a zip holding `cmi5.xml` at its
root and the content of its assignable units. The archive is read without trusting its entry names or
sizes (DESIGN §5): every entry name is checked, the entries are counted and their uncompressed sizes
bounded, and each entry is read once, in chunks, so that a zip bomb stops at the bound whatever its
headers claim. `cmi5.xml` is parsed with defusedxml (no entity expansion, no external entities).

A faulty package is refused whole: 400 `invalidCoursePackage`, the field naming the faulty entry or
element (`cmi5.xml:/courseStructure/block[1]/au[2]/url`) and the code saying what is wrong."""

import re
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Literal
from urllib.parse import parse_qs, unquote, urlsplit
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring

from spot.config import get_settings
from spot.core import files
from spot.core.errors import ApiError, FieldError
from spot.lms.models import IRI_LENGTH

MAX_ENTRIES = 10_000
MAX_STRUCTURE_BYTES = 2_000_000
# Deflate compresses real content (text, pictures, media) far less than this; a bomb far more.
MAX_RATIO = 200
MAX_DEPTH = 20
STRUCTURE = "cmi5.xml"
NAMESPACE = "https://w3id.org/xapi/profiles/cmi5/v1/CourseStructure.xsd"
MOVE_ON = ("NotApplicable", "Passed", "Completed", "CompletedAndPassed", "CompletedOrPassed")
# A unit is a quiz when it is judged: a mastery score, or a moveOn that asks for a pass. One a learner may
# satisfy by going through it (Completed, CompletedOrPassed, NotApplicable) is a reading
# (docs/learning-platform.md, "Readings and quizzes").
ASSESSED_MOVE_ON = ("Passed", "CompletedAndPassed")
_CHUNK = 1 << 16
_SERVED_CHUNK = 1 << 18


def max_package_bytes() -> int:
    """The largest package accepted (SPOT_COURSE_MAX_BYTES)."""
    return get_settings().course_max_bytes


def max_entry_bytes() -> int:
    """An entry may hold up to twice the package's bound uncompressed (a video barely compresses)."""
    return 2 * max_package_bytes()


def max_total_bytes() -> int:
    """All entries together, uncompressed: four times the package's bound."""
    return 4 * max_package_bytes()


def refuse(where: str, code: str) -> ApiError:
    return ApiError(400, "invalidCoursePackage", [FieldError(field=where, code=code)])


@dataclass
class Unit:
    """An assignable unit (`au`)."""

    activity_id: str
    title: str
    description: str
    url: str
    move_on: str
    mastery_score: float | None
    launch_parameters: str | None
    launch_method: str
    kind: Literal["resource", "quiz"]
    # The au's entitlementKey (cmi5 §10.2.7), given to the unit in LMS.LaunchData.
    entitlement_key: str | None = None


@dataclass
class Block:
    activity_id: str
    title: str
    description: str
    children: list["Block | Unit"] = field(default_factory=list)


@dataclass
class Course:
    activity_id: str
    title: str
    description: str
    lang: str
    children: list[Block | Unit] = field(default_factory=list)

    def walk(self) -> list[tuple[Block | Unit, Block | None]]:
        """Every block and unit with its parent block (None at the top), parents first."""
        found: list[tuple[Block | Unit, Block | None]] = []

        def visit(children: list[Block | Unit], parent: Block | None) -> None:
            for child in children:
                found.append((child, parent))
                if isinstance(child, Block):
                    visit(child.children, child)

        visit(self.children, None)
        return found


# Entry names ------------------------------------------------------------------------------------

_DRIVE = re.compile(r"^[A-Za-z]:")


def safe_name(name: str) -> bool:
    """A relative path inside the package: no absolute path, drive, backslash, NUL, `.` or `..`
    segment, so that no entry can name anything outside the package's folder."""
    if not name or name.startswith("/") or "\\" in name or "\x00" in name or _DRIVE.match(name):
        return False
    parts = name.rstrip("/").split("/")
    return all(part not in ("", ".", "..") for part in parts)


def read_archive(source: Path | BinaryIO) -> zipfile.ZipFile:
    """The package's zip (a file: read where it lies, never whole in memory), each entry checked: names,
    count, sizes and ratios from the headers, then every entry read once (CRC and real size checked;
    reading stops at the bounds whatever the headers say)."""
    try:
        archive = zipfile.ZipFile(source)
        entries = archive.infolist()
    except files.ZIP_READ_ERRORS as exc:
        raise refuse("package", "notAZipFile") from exc
    if len(entries) > MAX_ENTRIES:
        raise refuse("package", "tooManyEntries")
    total = 0
    for info in entries:
        # zipfile cuts a name at its first NUL (`filename`): the name as the archive holds it is
        # `orig_filename`, which another unzip tool would use.
        if not safe_name(info.orig_filename):
            raise refuse(info.orig_filename, "unsafeEntryName")
        if info.is_dir():
            continue
        if info.file_size > max_entry_bytes() or info.file_size > MAX_RATIO * max(info.compress_size, 1024):
            raise refuse(info.filename, "fileTooBig")
        total += _read_size(archive, info, max_total_bytes() - total)
    return archive


def _read_size(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: int) -> int:
    size = 0
    try:
        with archive.open(info) as handle:
            while chunk := handle.read(_CHUNK):
                size += len(chunk)
                if size > min(budget, max_entry_bytes()):
                    raise refuse(info.filename, "fileTooBig")
    except files.ZIP_READ_ERRORS as exc:
        raise refuse(info.filename, "unreadableEntry") from exc
    return size


def member(archive: zipfile.ZipFile, name: str) -> bytes | None:
    """The content of a checked archive's file entry, or None when there is none of that name."""
    try:
        info = archive.getinfo(name)
    except KeyError:
        return None
    if info.is_dir():
        return None
    with archive.open(info) as handle:
        return handle.read(max_entry_bytes() + 1)


def member_chunks(source: BinaryIO, name: str) -> tuple[int, Iterator[bytes]] | None:
    """A checked archive's file entry read in pieces, with its size (None when there is none of that
    name): a unit's video is served without ever being whole in memory. The iterator closes `source`
    once read (or when there is no such entry)."""
    archive = zipfile.ZipFile(source)
    try:
        info = archive.getinfo(name)
    except KeyError:
        source.close()
        return None
    if info.is_dir():
        source.close()
        return None

    def chunks() -> Iterator[bytes]:
        with source, archive.open(info) as handle:
            while chunk := handle.read(_SERVED_CHUNK):
                yield chunk

    return info.file_size, chunks()


# cmi5.xml ---------------------------------------------------------------------------------------


def _local(element: Element) -> str:
    tag = element.tag
    if tag.startswith("{"):
        namespace, _, local = tag[1:].partition("}")
        return local if namespace == NAMESPACE else tag
    return tag


def _children(element: Element, name: str) -> list[Element]:
    return [child for child in element if _local(child) == name]


# The order of each element's children in the course structure schema (cmi5 §13, CourseStructure.xsd):
# a rank per child, repeatable ones marked; elements of other namespaces may follow anywhere.
_ORDER: dict[str, dict[str, tuple[int, bool]]] = {
    "courseStructure": {"course": (0, False), "objectives": (1, False), "au": (2, True), "block": (2, True)},
    "course": {"title": (0, False), "description": (1, False)},
    "block": {
        "title": (0, False),
        "description": (1, False),
        "objectives": (2, False),
        "au": (3, True),
        "block": (3, True),
    },
    "au": {
        "title": (0, False),
        "description": (1, False),
        "objectives": (2, False),
        "url": (3, False),
        "launchParameters": (4, False),
        "entitlementKey": (5, False),
    },
}
# cmi5 §8.1: the launch adds these to the unit's address; a url carrying one of them is refused.
LAUNCH_PARAMETERS = frozenset({"endpoint", "fetch", "actor", "registration", "activityId"})
_IRI = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:\S+$")
# Control characters anywhere; white space in an absolute address (its host or path: not a URI), while a
# relative one names a file of the package as it is written (authoring tools keep spaces in file names).
_URL_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_URL_SPACE = re.compile(r"\s")


def _is_cmi5(element: Element) -> bool:
    return not element.tag.startswith("{") or element.tag.startswith("{" + NAMESPACE + "}")


def _check_order(element: Element, where: str, kind: str) -> None:
    """The element's cmi5 children are those its schema allows, each in its place: the first one out of
    place is refused (`…/au[1]/url` invalidValue: an url before the title, an unknown element)."""
    ranks = _ORDER[kind]
    last = -1
    counts: dict[str, int] = {}
    for child in element:
        if not isinstance(child.tag, str) or not _is_cmi5(child):
            continue
        name = _local(child)
        counts[name] = counts.get(name, 0) + 1
        here = f"{where}/{name}[{counts[name]}]" if name in ("au", "block") else f"{where}/{name}"
        if name not in ranks:
            raise refuse(here, "invalidValue")
        rank, repeatable = ranks[name]
        if rank < last or (rank == last and not repeatable):
            raise refuse(here, "invalidValue")
        last = rank


def _iri(value: str) -> bool:
    return len(value) <= IRI_LENGTH and _IRI.match(value) is not None


class _Reader:
    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.ids: set[str] = set()
        # The course's objectives (cmi5 §13.1.2), which blocks and units refer to.
        self.objectives: set[str] = set()

    def declared_objectives(self, root: Element, where: str) -> None:
        """The course's objectives: each id an IRI, once."""
        for objectives in _children(root, "objectives"):
            for index, objective in enumerate(_children(objectives, "objective"), start=1):
                here = f"{where}/objectives/objective[{index}]@id"
                value = (objective.get("id") or "").strip()
                if not value:
                    raise refuse(here, "emptyFieldError")
                if not _iri(value):
                    raise refuse(here, "invalidValue")
                if value in self.objectives:
                    raise refuse(here, "alreadyExists")
                self.objectives.add(value)

    def referred_objectives(self, element: Element, where: str) -> None:
        """A block's or unit's objectives: references (idref) to the course's objectives."""
        for objectives in _children(element, "objectives"):
            for index, objective in enumerate(_children(objectives, "objective"), start=1):
                here = f"{where}/objectives/objective[{index}]@idref"
                value = (objective.get("idref") or "").strip()
                if not value:
                    raise refuse(here, "emptyFieldError")
                if not _iri(value):
                    raise refuse(here, "invalidValue")
                if value not in self.objectives:
                    raise refuse(here, "notFound")

    def text(self, element: Element, name: str, where: str, *, required: bool) -> str:
        """A langstring text: the course's language when it has one, else the first one."""
        found = _children(element, name)
        if not found:
            if required:
                raise refuse(f"{where}/{name}", "emptyFieldError")
            return ""
        strings = _children(found[0], "langstring")
        chosen = next((s for s in strings if (s.get("lang") or "").lower().startswith(self.lang)), None)
        chosen = chosen if chosen is not None else (strings[0] if strings else None)
        value = " ".join((chosen.text or "").split()) if chosen is not None else ""
        if required and not value:
            raise refuse(f"{where}/{name}", "emptyFieldError")
        return value

    def activity_id(self, element: Element, where: str) -> str:
        value = (element.get("id") or "").strip()
        if not value:
            raise refuse(f"{where}@id", "emptyFieldError")
        if not _iri(value):
            raise refuse(f"{where}@id", "invalidValue")
        if value in self.ids:
            raise refuse(f"{where}@id", "alreadyExists")
        self.ids.add(value)
        return value

    def members(self, element: Element, where: str, depth: int, files: set[str]) -> list[Block | Unit]:
        if depth > MAX_DEPTH:
            raise refuse(where, "tooDeep")
        found: list[Block | Unit] = []
        counts = {"au": 0, "block": 0}
        for child in element:
            name = _local(child)
            if name not in counts:
                continue
            counts[name] += 1
            here = f"{where}/{name}[{counts[name]}]"
            if name == "au":
                found.append(self.unit(child, here, files))
            else:
                _check_order(child, here, "block")
                self.referred_objectives(child, here)
                block = Block(
                    activity_id=self.activity_id(child, here),
                    title=self.text(child, "title", here, required=True),
                    description=self.text(child, "description", here, required=False),
                )
                block.children = self.members(child, here, depth + 1, files)
                found.append(block)
        return found

    def unit(self, element: Element, where: str, files: set[str]) -> Unit:
        _check_order(element, where, "au")
        activity_id = self.activity_id(element, where)
        self.referred_objectives(element, where)
        move_on = element.get("moveOn") or "NotApplicable"
        if move_on not in MOVE_ON:
            raise refuse(f"{where}@moveOn", "invalidValue")
        mastery_score = None
        if element.get("masteryScore") is not None:
            try:
                mastery_score = float(element.get("masteryScore") or "")
            except ValueError:
                mastery_score = -1.0
            if not 0 <= mastery_score <= 1:
                raise refuse(f"{where}@masteryScore", "valueMustBeBetween")
        launch_method = element.get("launchMethod") or "AnyWindow"
        if launch_method not in ("AnyWindow", "OwnWindow"):
            raise refuse(f"{where}@launchMethod", "invalidValue")
        urls = _children(element, "url")
        url = (urls[0].text or "").strip() if urls else ""
        if not url:
            raise refuse(f"{where}/url", "emptyFieldError")
        conflict = LAUNCH_PARAMETERS & set(parse_qs(urlsplit(url).query))
        absolute = bool(urlsplit(url).scheme)
        if len(url) > 2000 or _URL_CONTROL.search(url) or (absolute and _URL_SPACE.search(url)) or conflict:
            # Too long, white space inside (not a URI), or a launch parameter of its own (cmi5 §8.1).
            raise refuse(f"{where}/url", "invalidValue")
        if not _reachable(url, files):
            raise refuse(f"{where}/url", "notFound")
        parameters = _children(element, "launchParameters")
        assessed = mastery_score is not None or move_on in ASSESSED_MOVE_ON
        return Unit(
            activity_id=activity_id,
            title=self.text(element, "title", where, required=True),
            description=self.text(element, "description", where, required=False),
            url=url,
            move_on=move_on,
            mastery_score=mastery_score,
            launch_parameters=(parameters[0].text or "") if parameters else None,
            launch_method=launch_method,
            kind="quiz" if assessed else "resource",
            entitlement_key=_entitlement_key(element),
        )


def _entitlement_key(element: Element) -> str | None:
    """The au's entitlementKey, its surrounding white space dropped."""
    keys = _children(element, "entitlementKey")
    return (keys[0].text or "").strip() if keys else None


def _reachable(url: str, files: set[str]) -> bool:
    """An absolute http(s) address, or a file of the package (a query string and fragment allowed; the
    path written as it is or percent-encoded)."""
    parts = urlsplit(url)
    if parts.scheme:
        return parts.scheme in ("http", "https") and bool(parts.netloc)
    if parts.netloc:
        return False
    name = unquote(parts.path)
    return safe_name(name) and name in files


def parse_structure(content: bytes, files: set[str]) -> Course:
    if len(content) > MAX_STRUCTURE_BYTES:
        raise refuse(STRUCTURE, "fileTooBig")
    try:
        root = fromstring(content, forbid_dtd=True)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise refuse(STRUCTURE, "notWellFormed") from exc
    if _local(root) != "courseStructure":
        raise refuse(f"{STRUCTURE}:/{_local(root)}", "invalidValue")
    where = f"{STRUCTURE}:/courseStructure"
    courses = _children(root, "course")
    if len(courses) != 1:
        raise refuse(f"{where}/course", "emptyFieldError" if not courses else "invalidValue")
    _check_order(root, where, "courseStructure")
    element = courses[0]
    here = f"{where}/course"
    _check_order(element, here, "course")
    titles = _children(element, "title")
    strings = _children(titles[0], "langstring") if titles else []
    lang = ((strings[0].get("lang") or "") if strings else "").strip()[:35]
    reader = _Reader(lang.lower())
    course = Course(
        activity_id=reader.activity_id(element, here),
        title=reader.text(element, "title", here, required=True),
        description=reader.text(element, "description", here, required=False),
        lang=lang,
    )
    reader.declared_objectives(root, where)
    course.children = reader.members(root, where, 0, files)
    if not any(isinstance(node, Unit) for node, _ in course.walk()):
        raise refuse(f"{where}/au", "emptyFieldError")
    return course


_XML_START = re.compile(rb"^(\xef\xbb\xbf)?\s*<")


def _head(source: Path | BinaryIO, size: int) -> bytes:
    if isinstance(source, Path):
        with source.open("rb") as handle:
            return handle.read(size)
    position = source.tell()
    try:
        return source.read(size)
    finally:
        source.seek(position)


def standalone_structure(source: Path | BinaryIO) -> bytes | None:
    """The course structure itself when the upload is an XML document rather than a zip (cmi5 §14: a
    course structure alone, its units' urls absolute): its first bytes say which."""
    head = _head(source, MAX_STRUCTURE_BYTES + 1)
    if head.startswith(b"PK") or not _XML_START.match(head[:4096]):
        return None
    return head


def read(source: Path | BinaryIO) -> Course:
    """The course a package describes, once the whole package is checked; a bare `cmi5.xml` (no zip)
    describes a course whose units all live elsewhere (a relative url is refused: notFound)."""
    structure = standalone_structure(source)
    if structure is not None:
        return parse_structure(structure, set())
    archive = read_archive(source)
    files = {info.filename for info in archive.infolist() if not info.is_dir()}
    structure = member(archive, STRUCTURE)
    if structure is None:
        for name, parse in OTHER_STRUCTURES.items():
            other = member(archive, name)
            if other is not None:
                return parse(other, files)
        # Neither standard's structure at the root (a package zipped with its folder around it, say).
        raise refuse(", ".join([STRUCTURE, *OTHER_STRUCTURES]), "notFound")
    return parse_structure(structure, files)


# The structure files of other standards and their readers, registered by the modules that read them
# (lms.scorm.manifest: imsmanifest.xml), which import this one.
OTHER_STRUCTURES: dict[str, Callable[[bytes, set[str]], Course]] = {}
