"""``fightlog rulesets``: the installed rulesets, their options and defaults, whether each
plays; exit 0, 1 when an installed one is broken, and 2 for bad usage."""

from __future__ import annotations

import json
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
from click.testing import CliRunner

from fightlog.cli.main import cli
from fightlog.events import FORMAT_VERSION, RoundStarted, SceneStarted
from fightlog.events.store import FileStore
from fightlog.kit.ruleset import GenericRules
from fightlog.reducers import fold_rules
from fightlog.rules.d20evasion.options import D20Options
from fightlog.rules.traveller.options import TravellerOptions
from fightlog.rules.roe7.findings import FINDINGS as ROE7_FINDINGS
from fightlog.rules.roe7.options import Roe7Options
from tests.kit import with_points


class FoldsOnly(GenericRules):
    id = "folds-only"


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["rulesets", *args])
    return result.exit_code, result.stdout, result.stderr


def test_human_lists_each_ruleset_with_its_options() -> None:
    code, out, _ = run()
    assert code == 0
    blocks = out.split("\n\n")
    assert [b.split(":")[0] for b in blocks] == ["bleeding-sun", "d20-evasion", "en51", "roe7", "traveller"]
    roe7 = blocks[3].splitlines()
    assert roe7[0] == (f"roe7: plays fights (fightlog play, fightlog run) and simulates them (fightlog sim); "
                       f"{len(ROE7_FINDINGS)} finding codes of its own (--findings lists them)")
    assert roe7[1] == "  options (default; accepts):"
    assert len(roe7) == 2 + len(Roe7Options.__struct_fields__)
    assert any(line.split() == ["time_of_day", "=", '"day"', "(one", "of", "'day',", "'night')"] for line in roe7)
    assert any(line.split() == ["flee_attempts", "=", "2", "(an", "integer", ">=", "0)"] for line in roe7)


def test_json_gives_options_defaults_and_findings() -> None:
    code, out, _ = run("--format", "json")
    assert code == 0 and out.count("\n") == 1
    found = {r["id"]: r for r in json.loads(out)["rulesets"]}
    assert set(found) == {"roe7", "d20-evasion", "traveller", "en51", "bleeding-sun"}
    assert {r["id"]: (r["plays"], r["simulates"]) for r in found.values()} == dict.fromkeys(found, (True, True))
    traveller = found["traveller"]
    assert traveller["plays"] is True
    assert {o["name"]: o["default"] for o in traveller["options"]}["aim_max"] == 6
    assert [o["name"] for o in traveller["options"]] == list(TravellerOptions.__struct_fields__)
    assert "rules.attack-dm" in {f["code"] for f in traveller["findings"]}
    d20 = found["d20-evasion"]
    assert d20["plays"] is True
    assert [o["name"] for o in d20["options"]] == list(D20Options.__struct_fields__)
    assert {o["name"]: o["default"] for o in d20["options"]}["mode"] == "quest"
    assert {f["code"]: f["severity"] for f in found["roe7"]["findings"]}["rules.tie-to-attacker"] == "error"


def test_a_ruleset_without_a_table_cannot_play(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fold_rules._REGISTRY, "folds-only", FoldsOnly())
    code, out, _ = run()
    assert code == 0
    assert "folds-only: folds and audits; cannot play; 0 finding codes of its own" in out.split("\n\n")
    code, out, _ = run("--format", "json")
    assert {"id": "folds-only", "plays": False, "simulates": False, "options": [], "findings": []} in \
        json.loads(out)["rulesets"]


class PlaysOnly(GenericRules):
    """A ruleset with the roe7 table and no policy: it plays, ``fightlog sim`` cannot."""

    id = "plays-only"
    table_module = "fightlog.rules.roe7.table"


def test_a_ruleset_with_a_table_and_no_policy_plays_but_cannot_be_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(fold_rules._REGISTRY, "plays-only", PlaysOnly())
    code, out, _ = run()
    assert code == 0
    (block,) = [b for b in out.split("\n\n") if b.startswith("plays-only:")]
    assert block.splitlines()[0] == ("plays-only: plays fights (fightlog play, fightlog run); no policy to simulate "
                                     "them (fightlog sim); 0 finding codes of its own")
    code, out, _ = run("--format", "json")
    (listed,) = [r for r in json.loads(out)["rulesets"] if r["id"] == "plays-only"]
    assert (listed["plays"], listed["simulates"]) == (True, False)


def test_bad_usage_exits_2() -> None:
    code, _, err = run("--format", "yaml")
    assert code == 2 and "Invalid value for '--format'" in err
    code, _, err = run("roe7")
    assert code == 2 and "unexpected extra argument" in err.lower()


class BadTable(GenericRules):
    id = "bad-table"
    table_module = "no_such_module_for_fightlog.table"


BAD_TABLE = BadTable()


class Impostor(GenericRules):
    id = "roe7"


IMPOSTOR = Impostor()


class Twice(GenericRules):
    id = "twice"


TWICE = Twice()


@pytest.mark.parametrize(
    ("point", "why"),
    [
        (EntryPoint("wrong", "fightlog.rules.roe7.ruleset:RULES", fold_rules.GROUP),
         "ruleset 'wrong': its entry point fightlog.rulesets:wrong (fightlog.rules.roe7.ruleset:RULES) is not a "
         "ruleset with id 'wrong'"),
        (EntryPoint("missing", "no_such_module_for_fightlog.ruleset:RULES", fold_rules.GROUP),
         "ruleset 'missing': its entry point fightlog.rulesets:missing (no_such_module_for_fightlog.ruleset:RULES) "
         "does not load: ModuleNotFoundError: No module named 'no_such_module_for_fightlog'"),
        (EntryPoint("bad-table", "tests.kit.test_rulesets_cli:BAD_TABLE", fold_rules.GROUP),
         "ruleset 'bad-table': its table (no_such_module_for_fightlog.table.TABLE) does not load: "
         "ModuleNotFoundError: No module named 'no_such_module_for_fightlog'"),
        (EntryPoint("bad-table", "tests.kit.test_rulesets_cli:BadTable", fold_rules.GROUP),
         "ruleset 'bad-table': its entry point fightlog.rulesets:bad-table (tests.kit.test_rulesets_cli:BadTable) "
         "names the class BadTable, not a ruleset: name an instance (RULES = BadTable())"),
        (EntryPoint("wrong", "tests.kit.test_rulesets_cli:run", fold_rules.GROUP),
         "ruleset 'wrong': its entry point fightlog.rulesets:wrong (tests.kit.test_rulesets_cli:run) is not a "
         "ruleset with id 'wrong'"),
    ],
    ids=["wrong-id", "missing-module", "missing-table", "a-class", "a-function"],
)
def test_a_broken_plugin_is_listed_as_broken_and_exits_1(monkeypatch: pytest.MonkeyPatch, point: EntryPoint,
                                                        why: str) -> None:
    """The others are listed as ever; the broken one says why; exit 1 (a finding)."""
    with_points(monkeypatch, point)
    code, out, err = run()
    assert code == 1 and err == ""
    assert f"{point.name}: broken: {why}" in out.split("\n")
    assert "roe7: plays fights" in out
    code, out, _ = run("--format", "json")
    assert code == 1
    (listed,) = [r for r in json.loads(out)["rulesets"] if r["id"] == point.name]
    assert listed["broken"] == why and listed["plays"] is False and listed["simulates"] is False


def test_a_plugin_whose_table_module_is_not_there_is_not_playable(monkeypatch: pytest.MonkeyPatch) -> None:
    """``playable()`` (the hints, the completion, ``play start``'s list) named it; ``rulesets``
    says it is broken."""
    from fightlog.kit.ruleset import playable

    with_points(monkeypatch, EntryPoint("bad-table", "tests.kit.test_rulesets_cli:BAD_TABLE", fold_rules.GROUP))
    assert "bad-table" not in playable() and "roe7" in playable()


def test_two_plugins_claiming_one_id_make_it_unusable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Which of them judged a log would depend on the order they were installed in."""
    with_points(monkeypatch, EntryPoint("twice", "tests.kit.test_rulesets_cli:TWICE", fold_rules.GROUP),
                 EntryPoint("twice", "tests.kit.test_rulesets_cli:TWICE", fold_rules.GROUP))
    code, out, _ = run()
    assert code == 1
    assert ("twice: broken: ruleset 'twice' is claimed by 2 installed distributions: an unnamed distribution "
            "(tests.kit.test_rulesets_cli:TWICE), an unnamed distribution (tests.kit.test_rulesets_cli:TWICE); "
            "uninstall all but one, or give each its own id") in out.split("\n")


def test_a_plugin_claiming_a_bundled_id_is_ignored_and_listed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """fightlog's own roe7 keeps judging roe7 logs; ``rulesets`` names the impostor, exit 1."""
    with_points(monkeypatch, EntryPoint("roe7", "tests.kit.test_rulesets_cli:IMPOSTOR", fold_rules.GROUP))
    monkeypatch.setattr(fold_rules, "_REGISTRY", {})
    assert type(fold_rules.ruleset_for("roe7")).__name__ == "Roe7Rules"
    code, out, _ = run()
    assert code == 1
    assert ("  ignored: an unnamed distribution (tests.kit.test_rulesets_cli:IMPOSTOR) claims this id, fightlog's "
            "own: ignored") in out.split("\n")
    code, out, _ = run("--format", "json")
    (roe7,) = [r for r in json.loads(out)["rulesets"] if r["id"] == "roe7"]
    assert roe7["plays"] is True and len(roe7["ignored"]) == 1


def test_a_log_naming_a_broken_plugin_is_one_line_and_exit_2(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A command that needs the ruleset says why it cannot have it (no traceback, no crash
    report), and commands that do not need it (the hints of play start) are not troubled."""
    with_points(monkeypatch, EntryPoint("missing", "no_such_module_for_fightlog.ruleset:RULES", fold_rules.GROUP))
    log = tmp_path / "fight.jsonl"
    FileStore(str(log)).append([SceneStarted(scene="s", ruleset="missing", format=FORMAT_VERSION), RoundStarted(round=1)])
    for command in ("audit", "state", "replay"):
        result = CliRunner().invoke(cli, [command, str(log)])
        assert result.exit_code == 2, (command, result.output)
        assert result.stderr.splitlines()[-1] + "\n" == ("fightlog: ruleset 'missing': its entry point fightlog.rulesets:missing "
                                 "(no_such_module_for_fightlog.ruleset:RULES) does not load: ModuleNotFoundError: "
                                 "No module named 'no_such_module_for_fightlog'\n"), command
    result = CliRunner().invoke(cli, ["play", "start", str(tmp_path / "new.jsonl"), "--ruleset", "rooe7"])
    assert result.exit_code == 2 and "roe7" in result.stderr and "missing" not in result.stderr


def test_is_installed_answers_as_the_list_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """``is_installed`` (asked by the audit at every join, without listing the entry points)
    agrees with ``installed()``: installed, registered, loaded or not, broken, and unknown ids."""
    from fightlog.kit.ruleset import installed, is_installed

    with_points(monkeypatch, EntryPoint("missing", "no_such_module_for_fightlog.ruleset:RULES", fold_rules.GROUP))
    fold_rules.register(FoldsOnly())
    listed = installed()
    assert {"generic", "roe7", "bleeding-sun", "missing", "folds-only"} <= set(listed)
    for ruleset_id in (*listed, "rooe7", "", "ROE7", "fightlog.rulesets"):
        assert is_installed(ruleset_id) == (ruleset_id in listed), ruleset_id


def test_the_entry_points_are_read_once_for_a_ruleset_not_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log under a ruleset fightlog does not have (an imported fight) folds under the
    generic rules; its id is looked up among the entry points once, not at every fold (a
    look reads every installed distribution's metadata: a replay with rulings refolds)."""
    from fightlog.reducers.fold import fold

    real = fold_rules.entry_points
    looks: list[str | None] = []

    def counted(*, group: str, name: str | None = None) -> list[EntryPoint]:
        looks.append(name)
        return [p for p in real(group=group) if name is None or p.name == name]

    monkeypatch.setattr(fold_rules, "entry_points", counted)
    events = [SceneStarted(seq=1, scene="s", ruleset="sl-house-rules", format=FORMAT_VERSION)]
    states = [fold(events) for _ in range(20)]
    assert states[0].scene is not None and states[0].scene.ruleset == "sl-house-rules"
    assert len(looks) == 1
    assert fold_rules.ruleset_for("sl-house-rules") is None and len(looks) == 1
    assert fold_rules.ruleset_for("roe7") is not None  # an installed one still loads


def test_findings_lists_what_each_code_means_and_its_section() -> None:
    """A player who met `rules.tie-to-attacker` found its meaning only in the JSON (a new user)."""
    code, out, _ = run("--findings")
    assert code == 0
    roe7 = out.split("\n\n")[3].splitlines()
    at = roe7.index("  findings (severity: what it means [rulebook section]):")
    listed = roe7[at + 1:]
    assert [line.split()[0] for line in listed] == sorted(ROE7_FINDINGS)
    tie = ROE7_FINDINGS["rules.tie-to-attacker"]
    assert f"    rules.tie-to-attacker  {tie.severity}: {tie.meaning} [{tie.section}]" in listed
    assert "(--findings lists them)" not in roe7[0]


def test_actions_lists_what_each_action_type_reads() -> None:
    """A tester playing three rulesets found that `move toward=ID m=N` (roe7), `x= y=`
    (traveller) and `target=ID range=close` (d20-evasion) were told apart only by trying, and
    the docs sent a GM to `PARAMS_READ` in the source."""
    code, out, _ = run("--actions")
    assert code == 0
    roe7 = out.split("\n\n")[3].splitlines()
    assert "  actions (spends: fields; params), as play post --do writes them (TYPE key=value ...):" in roe7
    assert "    move        move: distance; m, difficult, cover, fall, x, y, toward, away" in roe7
    assert "    say         nothing: -; text" in roe7
    assert "actions (" not in run()[1]  # asked for only
    code, out, _ = run("--actions", "--format", "json")
    listed = {r["id"]: {a["type"]: a for a in r["actions"]} for r in json.loads(out)["rulesets"]}
    from fightlog.kit.table import table_for

    for ruleset, actions in listed.items():
        assert set(actions) == set(table_for(ruleset).action_types)
    assert listed["bleeding-sun"]["throw"]["params"][-2:] == ["lob", "caught"]
    assert listed["traveller"]["move"]["fields"] == ["distance"]
    assert listed["roe7"]["say"]["spends"] == "nothing"  # as the human list says (a tester: null there)
    # Bleeding Sun's free actions count (one a turn): "free" was also said of what spends nothing
    assert (listed["bleeding-sun"]["say"]["spends"], listed["bleeding-sun"]["hold_aim"]["spends"]) == ("free", "nothing")


@pytest.mark.parametrize("ruleset", ["bleeding-sun", "d20-evasion", "en51", "roe7", "traveller"])
def test_every_param_listed_is_one_a_post_may_write_and_no_other(ruleset: str) -> None:
    """What `--actions` lists is what the table takes: each param listed is read (not refused
    as changing nothing), a made-up one is refused."""
    from fightlog.errors import RefusedError
    from fightlog.events.model import Action
    from fightlog.kit.declared import unread_param
    from fightlog.kit.table import table_for

    table = table_for(ruleset)
    for kind, (_, params) in table.reads().items():  # type: ignore[attr-defined]
        if ruleset == "bleeding-sun":
            from fightlog.rules.bleedingsun.planning import ATTACKS
            from fightlog.rules.bleedingsun.post_params import check_said

            if kind in ATTACKS:
                continue  # an attack's params are its plan's, by kind (test_post_params.py)

            def said(action: Action) -> None:
                check_said([action], ATTACKS)
        else:
            def said(action: Action) -> None:
                unread_param([action], table.params_read, table.fields_read)  # type: ignore[attr-defined]
        for param in params:
            try:
                said(Action(type=kind, params={param: 1}))
            except RefusedError as exc:
                assert "is not read by" not in exc.message, (kind, param, exc.message)
        with pytest.raises(RefusedError, match="is not read by"):
            said(Action(type=kind, params={"zzz": 1}))
