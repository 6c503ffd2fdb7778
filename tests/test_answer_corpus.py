"""Answers do not move: a fresh corpus of 300+ varied answers (benchmarks/answer_corpus.py) is
byte for byte the stored one. A change meant to move answers regenerates the file
(``python benchmarks/answer_corpus.py --write``) and says which answers moved and why."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _corpus_module():
    spec = importlib.util.spec_from_file_location("answer_corpus", ROOT / "benchmarks" / "answer_corpus.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_corpus_of_answers_is_unchanged():
    corpus = _corpus_module()
    stored = corpus.STORED.read_text(encoding="utf-8").splitlines()
    fresh = list(corpus.corpus())
    assert len(fresh) == len(stored) >= 300
    moved = [n for n, (a, b) in enumerate(zip(fresh, stored, strict=True)) if a != b]
    assert not moved, f"{len(moved)} answers moved, the first: {fresh[moved[0]][:300]}"
