"""A re-implementation, for the tests, of the validation rules of ConvLab-3's
data/unified_datasets/check.py (the checker every unified dataset must pass), written
from the rules it enforces and from the issue:

dataset folder
- preprocess.py and data.zip exist; data.zip holds data/ontology.json and
  data/dialogues.json; dummy_data.json beside it passes the same dialogue checks;
  README.md exists (the seed: "Each dataset contains at least these files").

ontology
- has domains, intents, state and dialogue_acts;
- every domain and slot and intent has a description key; a categorical slot has
  non-empty possible_values, none of them a special value ("", "dontcare", None, "?",
  compared lower-cased);
- every state domain is a domain, every state slot a slot of it, every state value "";
- every entry of dialogue_acts[type] is the repr of a Python dict (check.py eval()s it:
  JSON's true/false are an error) with user, system, intent, domain and slot.

dialogues
- dialogue_id is a str "NAME-SPLIT-N": exactly three "-"-separated parts (so no "-"
  in the dataset or split name), NAME the dataset, SPLIT the dialogue's data_split, N
  an integer; ids unique; dataset == the folder's name; data_split a str;
- domains (when present) a list of ontology domains; goal (when present) has a str
  description and dicts inform (non-empty values) and request (empty values) whose
  domain-slot pairs are valid;
- turns non-empty; speaker "user" or "system"; utt_idx == position; speakers alternate;
  utterance a str;
- dialogue_acts (when present): lists categorical, non-categorical, binary; the
  categorical and non-categorical acts name an ontology intent and a slot of a
  domain of the dialogue whose is_categorical matches; a non-categorical act's
  start and end come together and cut out its value; every act is declared in the
  ontology's dialogue_acts for its speaker; a binary act has no value;
- user turns never carry db_results; their state (when present) is a dict of valid
  domain-slot pairs; system turns never carry state; their db_results (when present)
  is a dict of lists. With strict=True also the older check.py's demands: every user
  turn has a state, every system turn db_results, every dialogue domains and goal.
"""

from __future__ import annotations

import ast
import json
import zipfile
from pathlib import Path
from typing import Any

SPECIAL_VALUES = ("", "dontcare", None, "?")


class ConvLabCheckError(AssertionError):
    pass


def fail_unless(condition: Any, message: str) -> None:
    if not condition:
        raise ConvLabCheckError(message)


def check_dataset_folder(folder: Path, strict: bool = True) -> dict[str, Any]:
    """Check the dataset folder as check.py does; returns the ontology and the dialogues."""
    name = folder.name
    for required in ("preprocess.py", "data.zip", "dummy_data.json", "README.md"):
        fail_unless((folder / required).is_file(), f"{name}: no {required}")
    with zipfile.ZipFile(folder / "data.zip") as archive:
        ontology = check_ontology(json.loads(archive.read("data/ontology.json")))
        dialogues = json.loads(archive.read("data/dialogues.json"))
    check_dialogues(name, json.loads((folder / "dummy_data.json").read_text(encoding="utf-8")), ontology, strict)
    check_dialogues(name, dialogues, ontology, strict)
    return {"ontology": ontology, "dialogues": dialogues}


def check_ontology(ontology: dict[str, Any]) -> dict[str, Any]:
    for key in ("domains", "intents", "state", "dialogue_acts"):
        fail_unless(key in ontology, f"ONTOLOGY\tno {key}")
    for domain_name, domain in ontology["domains"].items():
        fail_unless("description" in domain, f"ONTOLOGY\tdomain {domain_name} has no description")
        for slot_name, slot in domain["slots"].items():
            fail_unless(
                "description" in slot and "is_categorical" in slot,
                f"ONTOLOGY\tslot {domain_name}-{slot_name} lacks description or is_categorical",
            )
            if slot["is_categorical"]:
                fail_unless(
                    slot.get("possible_values"),
                    f"ONTOLOGY\tcategorical slot {domain_name}-{slot_name} without possible values",
                )
                values = [str.lower(v) for v in slot["possible_values"]]
                for special in SPECIAL_VALUES:
                    fail_unless(special not in values, f"ONTOLOGY\tspecial value `{special}` among possible values")
    for intent_name, intent in ontology["intents"].items():
        fail_unless("description" in intent, f"ONTOLOGY\tintent {intent_name} has no description")
    for domain_name, slots in ontology["state"].items():
        fail_unless(domain_name in ontology["domains"], f"ONTOLOGY\tstate domain {domain_name} undefined")
        for slot_name, value in slots.items():
            fail_unless(
                slot_name in ontology["domains"][domain_name]["slots"],
                f"ONTOLOGY\tstate slot {domain_name}-{slot_name} undefined",
            )
            fail_unless(value == "", 'ONTOLOGY\tshould set value in state to ""')
    declared: dict[str, dict[tuple[str, str, str], dict[str, bool]]] = {}
    for act_type, entries in ontology["dialogue_acts"].items():
        declared[act_type] = {}
        for entry in entries:
            try:
                act = ast.literal_eval(entry)  # what check.py's eval() accepts from a literal
            except (ValueError, SyntaxError) as error:
                raise ConvLabCheckError(f"ONTOLOGY\tdialogue act {entry!r} is not a Python literal: {error}") from None
            fail_unless(
                isinstance(act, dict) and {"user", "system", "intent", "domain", "slot"} <= set(act),
                f"ONTOLOGY\tdialogue act {entry!r} lacks keys",
            )
            declared[act_type][(act["intent"], act["domain"], act["slot"])] = {
                "user": act["user"],
                "system": act["system"],
            }
    return {**ontology, "da_dict": declared}


def check_dialogues(name: str, dialogues: list[dict[str, Any]], ontology: dict[str, Any], strict: bool = True) -> None:
    seen: set[str] = set()
    for dialogue in dialogues:
        dialogue_id = dialogue["dialogue_id"]
        fail_unless(isinstance(dialogue_id, str), f"{dialogue_id}\t`dialogue_id` is expected to be str type")
        fail_unless(dialogue["dataset"] == name, f"{dialogue_id}\tinconsistent dataset name: {dialogue['dataset']}")
        split = dialogue["data_split"]
        fail_unless(isinstance(split, str), f"{dialogue_id}\t`split` is expected to be str type")
        parts = dialogue_id.split("-")
        fail_unless(
            len(parts) == 3 and parts[0] == name and parts[1] == split and _is_int(parts[2]),
            f"{dialogue_id}\twrong dialogue id format: {dialogue_id}",
        )
        fail_unless(dialogue_id not in seen, f"multiple dialogue id: {dialogue_id}")
        seen.add(dialogue_id)
        _check_dialogue(dialogue, ontology, strict)


def _check_dialogue(dialogue: dict[str, Any], ontology: dict[str, Any], strict: bool) -> None:
    dialogue_id = dialogue["dialogue_id"]
    if strict:
        fail_unless("domains" in dialogue and "goal" in dialogue, f"{dialogue_id}\tno domains or goal")
    domains = set()
    if "domains" in dialogue:
        fail_unless(isinstance(dialogue["domains"], list), f"{dialogue_id}\t`domains` is expected to be list type")
        domains = set(dialogue["domains"])
        for domain in domains:
            fail_unless(domain in ontology["domains"], f"{dialogue_id}\tundefined current domain: {domain}")
    check = _SlotCheck(ontology, domains, dialogue_id)
    if "goal" in dialogue:
        goal = dialogue["goal"]
        fail_unless(isinstance(goal["description"], str), f"{dialogue_id}\tgoal description should be string")
        fail_unless(
            isinstance(goal["inform"], dict) and isinstance(goal["request"], dict),
            f"{dialogue_id}\tgoal inform and request should be dicts",
        )
        for domain, slots in goal["inform"].items():
            for slot, value in slots.items():
                check(domain, slot, "goal")
                fail_unless(value != "", f"{dialogue_id}\tshould set non-empty value in goal inform")
        for domain, slots in goal["request"].items():
            for slot, value in slots.items():
                check(domain, slot, "goal")
                fail_unless(value == "", f"{dialogue_id}\tshould set empty value in goal request")
    turns = dialogue["turns"]
    fail_unless(turns, f"{dialogue_id}\tempty turn")
    for position, turn in enumerate(turns):
        _check_turn(turn, position, turns, ontology, check, f"{dialogue_id}:{position}", strict)


def _check_turn(
    turn: dict[str, Any],
    position: int,
    turns: list[dict[str, Any]],
    ontology: dict[str, Any],
    check: _SlotCheck,
    where: str,
    strict: bool,
) -> None:
    speaker = turn["speaker"]
    fail_unless(speaker in ("user", "system"), f"{where}\tunknown speaker value: {speaker}")
    fail_unless(turn["utt_idx"] == position, f"{where}\twrong utt_idx")
    if position > 0:
        fail_unless(turns[position - 1]["speaker"] != speaker, f"{where}\tuser and system should speak alternatively")
    utterance = turn["utterance"]
    fail_unless(isinstance(utterance, str), f"{where}\tutterance should be a str")
    if "dialogue_acts" in turn:
        acts = turn["dialogue_acts"]
        for act_type in ("categorical", "non-categorical", "binary"):
            fail_unless(isinstance(acts[act_type], list), f"{where}\t{act_type} dialogue_acts should be a list")
        for act_type, categorical in (("categorical", True), ("non-categorical", False)):
            for act in acts[act_type]:
                fail_unless(act["intent"] in ontology["intents"], f"{where}:da\tundefined intent {act['intent']}")
                check(act["domain"], act["slot"], "dialogue act", categorical)
        for act in acts["non-categorical"]:
            if act["value"] not in SPECIAL_VALUES:
                fail_unless(("start" in act) == ("end" in act), f"{where}\tstart and end should come together")
                if "start" in act:
                    fail_unless(utterance[act["start"] : act["end"]] == act["value"], f"{where}\tspan and value differ")
        for act_type, entries in acts.items():
            for act in entries:
                declared = ontology["da_dict"].get(act_type, {}).get((act["intent"], act["domain"], act["slot"]))
                fail_unless(
                    declared is not None and declared[speaker] is True,
                    f"{where}\t{act_type} act {act} not declared for the {speaker} in the ontology",
                )
                if act_type == "binary":
                    fail_unless("value" not in act, f"{where}\tbinary dialogue act should not have value")
    if speaker == "user":
        fail_unless("db_results" not in turn, f"{where}\tdb_results cannot present in user's role")
        fail_unless("state" in turn or not strict, f"{where}\tstate must present in user's role")
        if "state" in turn:
            fail_unless(isinstance(turn["state"], dict), f"{where}\tstate should be a dict")
            for domain, slots in turn["state"].items():
                for slot in slots:
                    check(domain, slot, "state")
    else:
        fail_unless("state" not in turn, f"{where}\tstate cannot present in system's role")
        fail_unless("db_results" in turn or not strict, f"{where}\tdb_results must present in system's role")
        if "db_results" in turn:
            fail_unless(isinstance(turn["db_results"], dict), f"{where}\tdb_results should be a dict")
            for results in turn["db_results"].values():
                fail_unless(isinstance(results, list), f"{where}\tdb_results values should be lists")


class _SlotCheck:
    """check.py's domain-slot check for goals, states and dialogue acts."""

    def __init__(self, ontology: dict[str, Any], domains: set[str], where: str):
        self.ontology, self.domains, self.where = ontology, domains, where

    def __call__(self, domain: str, slot: str, kind: str, categorical: bool | None = None) -> None:
        if kind != "state":
            fail_unless(domain in self.domains, f"{self.where}\t{domain} not presented in current domains")
        fail_unless(domain in self.ontology["domains"], f"{self.where}\tdomain {domain} not in the ontology")
        slots = self.ontology["domains"][domain]["slots"]
        fail_unless(slot in slots, f"{self.where}\t{slot} not presented in domain {domain} in ontology")
        if categorical is not None:
            fail_unless(
                categorical == slots[slot]["is_categorical"],
                f"{self.where}\t{domain}-{slot} is_categorical should be {slots[slot]['is_categorical']}",
            )


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True
