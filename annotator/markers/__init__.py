"""Markers: Rasa-style conditions over Communicator sessions (docs/markers.md).

from annotator.markers import load_markers, apply_markers
markers = load_markers(shipped_kpis_path())   # or any YAML file or folder
for hit in apply_markers(markers, doc):
    hit.marker, hit.session_index, hit.event_index, hit.element, hit.num_preceding_user_turns, hit.seconds
"""

from annotator.markers.extract import MarkerHit, SessionMarkers, apply_markers, extract_markers, hits_per_session
from annotator.markers.language import (
    Marker,
    MarkerConfigError,
    MarkerSet,
    load_markers,
    parse_markers,
    shipped_kpis_path,
)

__all__ = [
    "Marker",
    "MarkerConfigError",
    "MarkerHit",
    "MarkerSet",
    "SessionMarkers",
    "apply_markers",
    "extract_markers",
    "hits_per_session",
    "load_markers",
    "parse_markers",
    "shipped_kpis_path",
]
