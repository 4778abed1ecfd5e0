"""Load-and-save loses nothing: byte-identical for what the project writes, lossless for the rest."""

from __future__ import annotations

import shutil
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from annotator.log.annotations import set_task_completion, set_transcription
from annotator.log.document import LogDocument
from tests.support.xml_builders import log_text, session, system_turn, user_turn

FOREIGN = """<?xml version='1.0' encoding='ISO-8859-1' standalone='yes'?>
<!-- a comment before the root -->
<?hub-log version="3"?>
<!DOCTYPE GC_LOG>
<GC_LOG logfile_version="11">
  <!-- inside -->
  <GC_SESSION id="s" stime="1000.5" etime="1010">
    <GC_TURN id="-01" stime="1000.5" etime="1002">
      <GC_OPERATION name="reply" server="nl" location="l:1" turnid="-1" stime="1000.5" etime="1001" type_new_turn="system">
        <GC_DATA key=":reply_string" type="text_output"><![CDATA[Fly to <Zürich> & back?]]></GC_DATA>
        <?processing instruction?>
      </GC_OPERATION>
    </GC_TURN>
  </GC_SESSION>
</GC_LOG>
<!-- a comment after the root -->
"""


def test_sample_logs_resave_byte_identical(sample_logs, tmp_path: Path):
    for path in sample_logs:
        doc = LogDocument.load(path)
        assert doc.save(tmp_path / path.name).read_bytes() == path.read_bytes(), path.name


def test_foreign_log_keeps_everything_it_had(tmp_path: Path):
    path = tmp_path / "foreign.xml"
    path.write_bytes(FOREIGN.encode("latin-1"))
    doc = LogDocument.load(path)
    set_transcription(doc.sessions[0].turns[0], "x")  # an edit forces a real serialisation
    set_transcription(doc.sessions[0].turns[0], None)
    out = doc.serialize()
    assert out == path.read_bytes()
    text = out.decode("latin-1")
    for kept in (
        "<!-- a comment before the root -->",
        '<?hub-log version="3"?>',
        "<!DOCTYPE GC_LOG>",
        "<![CDATA[Fly to <Zürich> & back?]]>",
        "<?processing instruction?>",
        "<!-- a comment after the root -->",
        "standalone='yes'",
    ):
        assert kept in text


def test_annotated_output_is_a_fixed_point(annotated_log: Path, latin1_log: Path, tmp_path: Path):
    for path in (annotated_log, latin1_log):
        doc = LogDocument.load(path)
        for turn in doc.sessions[0].user_turns:
            set_transcription(turn, f"changed {turn.id} ünïcode & <tags>")
        set_task_completion(doc.sessions[0], "0")
        saved = doc.save(tmp_path / ("edited-" + path.name))
        again = LogDocument.load(saved).save(tmp_path / ("again-" + path.name))
        assert again.read_bytes() == saved.read_bytes()


_words = st.lists(
    st.sampled_from(["boston", "zürich", "a&b", "<x>", "it's", '"q"', "köln", "1", "-01"]), min_size=1, max_size=6
).map(" ".join)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    turn_count=st.integers(1, 8),
    texts=st.lists(_words, min_size=8, max_size=8),
    encoding=st.sampled_from(["UTF-8", "ISO-8859-1"]),
    pretty=st.booleans(),
    edits=st.lists(st.tuples(st.integers(0, 7), st.one_of(st.none(), _words)), max_size=5),
)
@pytest.mark.slow
def test_generated_logs_round_trip(tmp_path: Path, turn_count, texts, encoding, pretty, edits):
    turns = [
        (system_turn if i % 2 == 0 else user_turn)(f"{i:02d}", 1000 + 2 * i, escape(texts[i]))
        for i in range(turn_count)
    ]
    root = etree.fromstring(log_text([session("s", turns)]).encode("utf-8"))
    if pretty:
        etree.indent(root, space="  ")
    written = (
        f'<?xml version="1.0" encoding="{encoding}"?>\n'.encode()
        + etree.tostring(root, encoding=encoding, xml_declaration=False)
        + b"\n"
    )
    folder = tmp_path / "gen"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    path = folder / "log.xml"
    path.write_bytes(written)
    doc = LogDocument.load(path)
    assert doc.serialize() == written
    for index, text in edits:
        if index < turn_count:
            set_transcription(doc.sessions[0].turns[index], text)
    saved = doc.save(folder / "edited.xml")
    reloaded = LogDocument.load(saved)
    assert reloaded.serialize() == saved.read_bytes()
    assert [t.transcription for t in reloaded.sessions[0].turns] == [t.transcription for t in doc.sessions[0].turns]
