"""Exporting a site as a map bundle (mapping.bundle, docs/map-bundle.md): map.json and the image files
it names, in a zip that imports back into the same map."""

import io
import json
import zipfile
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spot.core.errors import not_found
from spot.core.files import get_file_store
from spot.mapping.bundle import FORMAT, IMAGE_TYPES, MANIFEST
from spot.mapping.models import Activity, Function, MindMapItem, Pictogram, Site, Subject, Zone


def export(db: Session, *, site_id: int) -> tuple[Site, bytes]:
    """The site as a bundle that imports back into the same map."""
    site = db.get(Site, site_id)
    if site is None:
        raise not_found("siteNotFound")
    store = get_file_store()
    files: dict[str, bytes] = {}

    def add_file(prefix: str, ref: str, media_type: str) -> str:
        name = f"images/{prefix}.{IMAGE_TYPES.get(media_type, 'bin')}"
        files[name] = store.get(ref)
        return name

    cartographies = []
    for ci, cartography in enumerate(site.cartographies, start=1):
        activities = db.scalars(
            select(Activity)
            .where(Activity.cartography_id == cartography.id)
            .order_by(Activity.ordering, Activity.id)
        ).all()
        by_id = {a.id: a for a in activities}
        children: dict[int | None, list[Activity]] = {}
        for activity in activities:
            children.setdefault(activity.parent_id, []).append(activity)

        functions = db.scalars(
            select(Function)
            .where(Function.cartography_id == cartography.id)
            .order_by(Function.ordering, Function.id)
        ).all()
        function_codes = {f.id: f.code for f in functions}
        zones = db.scalars(
            select(Zone).where(Zone.cartography_id == cartography.id).order_by(Zone.ordering, Zone.id)
        ).all()
        target_codes = {"activity": {a.id: a.code for a in activities}, "function": function_codes}
        pictograms = (
            db.execute(
                select(Pictogram)
                .join(Activity, Activity.id == Pictogram.activity_id)
                .where(Pictogram.cartography_id == cartography.id)
                .order_by(Activity.ordering, Activity.id)
            )
            .scalars()
            .all()
        )
        subjects = db.scalars(
            select(Subject).where(Subject.cartography_id == cartography.id).order_by(Subject.code)
        ).all()
        image = (
            add_file(f"cartography-{ci}", cartography.image_ref, cartography.image_media_type or "")
            if cartography.image_ref
            else ""
        )
        cartographies.append(
            {
                "code": cartography.code,
                "name": cartography.name,
                "image": image,
                "activities": _activity_tree(children, None),
                "functions": [{"code": f.code, "name": f.name} for f in functions],
                "zones": [
                    {
                        "type": z.item_type,
                        "target": target_codes[z.item_type].get(z.item_id, ""),
                        "x": z.x,
                        "y": z.y,
                        "width": z.width,
                        "height": z.height,
                    }
                    for z in zones
                ],
                "pictograms": [
                    {
                        "activity": by_id[p.activity_id].code,
                        "image": add_file(f"pictogram-{ci}-{pi}", p.image_ref, p.image_media_type),
                    }
                    for pi, p in enumerate(pictograms, start=1)
                ],
                "subjects": [
                    _export_subject(s, function_codes, by_id, add_file, f"subject-{ci}-{si}")
                    for si, s in enumerate(subjects, start=1)
                ],
            }
        )
    document = {"format": FORMAT, "code": site.code, "name": site.name, "cartographies": cartographies}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, json.dumps(document, ensure_ascii=False, indent=1))
        for name, content in files.items():
            archive.writestr(name, content, compress_type=zipfile.ZIP_STORED)
    return site, buffer.getvalue()


def _activity_tree(children: dict[int | None, list[Activity]], parent_id: int | None) -> list[dict[str, Any]]:
    return [
        {"code": a.code, "name": a.name, "activities": _activity_tree(children, a.id)}
        for a in children.get(parent_id, [])
    ]


def _export_mind_map(nodes: list[MindMapItem]) -> list[dict[str, Any]]:
    codes = {n.id: n.code for n in nodes}
    return [
        {
            "code": n.code,
            "name": n.name,
            "status": n.status,
            "parentCode": codes.get(n.parent_id) if n.parent_id is not None else None,
            "position": n.position,
            "text": n.text,
        }
        for n in nodes
    ]


def _export_subject(
    subject: Subject,
    function_codes: dict[int, str],
    activities: dict[int, Activity],
    add_file: Any,
    picture_name: str,
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "code": subject.code,
        "name": subject.name,
        "type": subject.type,
        "function": function_codes[subject.function_id],
        "activity": activities[subject.activity_id].code,
        "frequency": subject.frequency,
        "gravity": subject.gravity,
        "detectability": subject.detectability,
        "hasDiagram": subject.has_diagram,
        "mindMap": _export_mind_map(subject.mind_map_items),
    }
    if subject.prevention_measures:
        out["preventionMeasures"] = subject.prevention_measures
    if subject.picture_ref:
        out["picture"] = add_file(picture_name, subject.picture_ref, subject.picture_media_type or "")
    return out
