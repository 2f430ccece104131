"""Spot's own small SCORM packages for the tests (written for Spot, in French): a SCORM 1.2 course of a
reading SCO, a quiz SCO with a mastery score and an asset, and a SCORM 2004 4th edition course with
sequencing (controlMode, a primary objective satisfied by measure, a sequencing collection), a
completion threshold and data from the LMS."""

import io
import zipfile
from typing import Any

import httpx
from fastapi.testclient import TestClient

from lms.conftest import import_course
from support import API

PAGE = "<!doctype html><html lang='fr'><head><title>Page</title></head><body><p>Contenu</p></body></html>"

MANIFEST_12 = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="fr.spot.tests.securite.12" version="1"
    xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2">
  <metadata><schema>ADL SCORM</schema><schemaversion>1.2</schemaversion></metadata>
  <organizations default="org">
    <organization identifier="org">
      <title>{title}</title>
      <item identifier="bloc_bases">
        <title>Les bases</title>
        <item identifier="lecture" identifierref="res_lecture" parameters="?page=1">
          <title>Lecture : le risque électrique</title>
          <adlcp:datafromlms>niveau=1</adlcp:datafromlms>
        </item>
        <item identifier="fiche" identifierref="res_fiche"><title>Fiche mémo</title></item>
      </item>
      <item identifier="quiz" identifierref="res_quiz">
        <title>Quiz habilitation</title>
        <adlcp:masteryscore>80</adlcp:masteryscore>
        <adlcp:maxtimeallowed>00:30:00</adlcp:maxtimeallowed>
        <adlcp:timelimitaction>exit,message</adlcp:timelimitaction>
      </item>
      <item identifier="vide"><title>Sans ressource</title></item>
    </organization>
  </organizations>
  <resources>
    <resource identifier="res_lecture" type="webcontent" adlcp:scormtype="sco" href="lecture/index.html">
      <file href="lecture/index.html"/>
    </resource>
    <resource identifier="res_fiche" type="webcontent" adlcp:scormtype="asset" href="fiche.html">
      <file href="fiche.html"/>
    </resource>
    <resource identifier="res_quiz" type="webcontent" adlcp:scormtype="sco" href="quiz.html">
      <file href="quiz.html"/>
    </resource>
  </resources>
</manifest>
"""

MANIFEST_2004 = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="fr.spot.tests.levage.2004" version="1"
    xmlns="http://www.imsglobal.org/xsd/imscp_v1p1"
    xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_v1p3"
    xmlns:adlseq="http://www.adlnet.org/xsd/adlseq_v1p3"
    xmlns:imsss="http://www.imsglobal.org/xsd/imsss">
  <metadata><schema>ADL SCORM</schema><schemaversion>2004 4th Edition</schemaversion></metadata>
  <organizations default="org_levage">
    <organization identifier="autre"><title>Une autre organisation</title>
      <item identifier="autre_item" identifierref="res_intro"><title>Autre</title></item>
    </organization>
    <organization identifier="org_levage">
      <title>Levage en sécurité</title>
      <item identifier="module_1">
        <title>Module 1</title>
        <item identifier="intro" identifierref="res_intro">
          <title>Introduction</title>
          <adlcp:completionThreshold completedByMeasure="true" minProgressMeasure="0.5"/>
          <adlcp:dataFromLMS>chapitre=intro</adlcp:dataFromLMS>
        </item>
        <item identifier="evaluation" identifierref="res_eval">
          <title>Évaluation</title>
          <imsss:sequencing IDRef="evaluee"/>
        </item>
        <imsss:sequencing><imsss:controlMode choice="false" flow="true"/></imsss:sequencing>
      </item>
      <item identifier="annexe" identifierref="res_annexe"><title>Annexe</title></item>
      <imsss:sequencing><imsss:controlMode choice="true" flow="true"/></imsss:sequencing>
    </organization>
  </organizations>
  <resources xml:base="contenu/">
    <resource identifier="res_intro" type="webcontent" adlcp:scormType="sco" href="intro.html">
      <file href="intro.html"/>
    </resource>
    <resource identifier="res_eval" type="webcontent" adlcp:scormType="sco" xml:base="eval/"
        href="index.html">
      <file href="index.html"/>
    </resource>
    <resource identifier="res_annexe" type="webcontent" adlcp:scormType="asset" href="annexe.pdf">
      <file href="annexe.pdf"/>
    </resource>
  </resources>
  <imsss:sequencingCollection>
    <imsss:sequencing ID="evaluee">
      <imsss:limitConditions attemptAbsoluteDurationLimit="PT20M"/>
      <imsss:objectives>
        <imsss:primaryObjective objectiveID="reussite" satisfiedByMeasure="true">
          <imsss:minNormalizedMeasure>0.7</imsss:minNormalizedMeasure>
        </imsss:primaryObjective>
      </imsss:objectives>
    </imsss:sequencing>
  </imsss:sequencingCollection>
</manifest>
"""


def zip_of(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def scorm12(
    manifest: str | None = None, title: str = "Habilitation électrique", **extra: bytes | str
) -> bytes:
    files: dict[str, bytes | str] = {
        "imsmanifest.xml": manifest if manifest is not None else MANIFEST_12.format(title=title),
        "lecture/index.html": PAGE,
        "fiche.html": PAGE,
        "quiz.html": PAGE,
    }
    return zip_of({**files, **extra})


def scorm2004(manifest: str = MANIFEST_2004, **extra: bytes | str) -> bytes:
    files: dict[str, bytes | str] = {
        "imsmanifest.xml": manifest,
        "contenu/intro.html": PAGE,
        "contenu/eval/index.html": PAGE,
        "contenu/annexe.pdf": b"%PDF-1.4 annexe",
    }
    return zip_of({**files, **extra})


def upload(client: TestClient, headers: dict[str, str], data: bytes) -> httpx.Response:
    return import_course(client, headers, data)


def imported(client: TestClient, headers: dict[str, str], data: bytes) -> dict[str, Any]:
    """The course's tree, once imported."""
    response = upload(client, headers, data)
    assert response.status_code == 200, response.text
    tree = client.get(f"{API}/lms/courses/{response.json()['id']}", headers=headers)
    assert tree.status_code == 200, tree.text
    return tree.json()
