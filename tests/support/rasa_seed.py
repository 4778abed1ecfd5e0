"""Rasa's own marker example (docs/markers-rasa-example.md: its markers and its three output tables) and the seed's
three trackers as Communicator logs: what the marker statistics and the markers command must reproduce byte for byte."""

from __future__ import annotations

import re

from tests.support.marker_logs import concept, event, log, msg, op, session, turn
from tests.support.repository import REPO

# Rasa's own example (its markers and its three output tables), kept in the docs the tool is held to.
EXAMPLE = REPO / "docs" / "markers-rasa-example.md"


def _example_blocks() -> dict[str, str]:
    """The fenced blocks of the example page, by the heading above each."""
    text = EXAMPLE.read_text(encoding="utf-8")
    return {heading: body for heading, body in re.findall(r"^## (.+?)\n.*?^```\w*\n(.*?)^```", text, flags=re.M | re.S)}


_BLOCKS = _example_blocks()
SEED_MARKERS = _BLOCKS["The markers"]
EXTRACTED = _BLOCKS["extracted_markers.csv"]
PER_SESSION = _BLOCKS["stats-per-session.csv"]
OVERALL = _BLOCKS["stats-overall.csv"]


def bot(name: str) -> str:
    """A bot action: a system operation (Rasa's ActionExecuted)."""
    return op(name, new_turn="system")


def user(intent: str) -> str:
    """A user message: one element starting the user turn and carrying its parse (Rasa's UserUttered)."""
    return op("understand", concept(intent), new_turn="user")


# Three Communicator sessions equivalent to the seed's trackers; the comments number their events.
SEED_LOGS = {
    "3c1afa1ed72c4116ba6670a1668f1b4a": log(
        session(
            turn(bot("utter_greet"), event("LOCK")),  # 0, 1
            turn(user("mood_great")),  # 2: mood expressed, no user turn before
            turn(bot("utter_happy")),
        )
    ),  # 3
    "4d55093e9696452c8d1157fa33fd54b2": log(
        session(
            turn(bot("utter_greet"), event("LOCK")),  # 0, 1
            turn(user("greet")),  # 2
            turn(bot("utter_ask_mood"), op("synthesize"), event("LOCK"), msg("filelog")),  # 3..6
            turn(user("mood_unhappy")),  # 7: mood expressed after one user turn; the sequence starts
            turn(
                bot("utter_cheer_up"),
                op("synthesize"),
                msg("filelog"),  # 8..10
                bot("utter_did_that_help"),
                op("synthesize"),
                event("LOCK"),
            ),  # 11..13
            turn(user("deny")),  # 14: the cheer-up failed, after two user turns
            turn(bot("utter_goodbye")),
        )
    ),  # 15
    "c00b3de97713427d85524c4374125db1": log(
        session(
            turn(bot("utter_greet"), event("LOCK")),  # 0, 1
            turn(user("mood_unhappy")),  # 2
            turn(bot("utter_cheer_up"), bot("utter_did_that_help")),  # 3, 4
            turn(user("affirm")),  # 5: the sequence does not complete
            turn(bot("utter_happy")),
        )
    ),  # 6
}
