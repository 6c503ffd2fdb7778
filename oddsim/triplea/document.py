"""Reading a TripleA game file safely: a game file may come from anyone, so it is parsed by
defusedxml (no entity expansion, no external entities, no network) under a size cap, and only a
document whose root is ``<game>`` is accepted.

defusedxml is used rather than hand-set expat flags because it refuses every known XML bomb
(billion laughs, quadratic blow-up, external entities and DTD retrieval) in one well-kept place.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import defusedxml
import defusedxml.ElementTree

from oddsim.errors import RulesetError

MAX_GAME_FILE_BYTES = 8 * 1024 * 1024
"""The largest game file read (the largest official and community maps are about 2.7 MB)."""


class GameFileError(RulesetError):
    """A file that is not a readable TripleA game file: too large, not XML, an entity or
    external reference refused, or XML whose root is not ``<game>``."""


def looks_like_game_file(path: str | Path) -> bool:
    """Whether ``path`` names a file whose content starts like a TripleA game (an XML document
    whose first element is ``<game>``), read from its first 4 KiB: how ``--rules FILE`` tells a
    game file from an oddsim TOML ruleset, by content rather than by name."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    text = head.decode("utf-8", "replace").lstrip("\ufeff \t\r\n")
    if not text.startswith("<"):
        return False
    return "<game>" in text or "<game " in text or "<game\n" in text


def game_file_label(source: str | Path | bytes, name: str | None = None) -> str:
    """How answers and errors name a game file: ``name`` where given, else its path, or "the game
    file" for bytes sent to the server."""
    return name or ("the game file" if isinstance(source, bytes) else str(source))


def read_game_root(source: str | Path | bytes, name: str | None = None) -> ElementTree.Element:
    """The root ``<game>`` element of a TripleA game file, given its path or its bytes (a file
    sent to the server); ``name`` is how errors name it. Raises ``GameFileError`` with one line
    naming the problem and the fix."""
    label = game_file_label(source, name)
    if isinstance(source, bytes):
        data = source
    else:
        try:
            size = Path(source).stat().st_size
            if size > MAX_GAME_FILE_BYTES:  # refused before reading a byte
                raise GameFileError(_too_large(label, size))
            data = Path(source).read_bytes()
        except OSError as error:
            raise GameFileError(f"cannot read game file {label}: {error.strerror or error}; "
                                "check the path") from None
    if len(data) > MAX_GAME_FILE_BYTES:
        raise GameFileError(_too_large(label, len(data)))
    try:
        root = defusedxml.ElementTree.fromstring(data)
    except defusedxml.EntitiesForbidden:
        raise GameFileError(f"{label} declares XML entities, which oddsim refuses (an entity can "
                            "expand without bound); export the game again from TripleA") from None
    except (defusedxml.ExternalReferenceForbidden, defusedxml.DTDForbidden):
        raise GameFileError(f"{label} refers to an external entity, which oddsim refuses; "
                            "export the game again from TripleA") from None
    except ElementTree.ParseError as error:
        raise GameFileError(f"{label} is not XML ({error}); give a TripleA game file "
                            "(a map's games/*.xml, or File > Save > Export game.xml)") from None
    if root.tag != "game":
        raise GameFileError(f"{label} is XML but not a TripleA game (its root is <{root.tag}>, "
                            "not <game>); give a map's games/*.xml or an exported game.xml")
    return root


def _too_large(label: str, size: int) -> str:
    return (f"{label} is {size / 1e6:.1f} MB, over the {MAX_GAME_FILE_BYTES / 1e6:.1f} MB a game "
            "file may have; give a map's own game file (the largest are about 2.7 MB)")
