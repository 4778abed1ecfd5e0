"""A DialBB block that answers with the system lines of a test scenario, in order.

The scenario is named by the environment variable DIALBB_REPLAY_SCENARIO (dialbb-test
takes no extra configuration). It is parsed as dialbb-test parses it: lines stripped,
blank lines skipped, "----..." starts a session, "System: " and "User: " lines. For
each session the block knows the system line that answers the start of the session
(the System line before the first User line, else "") and the one after each User
line (else ""); DialBB numbers its sessions in the order they start, and so does
the scenario.
"""

import os

from dialbb.abstract_block import AbstractBlock

SCENARIO_VARIABLE = "DIALBB_REPLAY_SCENARIO"


def system_answers(path):
    """For each session: the system answers, the first to the session's start, then one per user line."""
    sessions = []
    with open(path, encoding="utf-8") as stream:
        for line in stream.readlines():
            line = line.strip()
            if not line:
                continue
            if line.startswith("----"):
                sessions.append([""])
            elif line.startswith("User: "):
                sessions[-1].append("")
            elif line.startswith("System: "):
                sessions[-1][-1] = line[len("System: ") :]
    return sessions


class ReplayBlock(AbstractBlock):
    def __init__(self, *args):
        super().__init__(*args)
        self.sessions = system_answers(os.environ[SCENARIO_VARIABLE])
        self.started = 0
        self.progress = {}  # DialBB session id -> (answers, how many given)

    def process(self, input_data, session_id="unknown"):
        if session_id not in self.progress:
            self.progress[session_id] = (self.sessions[self.started], 0)
            self.started += 1
        answers, given = self.progress[session_id]
        self.progress[session_id] = (answers, given + 1)
        answer = answers[given] if given < len(answers) else ""
        return {"output_text": answer, "final": False}
