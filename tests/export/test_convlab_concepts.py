"""The ConvLab export's user acts and state come from the reference concepts where a turn has them, else the parse."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from annotator.cli.main import main
from annotator.log.annotations import set_concepts
from annotator.log.concepts import Concepts
from annotator.log.document import LogDocument
from tests.support.convlab_checker import check_dataset_folder

ZURICH = Concepts("give_source", ((":source", "Zürich"), (":date/:month", "may")))


def _user_turn_with(dialogue: dict, turn_id: str) -> dict:
    return next(t for t in dialogue["turns"] if any(p["turn_id"] == turn_id for p in t["log_turns"]))


def test_reference_concepts_replace_the_parse_and_the_readme_counts_each_source(
    transcribed_corpus: Path, tmp_path: Path, capsys
):
    log = transcribed_corpus / "travel-20261121-003" / "travel-20261121-003-hublog.xml"
    document = LogDocument.load(log)
    turns = {turn.id: turn for turn in document.sessions[0].turns}
    set_concepts(turns["6"], ZURICH)
    document.save()
    assert main(["export", "--to", "convlab", str(transcribed_corpus), "-o", str(tmp_path / "out")]) == 0, (
        capsys.readouterr().err
    )
    folder = tmp_path / "out" / "communicator"
    checked = check_dataset_folder(folder)  # strict: what ConvLab-3's check.py demands
    third = checked["dialogues"][2]
    corrected = _user_turn_with(third, "6")
    assert corrected["dialogue_acts"]["non-categorical"] == [
        {"intent": "give_source", "domain": "concepts", "slot": "source", "value": "Zürich"},
        {"intent": "give_source", "domain": "concepts", "slot": "date/month", "value": "may"},
    ]
    assert corrected["state"]["concepts"]["source"] == "Zürich"  # the parse said Munich
    [part] = corrected["log_turns"]
    assert (part["concepts"], part["concepts_source"]) == (ZURICH.compact(), "reference")
    later = third["turns"][third["turns"].index(corrected) + 2]
    assert later["state"]["concepts"]["source"] == "Zürich", "the state carries the value on"
    assert {"source", "date/month"} <= set(checked["ontology"]["state"]["concepts"])
    parts = [p for d in checked["dialogues"] for t in d["turns"] if t["speaker"] == "user" for p in t["log_turns"]]
    from_parse = sum(p["concepts_source"] == "parse" for p in parts)
    neither = sum(p["concepts_source"] is None for p in parts)
    assert from_parse == 16 and neither == len(parts) - 17
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert (
        f"1 user GC_TURN(s) from the reference concepts, {from_parse} from the parse, {neither} with neither" in readme
    )
    with zipfile.ZipFile(folder / "data.zip") as archive:
        ontology = json.loads(archive.read("data/ontology.json"))
    assert ontology["domains"]["concepts"]["slots"]["source"] == {
        "description": "",
        "is_categorical": False,
        "possible_values": [],
    }
