"""Hostile shapes generated at any size: legal logs that are extreme in one dimension.

    path.write_text(deep_frame_log(2_048))           # parse and reference frames nested to the loader's limit
    path.write_text(many_attributes_log(50_000))     # one element with 50,000 attributes
    path.write_text(huge_transcription_log(10**6))   # one turn whose transcription is a million characters
    missing_audio_corpus(folder, 300)                # 300 logs naming audio that is nowhere

Shared by the safety tests (tests/safety), the fuzz tests and the benchmarks (tests/benchmarks), so that
each finds the same shapes at the size it can afford.
"""

from __future__ import annotations

from pathlib import Path

LOADER_DEPTH_LIMIT = 2_048  # the deepest element libxml2 reads with huge_tree (log_reader.make_parser)
_ABOVE_THE_FRAME = 5  # GC_LOG, GC_SESSION, GC_TURN, GC_OPERATION or GC_ANNOT, and the GC_DATA holding the frame


def frame_chain(depth: int, value: str = "deep value") -> str:
    """A GC_FRAME whose only slot holds a frame, and so on: DEPTH elements deep in all (an odd DEPTH ends
    in an empty GC_DATA inside the last slot, which flattening ignores)."""
    pairs = max(1, depth // 2)
    opening = "".join(f'<GC_FRAME name="f{level}"><GC_DATA key=":k{level}">' for level in range(pairs))
    end = '<GC_DATA key=":end"/>' if depth % 2 and depth > 2 else ""
    return opening + value + end + "</GC_DATA></GC_FRAME>" * pairs


def deep_frame_path(depth: int) -> str:
    """The one slot path the frames of deep_frame_log(DEPTH) flatten to."""
    return "/".join(f":k{level}" for level in range(max(1, (depth - _ABOVE_THE_FRAME) // 2)))


def deep_frame_log(depth: int, reference: bool = True) -> str:
    """A one-session log whose user turn's parse frame and (with REFERENCE) reference frame in GC_ANNOT
    reach element depth DEPTH in the document; DEPTH up to LOADER_DEPTH_LIMIT loads."""
    chain = frame_chain(depth - _ABOVE_THE_FRAME)
    concepts = f'<GC_DATA key=":concepts" type_utt_text="concepts">{chain}</GC_DATA>' if reference else ""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="deep:1" stime="1" etime="9">
<GC_TURN id="1" stime="1" etime="2"><GC_OPERATION name="greet" server="dialogue" location="l:1" turnid="1" \
stime="1" etime="2" type_new_turn="system"><GC_DATA key=":reply_string" type="text_output" \
type_utt_text="system">where to</GC_DATA></GC_OPERATION></GC_TURN>
<GC_TURN id="2" stime="3" etime="4"><GC_OPERATION name="parse" server="nl" location="l:1" turnid="2" \
stime="3" etime="4" type_new_turn="user"><GC_DATA key=":input_string" type="text_input" \
type_utt_text="asr">fly to boston</GC_DATA><GC_DATA key=":parse_frame" type="concept">{chain}</GC_DATA>\
</GC_OPERATION><GC_ANNOT><GC_DATA key=":transcription" type_utt_text="transcription">fly to boston</GC_DATA>\
{concepts}</GC_ANNOT></GC_TURN>
</GC_SESSION></GC_LOG>
"""


def deepest_element(text: str) -> int:
    """The depth of the deepest element of TEXT (the root is 1), counted without a parser's limits."""
    depth = deepest = 0
    at = text.find("<")
    while at >= 0:
        following = text[at + 1 : at + 2]
        if following == "/":
            depth -= 1
        elif following not in "?!":
            deepest = max(deepest, depth + 1)
            depth += not text[at : text.find(">", at) + 1].endswith("/>")
        at = text.find("<", at + 1)
    return deepest


def many_attributes_log(count: int) -> str:
    """A one-turn log whose GC_OPERATION carries COUNT extra attributes (names DTD quirks do not know)."""
    extra = " ".join(f'x{number}="{number}"' for number in range(count))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="attributes:1" stime="1" etime="9">
<GC_TURN id="1" stime="1" etime="2"><GC_OPERATION name="greet" server="dialogue" location="l:1" turnid="1" \
stime="1" etime="2" type_new_turn="system" {extra}/></GC_TURN>
</GC_SESSION></GC_LOG>
"""


def huge_transcription_log(characters: int, word: str = "boston") -> str:
    """A one-turn user log whose recognizer text and transcription are each about CHARACTERS long."""
    words = " ".join([word] * max(1, characters // (len(word) + 1)))
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="huge:1" stime="1" etime="9">
<GC_TURN id="1" stime="3" etime="4"><GC_OPERATION name="parse" server="nl" location="l:1" turnid="1" \
stime="3" etime="4" type_new_turn="user"><GC_DATA key=":input_string" type="text_input" \
type_utt_text="asr">{words}</GC_DATA></GC_OPERATION><GC_ANNOT><GC_DATA key=":transcription" \
type_utt_text="transcription">{words} fly</GC_DATA></GC_ANNOT></GC_TURN>
</GC_SESSION></GC_LOG>
"""


def missing_audio_log(name: str) -> str:
    """A one-turn log named NAME whose user turn refers to audio NAME-user.wav that does not exist."""
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<GC_LOG><GC_SESSION id="{name}" stime="1" etime="9">
<GC_TURN id="1" stime="3" etime="4"><GC_OPERATION name="parse" server="nl" location="l:1" turnid="1" \
stime="3" etime="4" type_new_turn="user"><GC_DATA key=":input_string" type="text_input" \
type_utt_text="asr">fly to boston</GC_DATA><GC_DATA key=":utterance_filename" type="audio_input" \
mime_type="audio/x-wav">{name}-user.wav</GC_DATA></GC_OPERATION></GC_TURN>
</GC_SESSION></GC_LOG>
"""


def missing_audio_corpus(folder: Path, logs: int, per_folder: int = 50) -> list[Path]:
    """LOGS logs under FOLDER, PER_FOLDER to a sub-folder, each naming audio that is nowhere. Their paths."""
    paths = []
    for number in range(logs):
        name = f"missing-{number:06d}"
        path = folder / f"site-{number // per_folder:04d}" / f"{name}-hublog.xml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(missing_audio_log(name), encoding="utf-8")
        paths.append(path)
    return paths
