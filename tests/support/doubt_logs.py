"""Logs with known misrecognitions, for measuring the doubt score (tests/analysis/test_doubt_ranking.py).

Every user turn carries its true words as a transcription and what a made-up recognizer heard.
About a third of the turns are misheard (one or two words swapped); a misheard turn tends to have a
lower score per phone, n-best alternatives further apart, a reprompt or a confirmation the caller
denies, or a failed parse: tends to, not always, and a well heard turn sometimes shows the same signs
(the noise), as a real recognizer and dialogue manager would. Seeded: the same seed gives the same log.
"""

from __future__ import annotations

import random
from pathlib import Path
from xml.sax.saxutils import escape

CITIES = ["boston", "austin", "denver", "dallas", "chicago", "seattle", "portland", "phoenix", "miami", "atlanta"]
SLOTS = {
    ":destination": ("Where would you like to fly?", ["i want to fly to {city}", "to {city} please", "{city}"]),
    ":source": ("What city are you leaving from?", ["leaving from {city}", "from {city}", "i am in {city}"]),
    ":date": ("What day do you want to travel?", ["next {day} morning", "on {day}", "{day} evening please"]),
}
DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
MISHEARD = 0.3


class _Log:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.lines: list[str] = []
        self.turn = 0
        self.time = 1_800_000_000.0

    def _times(self, length: float) -> str:
        start, self.time = self.time, self.time + length
        return f'stime="{start:.3f}" etime="{self.time:.3f}"'

    def system(self, text: str, prompt: str | None, error: bool = False) -> None:
        self.turn += 1
        prompt_attr = f' type_prompt="{prompt}"' if prompt else ""
        error_attr = ' type_error_msg="true"' if error else ""
        self.lines.append(
            f'<GC_TURN id="{self.turn}" {self._times(2.0)}><GC_OPERATION name="paraphrase_reply" server="nl" '
            f'turnid="{self.turn}" {self._times(0.1)} type_new_turn="system"{prompt_attr}>'
            f'<GC_DATA key=":reply_string" type="text_output" type_utt_text="system"{error_attr}>{escape(text)}</GC_DATA>'
            "</GC_OPERATION></GC_TURN>"
        )

    def user(self, said: str, misheard: bool) -> str:
        """Write a user turn that said SAID; return what the recognizer heard."""
        rng = self.rng
        words = said.split()
        heard_words = list(words)
        if misheard:
            for position in rng.sample(range(len(words)), min(len(words), rng.choice((1, 1, 2)))):
                heard_words[position] = rng.choice([c for c in CITIES + DAYS if c != words[position]])
        heard = " ".join(heard_words)
        phones = 3 * len(words) + rng.randint(0, 3)
        per_phone = rng.gauss(-52.0 if misheard else -42.0, 7.0)
        alternatives = [heard]
        spread = rng.choice((1, 2, 2, 3)) if misheard else rng.choice((1, 1, 1, 2))
        for _ in range(rng.randint(1, 3)):
            alternative = list(heard_words)
            for position in rng.sample(range(len(alternative)), min(len(alternative), spread)):
                alternative[position] = rng.choice(CITIES + DAYS)
            alternatives.append(" ".join(alternative))
        parse = "0" if rng.random() < (0.25 if misheard else 0.05) else "1"
        self.turn += 1
        nbest = "".join(
            f'<GC_DATA key=":nbest_list[{i}]" type="text_input_hypothesis">{text}</GC_DATA>'
            for i, text in enumerate(alternatives)
        )
        self.lines.append(
            f'<GC_TURN id="{self.turn}" {self._times(3.0)}><GC_OPERATION name="recognize" server="recognizer" '
            f'turnid="{self.turn}" {self._times(0.5)} type_new_turn="user">'
            f'<GC_DATA key=":input_string" type="text_input" type_utt_text="asr">{heard}</GC_DATA>'
            f'<GC_DATA key=":nbest_list"><GC_LIST name=":nbest_list">{nbest}</GC_LIST></GC_DATA>'
            f'<GC_DATA key=":rec_scores"><GC_FRAME name="scores"><GC_DATA key=":total_score">'
            f'{per_phone * phones:.4f}</GC_DATA><GC_DATA key=":nphones">{phones}</GC_DATA></GC_FRAME></GC_DATA>'
            f'</GC_OPERATION><GC_OPERATION name="parse" server="nl" turnid="{self.turn}" {self._times(0.1)}>'
            f'<GC_DATA key=":input_parse_successful" type="input_parse_successful">{parse}</GC_DATA>'
            f'</GC_OPERATION><GC_ANNOT><GC_DATA key=":transcription" type_utt_text="transcription">{said}'
            "</GC_DATA></GC_ANNOT></GC_TURN>"
        )
        return heard

    def exchange(self, slot: str) -> None:
        """The system asks for SLOT; the caller answers until the system has it (at most twice more)."""
        rng = self.rng
        question, answers = SLOTS[slot]
        self.system(question, slot)
        said = rng.choice(answers).format(city=rng.choice(CITIES), day=rng.choice(DAYS))
        for _attempt in range(3):
            misheard = rng.random() < MISHEARD
            heard = self.user(said, misheard)
            cue = rng.random()
            if misheard and cue < 0.35 or not misheard and cue < 0.05:
                self.system(f"Sorry, I did not understand. {question}", slot, error=True)
            elif misheard and cue < 0.7 or not misheard and cue < 0.3:
                self.system(f"{heard.split()[-1].title()}. Is that right?", f":confirm{slot}")
                if misheard:
                    said = f"no {said.split()[-1]}"
                    continue
                self.user("yes", rng.random() < MISHEARD / 3)
                return
            else:
                return


def write_doubt_log(path: Path, sessions: int = 20, seed: int = 13) -> Path:
    """A log of SESSIONS travel dialogues with planted misrecognitions, written to PATH."""
    rng = random.Random(seed)
    parts = ['<?xml version="1.0" encoding="UTF-8"?>', "<GC_LOG>"]
    for number in range(sessions):
        log = _Log(rng)
        for slot in SLOTS:
            log.exchange(slot)
        log.system("Your flight is booked. Goodbye.", None)
        parts.append(f'<GC_SESSION id="doubt-{number:03d}" stime="1800000000.000" etime="{log.time:.3f}">')
        parts += log.lines
        parts.append("</GC_SESSION>")
    parts.append("</GC_LOG>")
    path.write_text("\n".join(parts) + "\n", encoding="utf-8")
    return path
