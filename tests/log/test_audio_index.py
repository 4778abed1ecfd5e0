"""The audio of a corpus is looked for by name in one index per folder and run, to a bounded depth:
every log of a folder shares its resolver (each used to walk the folder again, 6,000 logs naming missing
audio: 58 s), audio copied in beside the logs is seen, and a log at the top of a big tree does not walk
all of it."""

from __future__ import annotations

from pathlib import Path

from annotator.log.audio_refs import SEARCH_DEPTH, AudioResolver, resolver_for
from tests.support.hostile_shapes import missing_audio_corpus


def test_the_logs_of_one_folder_share_one_index(tmp_path: Path):
    paths = missing_audio_corpus(tmp_path, 6, per_folder=3)
    first, second, other = resolver_for(paths[0]), resolver_for(paths[1]), resolver_for(paths[3])
    assert first is second and first is not other
    assert first.locate(f"/recorder/{paths[0].name}.wav").path is None
    assert first.index_folder() is second.index_folder(), "one walk for both"


def test_audio_copied_in_beside_the_logs_is_found(tmp_path: Path):
    paths = missing_audio_corpus(tmp_path, 2, per_folder=2)
    assert resolver_for(paths[0]).locate("/recorder/late.wav").path is None
    (paths[0].parent / "late.wav").write_bytes(b"RIFF")
    assert resolver_for(paths[1]).locate("/recorder/late.wav").path == (paths[0].parent / "late.wav").resolve()


def test_the_search_by_name_goes_a_bounded_depth_down(tmp_path: Path):
    near = tmp_path.joinpath(*[f"d{level}" for level in range(SEARCH_DEPTH)])
    far = tmp_path.joinpath(*[f"d{level}" for level in range(SEARCH_DEPTH + 3)])
    far.mkdir(parents=True)
    (near / "near.wav").write_bytes(b"RIFF")
    (far / "far.wav").write_bytes(b"RIFF")
    resolver = AudioResolver(tmp_path)
    assert resolver.locate("/recorder/near.wav").path == (near / "near.wav").resolve()
    assert resolver.locate("/recorder/far.wav").path is None
