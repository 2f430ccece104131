"""SCORM content packages (SCORM 1.2 CAM, SCORM 2004 2nd–4th edition CAM, on IMS Content Packaging): a zip
holding `imsmanifest.xml` at its root. The archive is checked as a cmi5 package is (package.read_archive);
the manifest is parsed with defusedxml (no DTD, no entity expansion).

What Spot reads (docs/learning-platform.md, "SCORM"): the default organization is the course, its items
holding items are blocks, its items pointing at a resource are units (a SCO, tracked, or an asset,
launched untracked), launched at the resource's href (xml:base applied) with the item's parameters. Of
the sequencing of SCORM 2004 Spot reads each cluster's controlMode choice and flow (the player's table
of contents and Previous/Next) and the primary objective's minNormalizedMeasure when it is satisfied by
measure (the unit's mastery score); the rest of IMS Simple Sequencing is read past, so that a package
declaring it imports and runs. Elements are matched by their local name, whatever namespace (or none)
the authoring tool wrote, since exported manifests are loose about them.

A faulty manifest is refused whole: 400 `invalidCoursePackage`, the field naming the element
(`imsmanifest.xml:/manifest/organizations/organization[1]/item[2]@identifierref`)."""

from dataclasses import dataclass
from hashlib import sha256
from typing import Literal
from urllib.parse import unquote, urlsplit
from xml.etree.ElementTree import Element

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import ParseError, fromstring
from sqlalchemy.orm import Session

from spot.lms import package
from spot.lms.models import IRI_LENGTH, LmsItem
from spot.lms.scorm import models

MANIFEST = "imsmanifest.xml"
XML_BASE = "{http://www.w3.org/XML/1998/namespace}base"
SELF = "#self"
SCORM12, SCORM2004 = "scorm12", "scorm2004"
# What a SCORM unit needs to be satisfied, in cmi5's words (lms_item.move_on): a quiz passed, another SCO
# completed or passed, an asset once launched.
MOVE_ON = {"quiz": "Passed", "sco": "CompletedOrPassed", "asset": "Completed"}


@dataclass
class ScormUnit(package.Unit):
    scorm_type: str = "sco"
    max_time_allowed: str | None = None
    time_limit_action: str | None = None
    completion_threshold: float | None = None
    completion_set_by_content: bool = False


@dataclass
class ScormBlock(package.Block):
    choice: bool = True
    flow: bool = False


@dataclass
class ScormCourse(package.Course):
    standard: str = SCORM12
    edition: str = "1.2"
    choice: bool = True
    flow: bool = False


def _local(element: Element) -> str:
    return element.tag.rpartition("}")[2] if isinstance(element.tag, str) else ""


def _children(element: Element, name: str) -> list[Element]:
    wanted = name.lower()
    return [child for child in element if _local(child).lower() == wanted]


def _child(element: Element, name: str) -> Element | None:
    found = _children(element, name)
    return found[0] if found else None


def _attribute(element: Element, name: str) -> str | None:
    """An attribute by its local name, any namespace, any case (adlcp:scormtype in 1.2, scormType in
    2004)."""
    wanted = name.lower()
    for key, value in element.attrib.items():
        if key.rpartition("}")[2].lower() == wanted:
            return value
    return None


def _text(element: Element | None) -> str:
    return " ".join((element.text or "").split()) if element is not None else ""


def _edition(root: Element, content: bytes) -> tuple[str, str]:
    """The standard and edition: the metadata's schemaversion, else the ADL namespace the manifest
    declares, else 1.2 (plain IMS content packages)."""
    metadata = _child(root, "metadata")
    version = _text(_child(metadata, "schemaversion")) if metadata is not None else ""
    if version == "1.2":
        return SCORM12, "1.2"
    if version in ("CAM 1.3", "2004 2nd Edition"):
        return SCORM2004, "2004 2nd Edition"
    for edition in ("3rd", "4th"):
        if version.startswith("2004") and edition in version:
            return SCORM2004, f"2004 {edition} Edition"
    if b"adlcp_v1p3" in content or b"imsglobal.org/xsd/imsss" in content:
        return SCORM2004, "2004 3rd Edition"
    return SCORM12, "1.2"


def with_parameters(href: str, parameters: str | None) -> str:
    """The item's parameters appended to its resource's href (IMS CP, SCORM CAM 3.4.1.11): a leading `?`
    or `&` dropped, joined with `&` when the href has a query string; a fragment only when the href
    has none."""
    parameters = (parameters or "").strip()
    while parameters[:1] in ("?", "&"):
        parameters = parameters[1:]
    if not parameters:
        return href
    if parameters.startswith("#"):
        return href if "#" in href else href + parameters
    return href + ("&" if "?" in href else "?") + parameters


def _in_package(url: str, files: set[str]) -> bool:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return False
    name = unquote(parts.path)
    return package.safe_name(name) and name in files


def _absolute(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


@dataclass
class _Resource:
    href: str
    scorm_type: str
    where: str


def _number(value: str | None, where: str, low: float, high: float) -> float | None:
    if value is None or not value.strip():
        return None
    try:
        number = float(value)
    except ValueError:
        number = low - 1
    if not low <= number <= high:
        raise package.refuse(where, "valueMustBeBetween")
    return number


def _part(sequencing: Element | None, name: str, collection: dict[str, Element]) -> Element | None:
    """A child of an item's sequencing: its own, else that of the sequencing it refers to (IDRef) in the
    manifest's sequencingCollection."""
    if sequencing is None:
        return None
    own = _child(sequencing, name)
    if own is None and sequencing.get("IDRef") in collection:
        return _child(collection[sequencing.get("IDRef", "")], name)
    return own


def _control_mode(sequencing: Element | None, collection: dict[str, Element]) -> tuple[bool, bool]:
    """controlMode choice (default true) and flow (default false)."""
    mode = _part(sequencing, "controlMode", collection)
    if mode is None:
        return True, False
    return (mode.get("choice", "true").strip() != "false", mode.get("flow", "false").strip() == "true")


class _Reader:
    def __init__(self, standard: str, files: set[str]) -> None:
        self.standard = standard
        self.files = files
        self.ids: set[str] = set()
        self.resources: dict[str, _Resource] = {}
        self.collection: dict[str, Element] = {}

    def identifier(self, element: Element, where: str) -> str:
        value = (element.get("identifier") or "").strip()
        if not value:
            raise package.refuse(f"{where}@identifier", "emptyFieldError")
        # Room for the "#self" of a 1.2 item's own unit (lms_item.activity_id).
        if len(value) > IRI_LENGTH - len(SELF):
            raise package.refuse(f"{where}@identifier", "invalidValue")
        if value in self.ids:
            raise package.refuse(f"{where}@identifier", "alreadyExists")
        self.ids.add(value)
        return value

    def read_resources(self, root: Element) -> None:
        where = f"{MANIFEST}:/manifest/resources"
        resources = _child(root, "resources")
        if resources is None:
            raise package.refuse(where, "emptyFieldError")
        base = (resources.get(XML_BASE) or "").strip()
        for index, resource in enumerate(_children(resources, "resource"), start=1):
            here = f"{where}/resource[{index}]"
            identifier = (resource.get("identifier") or "").strip()
            if not identifier:
                raise package.refuse(f"{here}@identifier", "emptyFieldError")
            href = (resource.get("href") or "").strip()
            if href and not _absolute(href):
                href = base + (resource.get(XML_BASE) or "").strip() + href
            scorm_type = (_attribute(resource, "scormtype") or "asset").strip().lower()
            if scorm_type not in ("sco", "asset"):
                raise package.refuse(f"{here}@scormType", "invalidValue")
            self.resources.setdefault(identifier, _Resource(href=href, scorm_type=scorm_type, where=here))

    def items(self, element: Element, where: str, depth: int) -> list[package.Block | package.Unit]:
        if depth > package.MAX_DEPTH:
            raise package.refuse(where, "tooDeep")
        found: list[package.Block | package.Unit] = []
        for index, child in enumerate(_children(element, "item"), start=1):
            here = f"{where}/item[{index}]"
            identifier = self.identifier(child, here)
            title = _text(_child(child, "title")) or identifier
            reference = (child.get("identifierref") or "").strip()
            if _children(child, "item"):
                choice, flow = _control_mode(_child(child, "sequencing"), self.collection)
                block = ScormBlock(
                    activity_id=identifier, title=title, description="", choice=choice, flow=flow
                )
                if reference:
                    # A 1.2 item holding items may launch a resource of its own: a unit first in its block.
                    own = self.unit(child, here, identifier + SELF, title, reference)
                    block.children.append(own)
                block.children += self.items(child, here, depth + 1)
                found.append(block)
            elif reference:
                found.append(self.unit(child, here, identifier, title, reference))
            # A leaf pointing at nothing has nothing to launch: left out.
        return found

    def unit(self, item: Element, where: str, identifier: str, title: str, reference: str) -> ScormUnit:
        resource = self.resources.get(reference)
        if resource is None:
            raise package.refuse(f"{where}@identifierref", "notFound")
        if not resource.href:
            raise package.refuse(f"{resource.where}@href", "emptyFieldError")
        url = with_parameters(resource.href, item.get("parameters"))
        reachable = _in_package(url, self.files) or (resource.scorm_type == "asset" and _absolute(url))
        if len(url) > 2000 or not reachable:
            raise package.refuse(f"{resource.where}@href", "notFound" if len(url) <= 2000 else "invalidValue")
        sequencing = _child(item, "sequencing")
        if self.standard == SCORM12:
            mastery = _number(_text(_child(item, "masteryscore")), f"{where}/masteryscore", 0, 100)
            mastery_score = mastery / 100 if mastery is not None else None
            max_time = _text(_child(item, "maxtimeallowed")) or None
            threshold = None
        else:
            mastery_score = self.mastery(sequencing, where)
            limits = _part(sequencing, "limitConditions", self.collection)
            max_time = (limits.get("attemptAbsoluteDurationLimit") or None) if limits is not None else None
            threshold = self.threshold(item, where)
        data = _child(item, "datafromlms")
        if resource.scorm_type == "asset":
            mastery_score = None
        kind: Literal["resource", "quiz"] = "quiz" if mastery_score is not None else "resource"
        return ScormUnit(
            activity_id=identifier,
            title=title,
            description="",
            url=url,
            move_on=MOVE_ON["quiz" if kind == "quiz" else resource.scorm_type],
            mastery_score=mastery_score,
            launch_parameters=(data.text or "") if data is not None else None,
            launch_method="AnyWindow",
            kind=kind,
            scorm_type=resource.scorm_type,
            max_time_allowed=(max_time or "")[:50] or None,
            time_limit_action=(_text(_child(item, "timelimitaction")) or "")[:30] or None,
            completion_threshold=threshold,
            completion_set_by_content=self.set_by_content(sequencing),
        )

    def set_by_content(self, sequencing: Element | None) -> bool:
        """imsss:deliveryControls completionSetByContent (default false)."""
        controls = _part(sequencing, "deliveryControls", self.collection)
        return controls is not None and controls.get("completionSetByContent", "false").strip() == "true"

    def mastery(self, sequencing: Element | None, where: str) -> float | None:
        """SCORM 2004: the primary objective's minNormalizedMeasure when it is satisfied by measure
        (1.0 when the objective gives none, IMS SS's default)."""
        objectives = _part(sequencing, "objectives", self.collection)
        primary = _child(objectives, "primaryObjective") if objectives is not None else None
        if primary is None or primary.get("satisfiedByMeasure", "false").strip() != "true":
            return None
        measure = _text(_child(primary, "minNormalizedMeasure"))
        here = f"{where}/sequencing/objectives/primaryObjective/minNormalizedMeasure"
        value = _number(measure, here, -1, 1)
        return 1.0 if value is None else value

    def threshold(self, item: Element, where: str) -> float | None:
        """adlcp:completionThreshold: its text (3rd edition), or its minProgressMeasure when completed
        by measure (4th)."""
        element = _child(item, "completionThreshold")
        if element is None:
            return None
        here = f"{where}/completionThreshold"
        if element.get("completedByMeasure") is not None:
            if element.get("completedByMeasure", "").strip() != "true":
                return None
            return _number(element.get("minProgressMeasure") or "1.0", here, 0, 1)
        return _number(_text(element), here, 0, 1)


def course_key(identifier: str, title: str) -> str:
    """The course's key (lms_course.activity_id): a SCORM package of the same manifest identifier and
    course title updates the course. The title is part of it since authoring tools write fixed
    identifiers (`Course_ID1`): two courses of one tool must not replace each other."""
    digest = sha256(f"{identifier}\n{title}".encode()).hexdigest()[:32]
    return f"urn:spot:scorm:{digest}"


def parse(content: bytes, files: set[str]) -> ScormCourse:
    """The course an imsmanifest.xml describes (`files`: the package's file entries)."""
    if len(content) > package.MAX_STRUCTURE_BYTES:
        raise package.refuse(MANIFEST, "fileTooBig")
    try:
        root = fromstring(content, forbid_dtd=True)
    except (ParseError, DefusedXmlException, ValueError) as exc:
        raise package.refuse(MANIFEST, "notWellFormed") from exc
    if _local(root) != "manifest":
        raise package.refuse(f"{MANIFEST}:/{_local(root)}", "invalidValue")
    where = f"{MANIFEST}:/manifest"
    standard, edition = _edition(root, content)
    reader = _Reader(standard, files)
    identifier = reader.identifier(root, where)
    collection = _child(root, "sequencingCollection")
    if collection is not None:
        reader.collection = {s.get("ID", ""): s for s in _children(collection, "sequencing") if s.get("ID")}
    reader.read_resources(root)
    organizations = _child(root, "organizations")
    if organizations is None or not _children(organizations, "organization"):
        raise package.refuse(f"{where}/organizations/organization", "emptyFieldError")
    listed = _children(organizations, "organization")
    default = (organizations.get("default") or "").strip()
    index = next((i for i, o in enumerate(listed) if (o.get("identifier") or "").strip() == default), 0)
    organization = listed[index]
    here = f"{where}/organizations/organization[{index + 1}]"
    reader.identifier(organization, here)
    title = (_text(_child(organization, "title")) or identifier)[:500]
    choice, flow = _control_mode(_child(organization, "sequencing"), reader.collection)
    if standard == SCORM12:
        # SCORM 1.2 leaves navigation to the LMS: a learner may go anywhere and in order.
        choice, flow = True, True
    course = ScormCourse(
        activity_id=course_key(identifier, title),
        title=title,
        description="",
        lang="",
        standard=standard,
        edition=edition,
        choice=choice,
        flow=flow,
    )
    course.children = reader.items(organization, here, 0)
    if not any(isinstance(node, package.Unit) for node, _ in course.walk()):
        raise package.refuse(f"{here}/item", "emptyFieldError")
    if standard == SCORM12:
        for node, _ in course.walk():
            if isinstance(node, ScormBlock):
                node.choice, node.flow = True, True
    return course


def keep(db: Session, *, course_id: int, data: ScormCourse, items: dict[str, LmsItem]) -> None:
    """The SCORM details of an imported course (its edition and navigation) and of its items (SCO or
    asset, a cluster's navigation, time limits), `items` the course's rows by activity id."""
    course = db.get(models.ScormCourse, course_id)
    if course is None:
        course = models.ScormCourse(course_id=course_id)
        db.add(course)
    course.edition, course.choice, course.flow = data.edition, data.choice, data.flow
    for node, _ in data.walk():
        item = items[node.activity_id]
        row = db.get(models.ScormItem, item.id)
        if row is None:
            row = models.ScormItem(item_id=item.id)
            db.add(row)
        if isinstance(node, ScormUnit):
            row.scorm_type, row.choice, row.flow = node.scorm_type, True, False
            row.max_time_allowed, row.time_limit_action = node.max_time_allowed, node.time_limit_action
            row.completion_threshold = node.completion_threshold
            row.completion_set_by_content = node.completion_set_by_content
        elif isinstance(node, ScormBlock):
            row.scorm_type, row.choice, row.flow = "", node.choice, node.flow
            row.max_time_allowed = row.time_limit_action = row.completion_threshold = None
            row.completion_set_by_content = False
    db.flush()


package.OTHER_STRUCTURES[MANIFEST] = parse
