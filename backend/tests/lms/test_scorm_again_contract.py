"""The run-time contract with the client's scorm-again (frontend/node_modules, the version the player ships):
the CMI Spot gives loads into its SCORM 1.2 and 2004 APIs (Initialize succeeds, entry, mastery, bookmark and
total time read back), its commits (`renderCommitCMI`, with the terminate flag the bootstrap adds) are
accepted, and the next launch resumes. Skipped, saying why, where Node or the client's packages are absent."""

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from lms.conftest import leaves
from lms.scorm_packages import imported, scorm12, scorm2004
from lms.test_scorm_runtime import launch

FRONTEND = Path(__file__).resolve().parents[3] / "frontend"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not (FRONTEND / "node_modules" / "scorm-again").is_dir(),
    reason="Node or the client's scorm-again (frontend/node_modules) is absent: make frontend-deps",
)
MANAGER = "perm_TrainingManagement"

# A SCO's session in scorm-again: load Spot's CMI, initialize, read back, write, render the commit.
SESSION = """
import { Scorm12API, Scorm2004API } from "scorm-again";
const input = JSON.parse(process.argv[process.argv.length - 1]);
const read = [];
let commit;
if (input.version === "1.2") {
  const api = new Scorm12API({ logLevel: 5 });
  api.loadFromJSON(input.cmi, "");
  read.push(api.LMSInitialize(""), api.LMSGetLastError());
  for (const name of ["cmi.core.entry", "cmi.student_data.mastery_score", "cmi.core.lesson_location",
                      "cmi.core.total_time", "cmi.suspend_data"]) read.push(api.LMSGetValue(name));
  for (const [name, value] of Object.entries(input.set)) api.LMSSetValue(name, value);
  commit = api.renderCommitCMI(true);
} else {
  const api = new Scorm2004API({ logLevel: 5 });
  api.loadFromJSON(input.cmi, "");
  read.push(api.Initialize(""), api.GetLastError());
  for (const name of ["cmi.entry", "cmi.scaled_passing_score", "cmi.location", "cmi.total_time",
                      "cmi.suspend_data"]) read.push(api.GetValue(name));
  for (const [name, value] of Object.entries(input.set)) api.SetValue(name, value);
  commit = api.renderCommitCMI(true);
}
console.log(JSON.stringify({ read, commit }));
"""


def session(loaded: dict[str, Any], values: dict[str, str]) -> tuple[list[str], dict[str, Any]]:
    argument = json.dumps({**loaded, "set": values})
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SESSION, argument],
        cwd=FRONTEND,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return [str(value) for value in answer["read"]], answer["commit"]


@pytest.fixture
def manager(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-again-admin", [MANAGER]))


@pytest.fixture
def learner(make_user, login) -> dict[str, str]:
    return login(make_user("scorm-again-learner", []))


def test_scorm_12_in_scorm_again(client, manager, learner):
    quiz = leaves(imported(client, manager, scorm12()))["Quiz habilitation"]["id"]
    sco = launch(client, learner, quiz)
    read, commit = session(
        sco.load(),
        {
            "cmi.core.lesson_location": "p2",
            "cmi.core.lesson_status": "incomplete",
            "cmi.core.exit": "suspend",
            "cmi.core.session_time": "00:01:00",
            "cmi.suspend_data": "s1",
        },
    )
    assert read == ["true", "0", "ab-initio", "80", "", "00:00:00", ""]
    accepted = client.post(f"{sco.base}/commit", json=commit | {"terminate": True})
    assert accepted.json() == {"result": True, "errorCode": 0}
    again = launch(client, learner, quiz)
    read, commit = session(
        again.load(), {"cmi.core.lesson_status": "passed", "cmi.core.score.raw": "85", "cmi.core.exit": ""}
    )
    assert read == ["true", "0", "resume", "80", "p2", "00:01:00", "s1"]
    assert client.post(f"{again.base}/commit", json=commit | {"terminate": True}).status_code == 200
    attempts = client.get("/backend/api/v2/lms/attempts/mine", headers=learner).json()
    assert [(a["grade"], a["success"]) for a in attempts] == [(8.5, True)]


def test_scorm_2004_in_scorm_again(client, manager, learner):
    evaluation = leaves(imported(client, manager, scorm2004()))["Évaluation"]["id"]
    sco = launch(client, learner, evaluation)
    values = {
        "cmi.location": "p3",
        "cmi.exit": "suspend",
        "cmi.session_time": "PT1M",
        "cmi.suspend_data": "s2",
    }
    read, commit = session(sco.load(), values)
    assert read == ["true", "0", "ab-initio", "0.7", "", "PT0H0M0S", ""]
    assert client.post(f"{sco.base}/commit", json=commit | {"terminate": True}).status_code == 200
    again = launch(client, learner, evaluation)
    read, commit = session(
        again.load(), {"cmi.score.scaled": "0.9", "cmi.completion_status": "completed", "cmi.exit": "normal"}
    )
    assert read == ["true", "0", "resume", "0.7", "p3", "PT0H1M0S", "s2"]
    assert client.post(f"{again.base}/commit", json=commit | {"terminate": True}).status_code == 200
    attempts = client.get("/backend/api/v2/lms/attempts/mine", headers=learner).json()
    assert [(a["grade"], a["success"]) for a in attempts] == [(9.0, True)]
