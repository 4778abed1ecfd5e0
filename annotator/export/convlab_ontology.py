"""The dialogue acts a Communicator log really holds, and the ConvLab ontology that declares them.

User turns' acts come from their concept frames (annotator.export.convlab_concepts).
Logs carry no human dialogue-act annotation, but the standard marks three system
acts, and those become ConvLab binary dialogue acts of the "general" domain
(ConvLab's own place for acts without a domain slot):

- type_prompt=":key" on a system operation: {"intent": "prompt", "slot": "key"};
- a system text marked type_error_msg="true": {"intent": "error_message", "slot": ""};
- a system text marked type_help_msg="true": {"intent": "help_message", "slot": ""}.

The ontology lists exactly the domains, intents and acts the dialogues use. Its
dialogue_acts entries are Python-literal dict strings, as ConvLab-3 writes and
eval()s them ("{'user': False, 'system': True, ...}", never JSON's true). There is
no categorical slot, so nothing needs possible_values; the state declares the concept slots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from annotator.export.convlab_concepts import CONCEPT_DOMAIN, CONCEPT_DOMAIN_DESCRIPTION, concept_slots
from annotator.export.dialogue_text import Utterance

GENERAL_DOMAIN = "general"
DOMAIN_DESCRIPTION = "acts that belong to no task domain (prompts, error and help messages)"
INTENT_DESCRIPTIONS = {
    "prompt": "the system prompts the user for a key (the log's type_prompt; the slot is the key without its colon)",
    "error_message": 'the system says it did not understand (a system text marked type_error_msg="true")',
    "help_message": 'the system gives help (a system text marked type_help_msg="true")',
}
ACT_TYPES = ("categorical", "non-categorical", "binary")
_DOMAIN_DESCRIPTIONS = {GENERAL_DOMAIN: DOMAIN_DESCRIPTION, CONCEPT_DOMAIN: CONCEPT_DOMAIN_DESCRIPTION}


def system_acts(utterance: Utterance) -> list[dict[str, str]]:
    """The binary dialogue acts of a system utterance, in log order, each once."""
    acts: list[dict[str, str]] = []
    for part in utterance.parts:
        found = [("prompt", prompt.lstrip(":")) for prompt in part.prompts if prompt.lstrip(":")]
        if part.error_message:
            found.append(("error_message", ""))
        if part.help_message:
            found.append(("help_message", ""))
        for intent, slot in found:
            act = {"intent": intent, "domain": GENERAL_DOMAIN, "slot": slot}
            if act not in acts:
                acts.append(act)
    return acts


def dialogue_acts(
    binary: list[dict[str, str]], valued: Sequence[dict[str, str]] = ()
) -> dict[str, list[dict[str, Any]]]:
    return {"categorical": [], "non-categorical": list(valued), "binary": binary}


def build_ontology(dialogues: list[dict[str, Any]]) -> dict[str, Any]:
    """The ontology of DIALOGUES (ConvLab dialogue dicts): what their acts use, declared once."""
    speakers: dict[tuple[str, str, str, str], set[str]] = {}
    for dialogue in dialogues:
        for turn in dialogue["turns"]:
            for act_type in ACT_TYPES:
                for act in turn["dialogue_acts"][act_type]:
                    key = (act_type, act["intent"], act["domain"], act["slot"])
                    speakers.setdefault(key, set()).add(turn["speaker"])
    domains = sorted({domain for _, _, domain, _ in speakers})
    intents = sorted({intent for _, intent, _, _ in speakers})
    acts: dict[str, list[str]] = {act_type: [] for act_type in ACT_TYPES}
    for (act_type, intent, domain, slot), who in sorted(speakers.items()):
        acts[act_type].append(act_string(intent, domain, slot, user="user" in who, system="system" in who))
    slots = concept_slots(dialogues)
    return {
        "domains": {
            domain: {
                "description": _DOMAIN_DESCRIPTIONS.get(domain, ""),
                "slots": {
                    slot: {"description": "", "is_categorical": False, "possible_values": []}
                    for slot in slots.get(domain, [])
                },
            }
            for domain in domains
        },
        "intents": {intent: {"description": INTENT_DESCRIPTIONS.get(intent, "")} for intent in intents},
        "state": {domain: dict.fromkeys(names, "") for domain, names in slots.items()},
        "dialogue_acts": acts,
    }


def act_string(intent: str, domain: str, slot: str, user: bool, system: bool) -> str:
    """ConvLab's form: the repr of a Python dict, keys in its order."""
    return repr({"user": user, "system": system, "intent": intent, "domain": domain, "slot": slot})
