"""A launch answers where the unit opens: its address, its standard and its course (a SCORM unit opens in
its course's player, docs/learning-platform.md)."""

from lms.conftest import leaves, upload
from spot.demo import lms as demo
from support import API


def test_a_launch_names_the_units_standard_and_course(client, manager):
    for package, unit in ((demo.package(), "Quiz consignation"), (demo.scorm_package(), "Quiz EPI")):
        course_id = upload(client, manager, package).json()["id"]
        tree = client.get(f"{API}/lms/courses/{course_id}", headers=manager).json()
        launched = client.post(f"{API}/lms/items/{leaves(tree)[unit]['id']}/launch", headers=manager)
        assert launched.status_code == 200, launched.text
        body = launched.json()
        assert body["courseId"] == course_id
        assert body["standard"] == ("cmi5" if unit == "Quiz consignation" else "scorm12")
        assert body["url"].startswith("http")
