"""Each person's choice, per kind of message, of how they receive it: now, in the daily digest or never
(notifications.kinds); outbox.queue applies it."""
