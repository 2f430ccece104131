"""Every kind of alert has its provider once the app is built: the areas register them (alerts imports
no area), so a module the app does not load would leave its kinds out of the bell without an error."""

from spot.alerts import service
from spot.alerts.schemas import AlertKind


def test_every_kind_has_a_provider_registered_by_its_area(app):
    assert len(service.providers()) == len(AlertKind)
