"""The verb of a tool's name is its first known verb, wherever it stands: a transition named
``kiosk_cancel_ticket`` cancels (status ``cancelled``), it does not "kiosk" the ticket."""

from __future__ import annotations

import json
from pathlib import Path

from doc_tools import doc_tool  # type: ignore[import-not-found]

from autoforge.cli.main import main
from autoforge.lexicon import name_verb
from autoforge.tooldocs import ToolSpec


def test_the_verb_of_a_name_is_its_first_known_verb() -> None:
    def verb(name: str) -> str:
        return name_verb(ToolSpec(name=name, description="", parameters={}))

    assert verb("kiosk_cancel_ticket") == "cancel"
    assert verb("cancel_ticket") == "cancel"
    assert verb("weather") == "weather"  # no known verb: the first word, as before


def test_a_transition_named_after_its_place_sets_the_status_of_its_verb(tmp_path: Path) -> None:
    docs = [
        doc_tool("get_ticket_detail", "Get a ticket by id; returns its status.", ticket_id="Id"),
        doc_tool("search_ticket", "List tickets by status.", status="Ticket status"),
        doc_tool("kiosk_cancel_ticket", "Cancel a ticket bought at a kiosk.", ticket_id="Id"),
    ]
    (tmp_path / "tools.json").write_text(json.dumps(docs), encoding="utf-8")
    out = str(tmp_path / "e")
    try:
        main(["synth", "env", str(tmp_path / "tools.json"), "--llm", "none", "--out", out])
    except SystemExit as exc:  # the command line exits 0 when done
        assert not exc.code
    code = (tmp_path / "e" / "tools.py").read_text(encoding="utf-8")
    assert "record['status'] = 'cancelled'" in code
    assert "kiosked" not in code
