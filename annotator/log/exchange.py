"""Which turn answers which: the system prompt a user turn replies to, the reply to a prompt, and
so the audio of "the other side" of a turn.

The standard gives every participant's utterance its own GC_TURN, so the prompt
a caller answers is usually the nearest system turn before theirs; some logs
keep the prompt's audio_output inside the user's own turn instead. Both are
looked for, in that order: the turn itself first, then its neighbour.
"""

from __future__ import annotations

from annotator.log.elements import Turn
from annotator.log.text import SHOWN_ID_CHARS, shorten

INPUT, OUTPUT = "input", "output"  # audio_input: the user's recording; audio_output: the system's speech
EXCHANGE_GAP_SECONDS = 0.3  # the silence between a prompt and its reply played as one exchange


def prompt_of(turn: Turn) -> Turn | None:
    """The nearest system turn before TURN (the prompt a user turn answers), or None."""
    turns = turn.session.turns
    return next((turns[i] for i in range(turn.index - 1, -1, -1) if turns[i].speaker == "system"), None)


def reply_to(turn: Turn) -> Turn | None:
    """The nearest user turn after TURN (the caller's answer to a system turn), or None."""
    turns = turn.session.turns
    return next((turns[i] for i in range(turn.index + 1, len(turns)) if turns[i].speaker == "user"), None)


def other_side(turn: Turn) -> tuple[Turn, str] | str:
    """Where the audio of TURN's other side is, as (turn holding it, INPUT or OUTPUT), or why there is none.

    A user turn's other side is the system's speech (in the turn itself, else in the prompt it
    answers); a system turn's is the user's recording (in the turn, else in the reply).
    """
    name = f"turn {shorten(turn.id, SHOWN_ID_CHARS)}"
    if turn.speaker == "user":
        direction, neighbour, what, where = OUTPUT, prompt_of(turn), "system speech", "system turn before it"
    elif turn.speaker == "system":
        direction, neighbour, what, where = INPUT, reply_to(turn), "user recording", "user turn after it"
    else:
        return f"{name}: its speaker is not known, so it has no other side"
    if turn.audio_data(direction) is not None:
        return turn, direction
    if neighbour is None:
        return f"{name}: no {what} in this turn, and no {where}"
    if neighbour.audio_data(direction) is not None:
        return neighbour, direction
    return f"{name}: no {what} in this turn or in the {where} (turn {shorten(neighbour.id, SHOWN_ID_CHARS)})"
