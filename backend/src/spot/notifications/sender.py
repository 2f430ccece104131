"""The sender inside `spot serve`: a thread that sends the outbox's due messages every few seconds
(`spot notify --send` does one round from the command line)."""

import logging
import threading
from collections.abc import Callable

from spot.db import session_factory
from spot.notifications.outbox import send_due

log = logging.getLogger("spot.notifications")

# A queued message leaves within this long (the bound is 10 s).
EVERY_S = 5.0


def drain(stop: threading.Event | None = None) -> int:
    """Rounds of the outbox until one sends nothing (a burst leaves at the mail server's pace, not a
    batch every few seconds); how many were sent. Stops between rounds when `stop` is set."""
    sent = 0
    while not (stop is not None and stop.is_set()) and (round_sent := send_due(session_factory())):
        sent += round_sent
    return sent


def start(every: float = EVERY_S) -> Callable[[], None]:
    """Starts the sender; returns what stops it."""
    stop = threading.Event()

    def run() -> None:
        while not stop.wait(every):
            try:
                drain(stop)
            except Exception:  # the next round tries again; nothing is lost, the messages are in the outbox
                log.exception("outbox round failed")

    thread = threading.Thread(target=run, name="spot-outbox", daemon=True)
    thread.start()

    def halt() -> None:
        stop.set()
        thread.join(timeout=60)

    return halt
