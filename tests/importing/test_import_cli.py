"""``fightlog import`` end to end on the bundled transcripts: the logs and their audits as
snapshots, the same bytes twice, and bad input as one line, exit 2, no log written."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from syrupy.assertion import SnapshotAssertion

from fightlog.cli.main import cli
from tests.conftest import FIXTURES

IMPORT = FIXTURES / "import"
CASES = [
    ("sl", "sl/pump-house.txt", "sl/pump-house.cast.toml", "roe7"),
    ("sl", "sl/midnight-brawl.txt", "sl/midnight-brawl.cast.toml", "roe7"),
    *[(f"discord-{ext}", f"discord/{name}.{ext}", f"discord/{name}.cast.toml", "d20-evasion")
      for ext in ("json", "csv", "txt") for name in ("dockside", "dockside-rematch")],
]


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    assert "Traceback" not in result.output
    return result.exit_code, result.stdout, result.stderr


def imported(tmp_path: Path, fmt: str, transcript: str, cast: str, ruleset: str, name: str = "log.jsonl",
             *extra: str) -> tuple[int, str, str, Path]:
    out = tmp_path / name
    code, stdout, stderr = run("import", fmt, str(IMPORT / transcript), "-o", str(out), "--ruleset", ruleset,
                               "--cast", str(IMPORT / cast), *extra)
    return code, stdout, stderr, out


@pytest.mark.parametrize(("fmt", "transcript", "cast", "ruleset"), CASES, ids=[c[1] for c in CASES])
def test_each_bundled_transcript_imports_and_audits_as_stored(
    tmp_path: Path, snapshot: SnapshotAssertion, fmt: str, transcript: str, cast: str, ruleset: str
) -> None:
    code, stdout, stderr, log = imported(tmp_path, fmt, transcript, cast, ruleset)
    assert code == 0, stderr
    text = log.read_text()
    audit_code, report, _ = run("audit", str(log))
    assert {"log": text, "audit": report, "exit": audit_code} == snapshot
    assert audit_code == (0 if "rematch" not in transcript and "midnight" not in transcript else 1)
    again = imported(tmp_path, fmt, transcript, cast, ruleset, "again.jsonl")[3]
    assert again.read_bytes() == log.read_bytes()
    assert run("verify", str(log))[0] == 0


def test_every_message_is_in_the_log_with_its_ref(tmp_path: Path) -> None:
    import msgspec

    code, _, _, log = imported(tmp_path, *CASES[1])
    refs = {msgspec.json.decode(line).get("origin", {}).get("ref") for line in log.read_bytes().splitlines()}
    lines = (IMPORT / CASES[1][1]).read_text().splitlines()
    assert {f"midnight-brawl.txt:{n}" for n in range(1, len(lines) + 1)} <= refs


def test_the_suggested_cast_is_a_cast_file(tmp_path: Path, snapshot: SnapshotAssertion) -> None:
    from fightlog.importing.cast import load_cast

    code, stdout, _ = run("import", "discord-json", str(IMPORT / "discord/dockside-rematch.json"), "--suggest-cast",
                          "--ruleset", "d20-evasion")
    assert code == 0 and stdout == snapshot
    (tmp_path / "cast.toml").write_text(stdout)
    cast = load_cast(tmp_path / "cast.toml", "d20-evasion")
    assert cast.actors == ["rook", "mara", "dex-marlowe", "captain-vex", "pip"] and "attack" in cast.hints
    # the GM's status lines count only through a [[status]] entry: one is drafted, commented out,
    # with a status the ruleset takes out of the order (the GM comment said they counted as it was)
    status = stdout[stdout.index("# [[status]]"):].split("\n\n")[0]
    uncommented = stdout.replace(status, "\n".join(line[2:] for line in status.splitlines()))
    (tmp_path / "cast.toml").write_text(uncommented)
    (hint,) = load_cast(tmp_path / "cast.toml", "d20-evasion").file.status
    assert hint.status == "mortally_wounded" and hint.pattern.startswith("(?P<who>")


def test_rpg_sage_is_suggested_as_a_dice_bot(tmp_path: Path) -> None:
    """It was suggested as a combatant, ``rpg-sage``, in the posting order."""
    export = (IMPORT / "discord/dockside-rematch.json").read_text(encoding="utf-8").replace('"Avrae"', '"RPG Sage"')
    (tmp_path / "sage.json").write_text(export, encoding="utf-8")
    code, suggested, _ = run("import", "discord-json", str(tmp_path / "sage.json"), "--suggest-cast",
                             "--ruleset", "d20-evasion")
    assert code == 0 and 'bot = "rpg-sage"' in suggested and 'id = "rpg-sage"' not in suggested


@pytest.mark.parametrize(("fmt", "transcript", "cast", "ruleset"), CASES, ids=[c[1] for c in CASES])
def test_the_suggested_cast_of_each_bundled_transcript_imports_it(
        tmp_path: Path, fmt: str, transcript: str, cast: str, ruleset: str) -> None:
    """The suggestion is a cast ``import`` takes as it is: an SL HUD that speaks as ``HUD
    (owner)`` for each owner is one ``[[dice]]`` entry (it was one an owner, the HUD's name
    claimed twice), and the hints are the ruleset's actions only (roe7 has no dodge)."""
    code, suggested, _ = run("import", fmt, str(IMPORT / transcript), "--suggest-cast", "--ruleset", ruleset)
    assert code == 0
    (tmp_path / "cast.toml").write_text(suggested)
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", fmt, str(IMPORT / transcript), "-o", str(out), "--ruleset", ruleset,
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    placeholders = [line for line in stderr.splitlines() if 'side "?"' in line]  # used as drafted: said once
    assert len(placeholders) == 1 and placeholders[0].startswith(f"fightlog: warning: {tmp_path / 'cast.toml'}: side")
    assert placeholders[0].endswith("all on one side, so the audit takes them for allies; give each combatant its side")
    assert ("dodge = " in suggested) is (ruleset == "d20-evasion")
    if transcript == "sl/midnight-brawl.txt":
        assert '[[dice]]\nspeakers = ["RoE combat HUD"]\nbot = "sl-hud"\ntool = "RoE combat HUD"\n' in suggested


def test_two_players_shown_alike_are_suggested_by_user_name_and_their_rolls_by_that_name_are_no_ones(
        tmp_path: Path) -> None:
    """A display name two speakers share is left out of the suggestion (a cast names each
    speaker once) and noted; a HUD roll by that name then names neither combatant: it is
    warned of, never given to the first of them."""
    source = tmp_path / "yard.txt"
    source.write_text(
        "[2024/06/12 20:00]  Alex (alex.vance): /me attacks the other Alex.\n"
        "[2024/06/12 20:01]  RoE combat HUD: Alex rolls 1d100 for attack: 64\n"
        "[2024/06/12 20:02]  Alex (alex.kade): /me attacks back.\n", encoding="utf-8")
    code, suggested, _ = run("import", "sl", str(source), "--suggest-cast", "--ruleset", "roe7")
    assert code == 0
    assert 'speakers = ["alex.vance"]\nside = "?"  # 1 message; "Alex" is also another speaker\'s display name' in suggested
    (tmp_path / "cast.toml").write_text(suggested)
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(source), "-o", str(out), "--ruleset", "roe7", "--cast",
                          str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    assert f"{source}:2: SL HUD's roll 1d100 is by 'Alex', a name the cast gives no one combatant" in stderr
    rolls = [e for e in map(json.loads, out.read_text().splitlines()) if e["kind"] == "dice_rolled"]
    assert [r["roller"] for r in rolls] == ["Alex"]  # not "alex", the first of them


def test_a_hud_under_its_owners_user_name_is_suggested_apart_from_its_owner(tmp_path: Path) -> None:
    """``RoE combat HUD (kaito.ronin)`` counted as Kaito: Kaito, whose messages were mostly
    its rolls, was suggested as a HUD named "Kaito Ronin", and Zoe not at all."""
    lines = ["[2024/06/13 20:00]  Gemma Sinclair (gemma.resident): ((Round 1. Kaito then Zoe.))"]
    for minute, (poster, defender) in enumerate([("Kaito Ronin", "Zoe Aerwyn"), ("Zoe Aerwyn", "Kaito Ronin")] * 2, 1):
        user, other = (name.lower().replace(" ", ".") for name in (poster, defender))
        lines += [f"[2024/06/13 20:0{minute}]  {poster} ({user}): /me fires at {defender.split()[0]}.",
                  f"[2024/06/13 20:0{minute}]  RoE combat HUD ({user}): {poster} rolls 1d100 for attack: 73",
                  f"[2024/06/13 20:0{minute}]  RoE combat HUD ({other}): {defender} rolls 1d100 for dodge: 35"]
    source = tmp_path / "hud.txt"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, suggested, _ = run("import", "sl", str(source), "--suggest-cast", "--ruleset", "roe7")
    assert code == 0
    assert 'order = ["gemma-sinclair", "kaito-ronin", "zoe-aerwyn"]' in suggested
    assert 'speakers = ["kaito.ronin", "Kaito Ronin"]\nside = "?"  # 2 messages' in suggested
    assert '[[dice]]\nspeakers = ["RoE combat HUD"]\nbot = "sl-hud"' in suggested
    assert suggested.count("[[dice]]") == 1


def test_a_suggested_id_is_the_name_in_plain_letters() -> None:
    from fightlog.importing.message import Message
    from fightlog.importing.suggest import suggest

    said = suggest([Message(ref="x:1", speaker="ysolde.resident", name="Ysolde Ferré", text="hi"),
                    Message(ref="x:2", speaker="zoe.fass", name="Zoë Faß", text="hi"),
                    Message(ref="x:3", speaker="bjorn", name="Bjørn Łæs", text="hi")], "roe7")
    assert 'id = "ysolde-ferre"' in said and 'name = "Ysolde Ferré"' in said
    assert 'id = "zoe-fass"' in said and 'id = "bjorn-laes"' in said  # not "zoe-fa": no letter dropped


def test_a_hint_for_an_action_the_ruleset_lacks_is_refused_at_its_line(tmp_path: Path) -> None:
    cast = tmp_path / "cast.toml"
    cast.write_text((IMPORT / "sl/midnight-brawl.cast.toml").read_text().replace(
        "flee = ['", "dodge = ['\\bducks?\\b']\nflee = ['"))
    line = cast.read_text().splitlines().index("dodge = ['\\bducks?\\b']") + 1
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/midnight-brawl.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(cast))
    assert code == 2 and not out.exists()
    assert stderr.startswith(f"fightlog: {cast}:{line}: hints.roe7.dodge: roe7 has no action 'dodge' (actions: aim, ")


def test_a_roll_read_only_in_part_is_a_warning_at_its_line(tmp_path: Path) -> None:
    """A HUD line with words the reader does not know after the dice was recorded as a roll
    of no dice and a total of 0 with no word said (the audit then blamed the roller): now a
    warning, and the audit says the roll is not checked (``dice.partial``, info) instead of
    blaming the roller for what the reader missed."""
    transcript = tmp_path / "brawl.txt"
    text = (IMPORT / "sl/midnight-brawl.txt").read_text()
    transcript.write_text(text + "[2024/06/14 00:02:10]  RoE combat HUD (bob): Bob Kade rolls 1d100: 57 (edited)\n")
    line = len(text.splitlines()) + 1
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/midnight-brawl.cast.toml"))
    assert code == 0
    assert (f"fightlog: warning: {transcript}:{line}: SL HUD's roll 1d100 is read only in part (an unknown wording "
            "after the dice: ': 57 (edited)'): recorded as far as it reads") in stderr.splitlines()
    code, audit, _ = run("audit", str(out), "--format", "json")
    findings = [f for f in json.loads(audit)["findings"] if f["ref"] == f"brawl.txt:{line}"]
    assert [(f["code"], f["severity"]) for f in findings] == [("dice.partial", "info")], findings
    assert findings[0]["message"] == ("bob's roll (1d100) was read only in part from RoE combat HUD's reply (an unknown "
                                      "wording after the dice: ': 57 (edited)'): its dice and total are not checked")


def test_a_finding_on_an_amended_roll_still_cites_its_transcript_line(tmp_path: Path) -> None:
    """An amended event comes from the ruling (``origin.ref: seq N``); its findings cited
    ``seq 35`` instead of the line the roll was on."""
    out = tmp_path / "b.jsonl"
    code, _, _, _ = imported(tmp_path, "sl", "sl/midnight-brawl.txt", "sl/midnight-brawl.cast.toml", "roe7", "b.jsonl")
    assert code == 0
    result = CliRunner().invoke(cli, ["rule", str(out), "amend", "16", "--set", "total=11", "--reason", "typo"])
    assert result.exit_code == 0, result.output
    code, audit, _ = run("audit", str(out), "--format", "json")
    found = [f for f in json.loads(audit)["findings"] if f["seq"] == 16]
    assert [(f["code"], f["ref"], f["accepted"]["reason"]) for f in found] == [
        ("dice.arithmetic", "midnight-brawl.txt:7", "amended the roll: typo")]


def test_a_hud_line_naming_dice_that_reads_as_no_roll_is_the_huds_chatter_and_a_warning(tmp_path: Path) -> None:
    """``RoE combat HUD (bob): rolled 1d100: 57`` names no roller: it was Bob's own
    out-of-character post (the object's owner label read as a speaker id), and nothing said."""
    import msgspec

    transcript = tmp_path / "brawl.txt"
    text = (IMPORT / "sl/midnight-brawl.txt").read_text()
    transcript.write_text(text + "[2024/06/14 00:02:10]  RoE combat HUD (bob): rolled 1d100: 57\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/midnight-brawl.cast.toml"))
    assert code == 0
    line = len(text.splitlines()) + 1
    assert (f"fightlog: warning: {transcript}:{line}: SL HUD's message names dice or a result but reads as no roll: "
            "kept as the object's chatter") in stderr.splitlines()
    last = msgspec.json.decode(out.read_bytes().splitlines()[-1])
    assert last["kind"] == "declaration_posted" and last["actor"] == "RoE combat HUD" and last["ooc"] is True


def test_an_attack_that_names_nobody_is_at_the_posters_one_opponent(tmp_path: Path) -> None:
    """``/me slashes at the other one`` in a duel: the attack's target is the one fighter on
    the other side (it was none: the audit reported every such post as rules.target)."""
    import msgspec

    transcript = tmp_path / "duel.txt"
    transcript.write_text("[2024/06/12 20:02]  Bob Kade (bob.resident): /me charges the other one.\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/pump-house.cast.toml"))
    assert code == 0, stderr
    posts = [e for e in map(msgspec.json.decode, out.read_bytes().splitlines()) if e["kind"] == "declaration_posted"]
    assert posts[-1]["actions"] == [{"type": "attack", "target": "alice"}]


_CALLED = (
    "[2024/06/12 20:00]  Gemma Sinclair (gemma.resident): ((Round 1. Bob, then Alice.))\n"
    "[2024/06/12 20:02]  Bob Kade (bob.resident): /me charges Alice.\n"
    "[2024/06/12 20:05]  Gemma Sinclair (gemma.resident): ((Round 3: Alice, you missed your post.))\n"
    "[2024/06/12 20:06]  Bob Kade (bob.resident): /me swings again.\n"
    "[2024/06/12 20:07]  Alice Vance (alice.resident): /me fires at Bob.\n"
)


def test_a_round_called_with_more_digits_than_a_number_reads_is_a_warning(tmp_path: Path) -> None:
    """A GM's ((Round 1000...0)) of 4,401 digits crashed the import (int() refuses more than
    4,300 digits)."""
    transcript = tmp_path / "called.txt"
    transcript.write_text(_CALLED.replace("Round 3:", f"Round 1{'0' * 4400}:"))
    cast = tmp_path / "cast.toml"
    cast.write_text((IMPORT / "sl/pump-house.cast.toml").read_text())
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7",
                          "--cast", str(cast))
    assert code == 0, stderr
    assert stderr == (f"fightlog: warning: {transcript}:3: the GM calls round 100000000000... (4401 digits); it is "
                      "round 1 of the log\n")


@pytest.mark.parametrize("rounds", [None, ""])
def test_a_gm_line_calling_a_round_opens_it(tmp_path: Path, rounds: str | None) -> None:
    """A GM's "Round N" line ends the round that is open and opens the next: Bob's second
    post is his post of the round the GM called, Alice missed round 1 (it read as Bob going
    on in his round 1 turn, and Alice posting in round 1), which the audit names at the call. The number the GM calls is checked
    against the log's count. ``[gm] rounds = ""`` turns it off."""
    import msgspec

    transcript = tmp_path / "called.txt"
    transcript.write_text(_CALLED)
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    cast.write_text(text if rounds is None else text.replace('speakers = ["gemma.resident"]\n',
                                                             f'speakers = ["gemma.resident"]\nrounds = "{rounds}"\n'))
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0, stderr
    events = list(map(msgspec.json.decode, out.read_bytes().splitlines()))
    opened = [(e["kind"], e.get("round"), e.get("actor"), e["origin"]["ref"]) for e in events
              if e["kind"] in ("round_started", "round_ended", "turn_started")]
    code, audit, _ = run("audit", str(out))
    if rounds == "":
        assert opened == [("round_started", 1, None, "called.txt:2"), ("turn_started", 1, "bob", "called.txt:2"),
                          ("turn_started", 1, "alice", "called.txt:5")]
        assert "skipped" not in audit and "warning" not in stderr
        return
    assert opened == [("round_started", 1, None, "called.txt:1"), ("turn_started", 1, "bob", "called.txt:2"),
                      ("round_ended", 1, None, "called.txt:3"), ("round_started", 2, None, "called.txt:3"),
                      ("turn_started", 2, "bob", "called.txt:4"), ("turn_started", 2, "alice", "called.txt:5")]
    assert stderr == (f"fightlog: warning: {transcript}:3: the GM calls round 3; it is round 2 of the log (rounds "
                      "are counted from the first the transcript shows)\n")
    # Bob's second post is his round 2 post, as the GM called it; Alice missed round 1, at the GM's call
    assert [line for line in audit.splitlines() if "order." in line] == [
        "seq 10    error    order.skipped          alice: alice was skipped: round 1 ended before alice had posted in "
        "it [Parts of a Turn (posting order)] (transcript called.txt:3)"], audit


def test_a_gm_calling_the_round_the_posts_opened_confirms_it(tmp_path: Path) -> None:
    """Everyone posted, the next post opened round 2, then the GM called "Round 2": it opened
    round 3, and every later call was one off (with a false order.skipped)."""
    import msgspec

    transcript = tmp_path / "late.txt"
    transcript.write_text(
        "[2024/06/12 20:00]  Gemma Sinclair (gemma.resident): ((Round 1))\n"
        "[2024/06/12 20:01]  Bob Kade (bob.resident): /me charges Alice.\n"
        "[2024/06/12 20:02]  Alice Vance (alice.resident): /me fires at Bob.\n"
        "[2024/06/12 20:03]  Bob Kade (bob.resident): /me swings again.\n"
        "[2024/06/12 20:04]  Gemma Sinclair (gemma.resident): ((Round 2))\n"
        "[2024/06/12 20:05]  Alice Vance (alice.resident): /me fires again.\n"
        "[2024/06/12 20:06]  Gemma Sinclair (gemma.resident): ((Round 3))\n"
        "[2024/06/12 20:07]  Bob Kade (bob.resident): /me swings.\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/pump-house.cast.toml"))
    assert code == 0 and "the GM calls round" not in stderr, stderr
    rounds = [(e["round"], e["origin"]["ref"]) for e in map(msgspec.json.decode, out.read_bytes().splitlines())
              if e["kind"] == "round_started"]
    assert rounds == [(1, "late.txt:1"), (2, "late.txt:4"), (3, "late.txt:7")]
    code, audit, _ = run("audit", str(out))
    assert "order." not in audit, audit


def test_an_import_where_nobody_is_a_combatant_is_a_warning(tmp_path: Path) -> None:
    """Without a cast every message is chatter, and the audit said "clean" of a fight with
    no posts: the import says so, and how to draft a cast."""
    transcript = str(IMPORT / "sl/midnight-brawl.txt")
    code, _, stderr = run("import", "sl", transcript, "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7")
    assert code == 0
    assert (f"fightlog: warning: {transcript}: no message is a combatant's post (without --cast nobody is a "
            f"combatant): the audit has no fight to check (fightlog import sl {transcript} --suggest-cast --ruleset "
            "roe7 drafts a cast)") in stderr.splitlines()
    code, _, stderr = run("import", "sl", transcript, "--suggest-cast")  # the hints are a ruleset's actions
    assert code == 2 and "--suggest-cast drafts the hints of a ruleset's actions: give --ruleset ID too" in stderr
    code, _, stderr = run("import", "sl", transcript, "-o", str(tmp_path / "cast.jsonl"), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/midnight-brawl.cast.toml"))
    assert code == 0 and "no message is a combatant's post" not in stderr


def test_a_cast_speaker_no_message_matches_is_warned_where_it_looks_like_a_slip(tmp_path: Path) -> None:
    """A HUD entry ``[RoE] HUD*`` (``[RoE]`` a set of characters in a pattern) and a user name
    one letter off matched nothing, silently: the rolls became the owners' posts."""
    cast = (IMPORT / "sl/pump-house.cast.toml").read_text(encoding="utf-8")
    assert '"RoE combat HUD (*)"' in cast and '"bob.resident"' in cast
    typo = tmp_path / "cast.toml"
    typo.write_text(cast.replace('"RoE combat HUD (*)"', '"[RoE] HUD*"').replace('"bob.resident"', '"bob.resdent"'),
                    encoding="utf-8")
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "log.jsonl"),
                          "--ruleset", "roe7", "--cast", str(typo))
    assert code == 0
    said = [line for line in stderr.splitlines() if "no message is by" in line]
    assert len(said) == 2, stderr
    assert re.fullmatch(rf"fightlog: warning: {re.escape(str(typo))}:\d+: combatants\[1\] \(bob\): no message is by "
                        r"'bob.resdent'.*: did you mean 'bob.resident' \(who speaks, and whom the cast does not name\)\?",
                        said[0]), said[0]
    assert said[1].endswith(": no message is by '[RoE] HUD*' (in a pattern, [...] is one character of a set: write "
                            "[[] for a [)")
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "ok.jsonl"),
                          "--ruleset", "roe7", "--cast", str(IMPORT / "sl/pump-house.cast.toml"))
    assert code == 0 and "no message is by" not in stderr


def test_bounds_on_a_transcript_without_dates_are_refused_and_bounds_past_it_warned(tmp_path: Path) -> None:
    source = tmp_path / "undated.txt"
    source.write_text("[20:01]  Bob Kade (bob.resident): /me charges.\n", encoding="utf-8")
    out = tmp_path / "log.jsonl"
    cast = str(IMPORT / "sl/pump-house.cast.toml")
    code, _, stderr = run("import", "sl", str(source), "-o", str(out), "--ruleset", "roe7", "--cast", cast,
                          "--from", "2024-06-12T20:00")
    assert (code, stderr) == (2, f"fightlog: {source}: --from: no message has a date and time to compare with (give "
                                 "the cast a date for a log stamped with times alone)\n")
    assert not out.exists()
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", cast, "--from", "2030-01-01T00:00")
    assert code == 0
    assert f"fightlog: warning: {IMPORT / 'sl/pump-house.txt'}: no message is between --from and --to: the log holds no " \
           "fight" in stderr.splitlines()


def test_a_fight_through_the_hour_a_fall_change_repeats_imports(tmp_path: Path) -> None:
    """It crashed as "would not read back as written": a zone's own time in that hour equals
    no other reading of the instant."""
    transcript = (IMPORT / "sl/pump-house.txt").read_text(encoding="utf-8")  # 20:00 - 20:07 SLT
    shifted = transcript.replace("[2024/06/12 20:", "[2024/11/03 01:")  # PDT, then PST from 02:00
    (tmp_path / "fall.txt").write_text(shifted, encoding="utf-8")
    out = tmp_path / "fall.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "fall.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(IMPORT / "sl/pump-house.cast.toml"))
    assert code == 0, stderr
    assert run("verify", str(out))[0] == 0
    assert '"at":"2024-11-03T01:' in out.read_text()


def test_from_and_to_keep_the_messages_between(tmp_path: Path) -> None:
    code, stdout, _, _ = imported(tmp_path, *CASES[2], "log.jsonl", "--from", "2024-03-14T20:03+00:00",
                                  "--to", "2024-03-14T20:05+00:00")
    assert code == 0 and "wrote " in stdout and ": 4 messages of " in stdout
    code, _, stderr, out = imported(tmp_path, *CASES[2], "late.jsonl", "--from", "2024-03-14T20:05+00:00",
                                    "--to", "2024-03-14T20:03+00:00")
    assert code == 2 and "--from 2024-03-14T20:05:00+00:00 is later than --to 2024-03-14T20:03:00+00:00" in stderr
    assert stderr.count("\n") == 1 and not out.exists()


@pytest.mark.parametrize(
    ("fmt", "source", "expected"),
    [
        ("sl", "discord/dockside.json", "not a sl transcript: it looks like discord-json (fightlog import discord-json ...)"),
        ("discord-csv", "discord/dockside.txt", "not a discord-csv transcript: it looks like discord-txt"),
        ("discord-json", "sl/pump-house.txt", "not a discord-json transcript: it looks like sl"),
        ("sl", "sl/pump-house.cast.toml", "not a Second Life chat log"),
    ],
)
def test_a_transcript_in_another_format_says_which_it_looks_like(tmp_path: Path, fmt: str, source: str, expected: str) -> None:
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", fmt, str(IMPORT / source), "-o", str(out), "--ruleset", "roe7")
    assert code == 2 and expected in stderr and stderr.count("\n") == 1
    assert stderr.startswith(f"fightlog: {IMPORT / source}:1: ")
    assert not out.exists()


def _bad(tmp_path: Path, name: str, data: bytes, fmt: str = "discord-json") -> tuple[int, str, Path]:
    source = tmp_path / name
    source.write_bytes(data)
    out = tmp_path / "log.jsonl"
    kept = (FIXTURES / "roe7/scenarios/alley-duel.jsonl").read_bytes()  # a log: --force would replace it
    out.write_bytes(kept)
    code, _, stderr = run("import", fmt, str(source), "-o", str(out), "--ruleset", "roe7", "--force")
    assert out.read_bytes() == kept, "a failed import must leave LOG as it was"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    return code, stderr, source


def test_a_truncated_export_is_refused_whole(tmp_path: Path) -> None:
    data = (IMPORT / "discord/dockside.json").read_bytes()
    code, stderr, source = _bad(tmp_path, "cut.json", data[: len(data) * 2 // 3])
    assert code == 2 and stderr.count("\n") == 1
    assert re.match(rf"fightlog: {re.escape(str(source))}:\d+: truncated JSON: messages\[", stderr)


def test_an_export_saved_again_in_windows_1252_names_the_byte(tmp_path: Path) -> None:
    """A message's text with a byte that is not UTF-8 was "not JSON (Invalid UTF-8 encoded
    string)" at the message's first line, though docs/import.md promised the byte."""
    data = (IMPORT / "discord/dockside.json").read_bytes()
    at = [m.end() for m in re.finditer(rb'"content": "', data)][4]
    code, stderr, source = _bad(tmp_path, "ansi.json", data[:at] + b"Se\xf1or " + data[at:])
    line = data[:at].count(b"\n") + 1
    assert code == 2 and re.fullmatch(
        rf"fightlog: {re.escape(str(source))}:{line}: messages\[4\] \(byte \d+\): not UTF-8 \(byte 0xf1\); "
        r"DiscordChatExporter writes UTF-8: export the channel again\n", stderr), stderr


def test_a_50_mb_message_is_refused_cleanly(tmp_path: Path) -> None:
    line = b"[2024/06/12 20:02]  Bob Kade: " + b"a" * (50 << 20) + b"\n"
    code, stderr, source = _bad(tmp_path, "huge.txt", b"[2024/06/12 20:01]  Bob Kade: hi\n" + line, fmt="sl")
    assert code == 2 and stderr.startswith(f"fightlog: {source}:2: a message of more than ")


@pytest.mark.parametrize("lines", [300, 1100])
def test_a_message_long_in_its_continuation_lines_is_refused_at_its_first(tmp_path: Path, lines: int) -> None:
    # each line is short: the post of 300 (or 1,100: past a log line's 1 MiB) continuation
    # lines was imported whole (or refused in a garbled line by the log's writer)
    post = b"[2024/06/12 20:02]  Bob Kade: hi\n" + b"".join(b" " + b"a" * 999 + b"\n" for _ in range(lines))
    code, stderr, source = _bad(tmp_path, "long.txt", b"[2024/06/12 20:01]  Bob Kade: hi\n" + post, fmt="sl")
    assert code == 2 and stderr.count("\n") == 1
    assert re.match(rf"fightlog: {re.escape(str(source))}:2: a message of \d+ bytes: longer than the importer's limit "
                    r"of 262144 bytes \(its raw text must fit in one log line\)$", stderr.rstrip("\n")), stderr


def test_a_csv_message_past_the_limit_is_said_to_be_one(tmp_path: Path) -> None:
    """A valid export with a 300 kB message in short lines was "not CSV as the exporter
    writes it: field larger than field limit (262144)"."""
    header = b'"AuthorID","Author","Date","Content","Attachments","Reactions"\n'
    first = b'"1","bob","2024-06-12T20:01:00.0000000+00:00","hi","",""\n'
    long = b'"1","bob","2024-06-12T20:02:00.0000000+00:00","' + (b"a" * 999 + b"\n") * 300 + b'","",""\n'
    code, stderr, source = _bad(tmp_path, "huge.csv", header + first + long, fmt="discord-csv")
    assert code == 2 and stderr == (f"fightlog: {source}:3: a message of more than 262144 bytes: longer than the "
                                    "importer's limit of 262144 bytes (its raw text must fit in one log line)\n")


def test_a_message_of_control_characters_is_measured_as_the_log_writes_it(tmp_path: Path) -> None:
    # 100,000 bytes in the transcript, 600,000 in the log (each "\\u0001"): it passed the
    # importer's check and broke the log's writer, in another message
    post = b"[2024/06/12 20:02]  Bob Kade: " + b"\x01" * 100_000 + b"\n"
    code, stderr, source = _bad(tmp_path, "cc.txt", b"[2024/06/12 20:01]  Bob Kade: hi\n" + post, fmt="sl")
    assert code == 2 and stderr.startswith(f"fightlog: {source}:2: a message of 600")
    assert "longer than the importer's limit of 262144 bytes" in stderr and stderr.count("\n") == 1


def test_a_windows_1252_log_is_read_with_a_warning(tmp_path: Path) -> None:
    source = tmp_path / "cp.txt"
    source.write_bytes("[2024/06/12 20:01]  Zoë Quill: café “au lait”\n".encode("cp1252"))
    code, stdout, stderr = run("import", "sl", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7")
    assert code == 0
    assert stderr.splitlines()[0] == (f"fightlog: warning: {source}:1: not UTF-8: read as Windows-1252 (cp1252) from "
                                      "here on where needed")
    assert len(stderr.splitlines()) == 2  # and that nobody is a combatant (no cast)
    assert "café “au lait”" in (tmp_path / "log.jsonl").read_text()


def test_a_windows_1252_log_then_refused_says_only_why(tmp_path: Path) -> None:
    """A warning of what was guessed comes with a log written; a refusal is one line (it was a
    warning and then the error)."""
    line = b"[2024/06/12 20:02]  Bob Kade: " + b"a" * (300 << 10) + b"\n"
    code, stderr, source = _bad(tmp_path, "cp.txt", "[2024/06/12 20:01]  Zoë Quill: café\n".encode("cp1252") + line,
                                fmt="sl")
    assert code == 2 and stderr.startswith(f"fightlog: {source}:2: a message of more than ") and stderr.count("\n") == 1


def test_a_ruleset_not_installed_then_refused_says_only_why(tmp_path: Path) -> None:
    line = b"[2024/06/12 20:02]  Bob Kade: " + b"a" * (300 << 10) + b"\n"
    source = tmp_path / "t.txt"
    source.write_bytes(b"[2024/06/12 20:01]  Bob Kade: hi\n" + line)
    code, _, stderr = run("import", "sl", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "homebrew")
    assert code == 2 and stderr.startswith(f"fightlog: {source}:2: a message of more than ") and stderr.count("\n") == 1


def test_a_time_going_back_is_warned_with_its_line(tmp_path: Path) -> None:
    source = tmp_path / "back.csv"
    shutil.copy(IMPORT / "discord/dockside-rematch.csv", source)
    code, _, stderr = run("import", "discord-csv", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7")
    text = source.read_text().replace("2024-03-21T20:05:00", "2024-03-21T19:05:00")
    source.write_text(text)
    code, _, stderr = run("import", "discord-csv", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7",
                          "--force")
    assert code == 0
    assert stderr.startswith(f"fightlog: warning: {source}:10: the time goes back from 2024-03-21T20:04:00-07:00 ")


def test_a_cast_naming_someone_the_roster_lacks(tmp_path: Path) -> None:
    code, _, stderr, out = imported(tmp_path, *CASES[0][:3], "roe7", "log.jsonl", "--roster",
                                    str(FIXTURES / "roe7/rosters/scenarios/alley-duel.toml"))
    assert code == 2 and "pump-house.cast.toml:" in stderr and "unknown actor" in stderr and not out.exists()


def test_log_exists_and_usage(tmp_path: Path) -> None:
    out = tmp_path / "log.jsonl"
    out.write_text("x\n")
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(out), "--ruleset", "roe7")
    assert code == 2 and "exists and is not empty" in stderr
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"))
    assert code == 2 and "give -o LOG and --ruleset ID" in stderr
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "new.jsonl"),
                          "--ruleset", " ")  # was: "the transcript: cannot be imported: ... Expected `str` of length >= 1"
    assert code == 2 and "Invalid value for '--ruleset': give a ruleset id" in stderr
    cast = Path(shutil.copy(IMPORT / "sl/pump-house.cast.toml", tmp_path / "cast.toml"))
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(cast), "--ruleset", "roe7",
                          "--cast", str(cast), "--force")  # replaced the cast file with the log
    assert code == 2 and stderr == (f"fightlog: {cast}: is the cast, which this command reads: write the new log to "
                                    "another file\n")
    assert cast.read_bytes() == (IMPORT / "sl/pump-house.cast.toml").read_bytes()


def test_with_a_roster_the_combatants_join_with_their_sheets(tmp_path: Path) -> None:
    import msgspec

    code, _, stderr, log = imported(tmp_path, *CASES[0], "log.jsonl", "--roster",
                                    str(FIXTURES / "roe7/rosters/gate-skirmish.toml"))
    assert code == 0, stderr
    joined = [e for e in map(msgspec.json.decode, log.read_bytes().splitlines()) if e["kind"] == "combatant_joined"]
    assert [(e["actor"], e["pools"]["hp"], bool(e["sheet"])) for e in joined] == [("alice", 100, True), ("bob", 120, True)]
    assert run("audit", str(log))[0] == 0


def test_one_bound_with_an_offset_and_one_without_are_each_kept(tmp_path: Path) -> None:
    """A --to with an offset beside a --from without one was dropped: every message after
    --from was kept."""
    both = imported(tmp_path, *CASES[2], "both.jsonl", "--from", "2024-03-14T20:03+00:00", "--to", "2024-03-14T20:05+00:00")
    mixed = imported(tmp_path, *CASES[2], "mixed.jsonl", "--from", "2024-03-14T20:03", "--to", "2024-03-14T20:05+00:00")
    assert both[0] == mixed[0] == 0 and ": 4 messages of " in both[1] and ": 4 messages of " in mixed[1]


def test_a_bound_with_an_offset_on_times_without_one_is_refused(tmp_path: Path) -> None:
    """A text export's times have no offset: a --from with one was left out, every message
    kept, without a word."""
    fmt, transcript, cast, ruleset = next(case for case in CASES if case[0] == "discord-txt")
    code, _, stderr, out = imported(tmp_path, fmt, transcript, cast, ruleset, "log.jsonl",
                                    "--from", "2024-03-14T20:03+02:00")
    assert code == 2 and not out.exists()
    assert re.fullmatch(r"fightlog: \S+\.txt:\d+: --from 2024-03-14T20:03:00\+02:00: has an offset, and the "
                        r"transcript's time has none \(its writer's local time\): give it without one\n", stderr)
    # a JSON export is located by message id, not by a line 0 (a fuzzer: one message's time had no offset)
    export = json.loads((IMPORT / "discord/dockside.json").read_text(encoding="utf-8"))
    export["messages"][5]["timestamp"] = export["messages"][5]["timestamp"][:19]
    (tmp_path / "naive.json").write_text(json.dumps(export), encoding="utf-8")
    code, _, stderr = run("import", "discord-json", str(tmp_path / "naive.json"), "-o", str(tmp_path / "n.jsonl"),
                          "--ruleset", "d20-evasion", "--from", "2024-03-14T20:00:30+00:00")
    assert code == 2 and stderr == (f"fightlog: {tmp_path / 'naive.json'}: --from 2024-03-14T20:00:30+00:00: has an "
                                    f"offset, and the transcript's time ({export['messages'][5]['id']}) has none (its "
                                    "writer's local time): give it without one\n")


def test_a_window_without_an_offset_is_the_transcripts_wall_clock(tmp_path: Path) -> None:
    code, stdout, _, _ = imported(tmp_path, *CASES[0], "log.jsonl", "--from", "2024-06-12T20:03", "--to", "2024-06-12T20:05")
    assert code == 0 and ": 8 messages of " in stdout  # lines 9-16: 20:03 to 20:05 SLT


def test_a_ruleset_not_installed_is_imported_with_a_warning(tmp_path: Path) -> None:
    """A fight under a rulebook fightlog does not have yet can still be audited for its
    posting order and dice: imported, with a warning naming the installed rulesets."""
    from click.testing import CliRunner

    from fightlog.cli.main import cli

    out = tmp_path / "p.jsonl"
    sl = Path(__file__).parents[2] / "fixtures" / "import" / "sl" / "pump-house.txt"
    result = CliRunner().invoke(cli, ["import", "sl", str(sl), "-o", str(out), "--ruleset", "gurps"])
    assert result.exit_code == 0, result.output
    assert "warning: ruleset 'gurps' is not installed (installed: bleeding-sun, d20-evasion" in result.stderr
    assert "posting order and the dice only" in result.stderr and "did you mean" not in result.stderr
    assert out.exists()


def test_a_misspelt_ruleset_or_a_cast_without_its_hints_is_said(tmp_path: Path) -> None:
    """``--ruleset d20evasion`` imported with a warning that named no ruleset to use; a cast
    with hints for another ruleset only read no post as an attack, and said nothing."""
    discord = IMPORT / "discord"
    cast = str(discord / "dockside.cast.toml")
    code, _, stderr = run("import", "discord-json", str(discord / "dockside.json"), "-o", str(tmp_path / "a.jsonl"),
                          "--ruleset", "d20evasion", "--cast", cast)
    assert code == 0 and "ruleset 'd20evasion' is not installed (did you mean 'd20-evasion'? installed:" in stderr
    code, _, stderr = run("import", "discord-json", str(discord / "dockside.json"), "-o", str(tmp_path / "b.jsonl"),
                          "--ruleset", "roe7", "--cast", cast)
    assert code == 0 and stderr == (f"fightlog: warning: {cast}: its hints are for d20-evasion, not roe7: no post is "
                                    "read as an attack or any other action (add [hints.roe7])\n")


def test_warnings_past_the_first_hundred_are_counted(tmp_path: Path) -> None:
    """Held until the log is written, so kept to a hundred: a transcript may go back in time on
    every other line."""
    source = tmp_path / "back.txt"
    source.write_text("".join(f"[2024/06/12 20:0{1 + (i + 1) % 2}]  Bob Kade: hi {i}\n" for i in range(260)))
    code, _, stderr = run("import", "sl", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "roe7")
    said = stderr.splitlines()
    assert code == 0 and len(said) == 102
    assert said[0] == f"fightlog: warning: {source}:2: the time goes back from 20:02:00 to 20:01:00"
    assert said[-2] == "fightlog: warning: and 30 more warnings"  # 130 in all
    assert said[-1].startswith(f"fightlog: warning: {source}: no message is a combatant's post")  # said last, always


def test_a_status_pattern_without_who_is_refused_at_its_line(tmp_path: Path) -> None:
    """A ``[[status]]`` pattern with no ``(?P<who>...)`` would match GM lines and record
    nothing: refused when the cast is read, one line at the pattern's line, no log."""
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    assert "pattern = '(?P<who>\\w+) is down'" in text
    cast.write_text(text.replace("(?P<who>\\w+) is down", "\\w+ is down"))
    line = text.splitlines().index("pattern = '(?P<who>\\w+) is down'") + 1
    out = tmp_path / "log.jsonl"
    code, stdout, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(out), "--ruleset", "roe7",
                               "--cast", str(cast))
    assert code == 2 and stdout == "" and not out.exists()
    assert stderr == (f"fightlog: {cast}:{line}: status[0].pattern: '\\\\w+ is down' has no (?P<who>...) group "
                      "(the combatant whose status changes, e.g. '(?P<who>\\w+) is down')\n")


def test_a_status_a_letter_from_one_the_ruleset_takes_out_is_warned_of_at_its_line(tmp_path: Path) -> None:
    """A typo in a ``[[status]]``'s status ("defeted") took nobody out, silently: the fighter
    the GM called down went on posting, with no finding."""
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    assert 'status = "defeated"' in text
    cast.write_text(text.replace('status = "defeated"', 'status = "defeted"'))
    line = text.splitlines().index('status = "defeated"') + 1
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "log.jsonl"),
                          "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0
    assert stderr == (f"fightlog: warning: {cast}:{line}: status[0].status: 'defeted' is no status roe7 takes out of "
                      "the order (did you mean 'defeated'?): a GM line setting it takes nobody out\n")


def test_a_status_of_the_gms_own_is_no_typo(tmp_path: Path) -> None:
    """A status the GM names that is merely like a known one ("bleeding", "holding") was warned
    of as its typo ("did you mean 'holding'?")."""
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    cast.write_text(text + '\n[[status]]\npattern = \'(?P<who>\\w+) bleeds\'\nstatus = "bleeding"\n')
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "log.jsonl"),
                          "--ruleset", "roe7", "--cast", str(cast))
    assert (code, stderr) == (0, "")


def test_hints_with_groups_and_backreferences_import(tmp_path: Path) -> None:
    """Hint patterns are searched one by one: two with the same named group, or one with a
    backreference, were joined into one regular expression (an internal error, exit 3)."""
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    old = "attack = ['\\b(fires?|shoots?|swings?|charges?|slash(es)?|stabs?)\\b']"
    assert old in text
    cast.write_text(text.replace(old, "attack = ['(?P<verb>\\bcharges\\b)', '(?P<verb>\\bfires\\b)', '\\b(s)\\1\\b']"))
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(cast))
    assert code == 0, stderr
    assert out.read_text().count('"type":"attack"') >= 2


RANDOM = bytes((i * 7919 + 13) % 251 + 1 for i in range(3000))
"""Bytes with no NUL and no structure (no NUL: so the format's own checks are what refuse them)."""
TXT = (IMPORT / "discord/dockside.txt").read_bytes()
JSON = (IMPORT / "discord/dockside.json").read_bytes()
RULE = b"=" * 62
_CUT = TXT[: TXT.rindex(RULE, 0, TXT.rindex(RULE))]
"""The text export without its footer (ending with its last message's blank lines)."""
_FOOTER_LINE = TXT.count(b"\n") - 1
"""Its ``Exported N message(s)`` line (the file ends with the last ``=`` line and a newline)."""


@pytest.mark.parametrize(
    ("data", "line", "expected"),
    [
        (RANDOM, 1, "not a DiscordChatExporter text export: it does not open with its header"),
        (b"\x00\x17" + RANDOM, 1, "a NUL byte (0x00) at byte 1 of the line: a binary file"),
        (TXT.decode().encode("utf-16"), 1, "UTF-16 text (it starts with a UTF-16 byte order mark)"),
        (b"just some notes\n[3/14/2024 8:00 PM] rook_gm\nhi\n", 1, "it does not open with its header"),
        (RULE + b"\nChannel: x\n" + RULE + b"\n", 2, "its header's first line is not 'Guild: ...'"),
        (RULE + b"\nGuild: g\n" + RULE + b"\n", 3, "its header has no 'Channel:' line"),
        (RULE + b"\nGuild: g\nChannel: c\n", 3, "its header never ends"),
        (_CUT, _CUT.count(b"\n"), "footer at the end: the export is cut off"),
        (TXT + b"\n\nmore text\n", TXT.count(b"\n") + 3,
         f"text after the export's footer ('Exported 10 message(s)' at line {_FOOTER_LINE})"),
    ],
    ids=["random", "binary", "utf-16", "no-header", "no-guild", "no-channel", "header-cut", "no-footer", "after-footer"],
)
def test_a_file_that_is_not_a_text_export_is_refused(tmp_path: Path, data: bytes, line: int, expected: str) -> None:
    """Was read as an export with no messages (exit 0, a one-event log)."""
    code, stderr, source = _bad(tmp_path, "t.txt", data, fmt="discord-txt")
    assert code == 2 and stderr.startswith(f"fightlog: {source}:{line}: ") and stderr.count("\n") == 1
    assert expected in stderr


def test_a_line_of_equals_signs_in_a_message_is_its_content(tmp_path: Path) -> None:
    """Only the ``=``, ``Exported N message(s)``, ``=`` lines at the end are the footer: a
    message holding a line of 62 ``=`` no longer ends the messages there."""
    source = tmp_path / "t.txt"
    source.write_bytes(TXT.replace(b"Map attached.", b"Map attached.\n" + RULE + b"\nExported it\n" + RULE, 1))
    out = tmp_path / "log.jsonl"
    code, stdout, stderr = run("import", "discord-txt", str(source), "-o", str(out), "--ruleset", "roe7")
    assert code == 0 and ": 10 messages of " in stdout, stderr
    assert "Exported it" in out.read_text()


_COUNT_LINE = JSON[:JSON.index(b'"messageCount"')].count(b"\n") + 1
_ROLL = b"[3/14/2024 8:03 PM] Avrae#6877\n@Jonah  :game_die:\n**Result**: 1d20 (11) + 4\n**Total**: 15\n\n\n"


@pytest.mark.parametrize(("fmt", "name", "data", "said"), [
    ("discord-txt", "t.txt", TXT.replace(_ROLL, b"", 1),
     f":{_FOOTER_LINE - 6}: the footer says 10 message(s) were exported, the file holds 9: messages were removed"),
    ("discord-json", "t.json", JSON.replace(b'"messageCount": 10', b'"messageCount": 11'),
     f":{_COUNT_LINE}: messageCount says 11 message(s) were exported, the messages array holds 10"),
], ids=["txt", "json"])
def test_an_export_whose_count_disagrees_is_imported_with_a_warning(tmp_path: Path, fmt: str, name: str, data: bytes,
                                                                    said: str) -> None:
    """A message taken out of an export by hand (the roll that went against you) left no
    trace: the exporter's own count now says so, with the line."""
    assert data not in (TXT, JSON)
    source = tmp_path / name
    source.write_bytes(data)
    code, _, stderr = run("import", fmt, str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset", "d20-evasion")
    assert code == 0 and f"{source}{said}" in stderr, stderr
    source.write_bytes(TXT if fmt == "discord-txt" else JSON)
    code, _, stderr = run("import", fmt, str(source), "-o", str(tmp_path / "again.jsonl"), "--ruleset", "d20-evasion")
    assert code == 0 and "exported" not in stderr, stderr


@pytest.mark.parametrize("fmt", ["sl", "discord-json", "discord-csv", "discord-txt"])
@pytest.mark.parametrize(("data", "what"), [(b"", "is empty"), (b"\xef\xbb\xbf\r\n \n\n", "holds only blank lines")],
                         ids=["empty", "blank"])
def test_an_empty_file_is_refused_by_every_format(tmp_path: Path, fmt: str, data: bytes, what: str) -> None:
    """Was exit 0 and a log of one event for sl, discord-csv, discord-txt (exit 2 for JSON)."""
    source = tmp_path / "empty.txt"
    source.write_bytes(data)
    out = tmp_path / "log.jsonl"
    code, stdout, stderr = run("import", fmt, str(source), "-o", str(out), "--ruleset", "roe7")
    assert (code, stdout) == (2, "") and not out.exists()
    assert stderr == f"fightlog: {source}:1: the file {what}: not a chat transcript, nothing to import\n"
    assert _bad(tmp_path, "empty.txt", data, fmt)[0] == 2  # an existing LOG is left as it was


_CSV = (IMPORT / "discord/dockside.csv").read_bytes()
_ARRAY_END = JSON.rindex(b"]") + 1
_LAST = JSON.count(b"\n") + 1


@pytest.mark.parametrize(
    ("data", "line", "expected"),
    [
        (JSON[:_ARRAY_END], _LAST - 2,
         "truncated JSON: the file ends after the messages array, before the export's closing '}'"),
        (JSON[:_ARRAY_END] + b",\n", _LAST - 2, "truncated JSON: the file ends after the messages array"),
        (JSON + b"garbage", _LAST, f"not JSON after the messages array (byte {len(JSON)}): JSON is malformed: "
                                   "trailing characters: the export is damaged"),
        (JSON + b"\n\n{}\n", _LAST + 2, "not JSON after the messages array"),
        (JSON[:_ARRAY_END] + b" oops, " + JSON[_ARRAY_END:], _LAST - 2, "not JSON after the messages array"),
        (JSON.replace(b'"guild"', b'oops "guild"', 1), 2,
         "not JSON before the messages array (byte 4): JSON is malformed: object keys must be strings"),
        (b'["messages": []]', 1, "the messages array is not in a JSON object"),
    ],
    ids=["cut-after-array", "cut-after-comma", "garbage-after-brace", "second-object", "garbage-after-array",
         "garbage-before-array", "not-an-object"],
)
def test_a_json_export_damaged_around_its_messages_is_refused(tmp_path: Path, data: bytes, line: int,
                                                              expected: str) -> None:
    """Was exit 0: only the ``messages`` array was checked."""
    code, stderr, source = _bad(tmp_path, "t.json", data)
    assert code == 2 and stderr.startswith(f"fightlog: {source}:{line}: ") and stderr.count("\n") == 1
    assert expected in stderr


def test_json_errors_name_the_line_of_the_message(tmp_path: Path) -> None:
    data = JSON.replace(b'"id": "1218000000000000003"', b'"id": 3', 1)
    opening = JSON[: JSON.index(b'"id": "1218000000000000003"')].rfind(b"\n    {")
    line = JSON.count(b"\n", 0, opening) + 2  # the line of its "{"
    code, stderr, source = _bad(tmp_path, "t.json", data)
    assert code == 2 and stderr.startswith(f"fightlog: {source}:{line}: messages[2] (byte ")


@pytest.mark.parametrize(
    ("fmt", "data", "line", "expected"),
    [
        ("discord-csv", b"a,b,c\n1,2,3\n", 1, "not a DiscordChatExporter CSV header"),
        ("discord-csv", RANDOM, 1, "not a DiscordChatExporter CSV export: its first line is not the header"),
        ("discord-csv", b"PK\x03\x04\x14\x00\x08\x00", 1, "a NUL byte (0x00) at byte 6 of the line"),
        ("discord-csv", _CSV + b'"x\r"y"\n', _CSV.count(b"\n") + 1, "not CSV as the exporter writes it"),
        ("sl", RANDOM, 1, "not a Second Life chat log"),
        ("sl", b"\x7fELF\x02\x01\x01\x00\x00\x00", 1, "a NUL byte (0x00) at byte 8 of the line: a binary file"),
        ("sl", "[2024/06/12 20:01]  Bob Kade: hi\n".encode("utf-16-le"), 1, "a NUL byte (0x00) at byte 2 of the line"),
        ("sl", b"[2024/06/12 20:01]  Bob Kade: hi\n" + b"\x00" * 100, 2, "a NUL byte (0x00) at byte 1"),
        ("sl", "[2024/06/12 20:01]  Bob Kade: hi\n".encode("utf-16"), 1, "UTF-16 text"),
    ],
    ids=["csv-header", "csv-random", "csv-png", "csv-cr", "sl-random", "sl-elf", "sl-utf-16-no-bom", "sl-nul-later",
         "sl-utf-16"],
)
def test_a_binary_or_foreign_file_is_refused_as_csv_or_sl(tmp_path: Path, fmt: str, data: bytes, line: int,
                                                           expected: str) -> None:
    code, stderr, source = _bad(tmp_path, "t.txt", data, fmt)
    assert code == 2 and stderr.startswith(f"fightlog: {source}:{line}: ") and stderr.count("\n") == 1
    assert expected in stderr


_THREE = (
    "[2024/07/02 20:00:05]  Gemma Sinclair (gemma.resident): Round 1\n"
    "[2024/07/02 20:00:20]  Ash Corvin (ash.corvin): Ash fires at Bram\n"
    "[2024/07/02 20:00:40]  Nyx Vale (nyx.resident): Nyx stabs Bram\n"
    "[2024/07/02 20:01:00]  Bram Holt (bram.holt): Bram swings at Nyx\n"
    "[2024/07/02 20:02:00]  Gemma Sinclair (gemma.resident): Round 2\n"
    "[2024/07/02 20:02:20]  Nyx Vale (nyx.resident): Nyx stabs Bram\n"
    "[2024/07/02 20:02:40]  Bram Holt (bram.holt): Bram swings at Nyx\n"
    "[2024/07/02 20:04:00]  Gemma Sinclair (gemma.resident): Round 3\n"
    "[2024/07/02 20:04:10]  Bram Holt (bram.holt): Bram swings at Ash\n"
    "[2024/07/02 20:04:20]  Ash Corvin (ash.corvin): Ash fires at Bram\n"
    "[2024/07/02 20:04:30]  Nyx Vale (nyx.resident): Nyx stabs Bram\n"
)
_THREE_CAST = """order = ["ash", "nyx", "bram"]
[[combatants]]
id = "ash"
name = "Ash Corvin"
side = "rangers"
speakers = ["ash.corvin"]
[[combatants]]
id = "nyx"
name = "Nyx Vale"
side = "rangers"
speakers = ["nyx.resident"]
[[combatants]]
id = "bram"
name = "Bram Holt"
side = "raiders"
speakers = ["bram.holt"]
[gm]
name = "Gemma"
speakers = ["gemma.resident"]
[hints.roe7]
attack = ['\\b(fires?|swings?|stabs?)\\b']
"""


def test_a_post_before_ones_turn_is_out_of_turn_and_a_missed_round_one_finding(tmp_path: Path) -> None:
    """In a transcript a turn is a post. Ash missing round 2 is one finding, at the GM's
    call that ended it (the two posts that went on without Ash named Ash skipped again and
    again, each needing its own ruling); Bram posting before Ash in round 3 is Bram's post
    out of turn, not Ash skipped (Ash posted after Bram)."""
    transcript, cast, out = tmp_path / "three.txt", tmp_path / "cast.toml", tmp_path / "log.jsonl"
    transcript.write_text(_THREE)
    cast.write_text(_THREE_CAST)
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0, stderr
    code, audit, _ = run("audit", str(out), "--format", "json")
    import json

    order = [(f["code"], f["actor"], f["ref"], f["message"]) for f in json.loads(audit)["findings"]
             if f["code"].startswith("order.")]
    assert order == [
        ("order.skipped", "ash", "three.txt:8", "ash was skipped: round 2 ended before ash had posted in it"),
        ("order.out-of-turn", "bram", "three.txt:9",
         "bram posted out of turn in round 3: it was ash's turn (ash posted after bram)"),
    ]


def test_a_roller_is_named_as_speakers_are_a_colon_or_a_pattern_included(tmp_path: Path) -> None:
    """An SL HUD naming "Nyx: the Silent" credited "the Silent" (the text before the colon
    read as the speaking object); a cast speaker pattern ("Bram*") matched Bram's messages
    but not the name a HUD gives him ("Bram the Bold"): both rolls went to non-combatants."""
    transcript, cast, out = tmp_path / "hud.txt", tmp_path / "cast.toml", tmp_path / "log.jsonl"
    transcript.write_text(
        "[2024/07/02 20:00:05]  Gemma Sinclair (gemma.resident): Round 1\n"
        "[2024/07/02 20:00:40]  Nyx%3A the Silent (nyx.resident): Nyx stabs Bram\n"
        "[2024/07/02 20:00:41]  Dice HUD: Nyx: the Silent rolled 1d100: 44\n"
        "[2024/07/02 20:01:00]  Bram Holt (bram.holt): Bram swings at Nyx\n"
        "[2024/07/02 20:01:01]  Dice HUD: Bram the Bold rolled 1d100: 61\n")
    cast.write_text(_THREE_CAST.replace('order = ["ash", "nyx", "bram"]', 'order = ["nyx", "bram"]')
                    .replace('name = "Nyx Vale"', 'name = "Nyx: the Silent"')
                    .replace('speakers = ["bram.holt"]', 'speakers = ["bram.holt", "Bram*"]')
                    + '[[dice]]\nspeakers = ["Dice HUD"]\nbot = "sl-hud"\n')
    code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0, stderr
    import msgspec

    rolls = [e for e in map(msgspec.json.decode, out.read_bytes().splitlines()) if e["kind"] == "dice_rolled"]
    assert [(r["roller"], r["total"]) for r in rolls] == [("nyx", 44), ("bram", 61)]


def test_every_post_before_a_late_poster_is_named_and_a_round_left_open_still_names_a_skip(tmp_path: Path) -> None:
    """Nyx and Bram both posted before Ash in round 3: both posts were out of turn (only the
    first was named). A transcript that stops in round 3 without Ash: Ash was skipped (the
    round never ends, and the audit said nothing)."""
    import json

    lines = _THREE.splitlines(keepends=True)
    late = [*lines[:8], lines[10], lines[8], lines[9]]  # round 3: Nyx, Bram, then Ash
    stops = [*lines[:9], lines[10]]  # round 3: Bram, Nyx, and the transcript ends
    found = []
    for name, text in (("late.txt", late), ("stops.txt", stops)):
        transcript, cast, out = tmp_path / name, tmp_path / "cast.toml", tmp_path / f"{name}.jsonl"
        transcript.write_text("".join(text))
        cast.write_text(_THREE_CAST)
        code, _, stderr = run("import", "sl", str(transcript), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
        assert code == 0, stderr
        _, audit, _ = run("audit", str(out), "--format", "json")
        found.append([(f["code"], f["actor"], f["ref"]) for f in json.loads(audit)["findings"]
                      if f["code"].startswith("order.") and not f["ref"].endswith(":8")])
    assert found == [
        [("order.out-of-turn", "nyx", "late.txt:9"), ("order.out-of-turn", "bram", "late.txt:10")],
        [("order.skipped", "ash", "stops.txt:9")],
    ]


def _sams_export() -> dict[str, object]:
    """Two players shown as "Sam" (Brann's and Ilse's), each rolling on Avrae."""
    def message(n: int, author: dict[str, object], content: str, **more: object) -> dict[str, object]:
        return {"id": f"900{n}", "type": "Reply" if "reference" in more else "Default",
                "timestamp": f"2026-11-20T21:0{n}:00+00:00", "content": content, "author": author, **more}

    brann = {"id": "3001", "name": "samwise_k", "nickname": "Sam", "isBot": False}
    ilse = {"id": "3002", "name": "sam.orr", "nickname": "Sam", "isBot": False}
    avrae = {"id": "261302296103747584", "name": "Avrae", "discriminator": "6877", "isBot": True}
    roll = "@Sam  :game_die:\n**Result**: 1d20 (14) + 2\n**Total**: 16"
    messages = [
        message(1, brann, "Brann swings at Ilse."),
        message(2, avrae, roll, mentions=[brann]),                     # the mention says whose
        message(3, ilse, "Ilse swings at Brann."),
        message(4, avrae, roll, reference={"messageId": "9003"}),     # the post it answers says whose
        message(5, avrae, roll),                                       # nothing says whose
        {**message(4, brann, "Brann ducks."), "id": "9006"},           # a time going back
    ]
    return {"guild": {"id": "1", "name": "g"}, "channel": {"id": "2", "name": "c"}, "messages": messages,
            "messageCount": len(messages)}


def _import_sams(tmp_path: Path, export: dict[str, object], cast_text: str) -> tuple[list[dict[str, Any]], str]:
    """``export`` imported under d20-evasion with a cast of ``cast_text``: the events and what
    was said on standard error."""
    source = tmp_path / "sams.json"
    source.write_text(json.dumps(export), encoding="utf-8")
    cast = tmp_path / "sams.cast.toml"
    cast.write_text(cast_text, encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(out), "--force", "--ruleset", "d20-evasion",
                          "--cast", str(cast))
    assert code == 0, stderr
    return list(map(json.loads, out.read_text().splitlines())), stderr


_SAMS_CAST = ('[[combatants]]\nid = "brann"\nspeakers = ["{0}"]\n[[combatants]]\nid = "ilse"\nspeakers = ["{1}"]\n'
              '[[dice]]\nspeakers = ["261302296103747584"]\nbot = "avrae"\n')


@pytest.mark.parametrize("by", [("3001", "3002"), ("samwise_k", "sam.orr")], ids=["ids", "user names"])
def test_a_roll_by_a_shared_display_name_goes_to_the_user_the_bot_mentions_or_answers(
        tmp_path: Path, by: tuple[str, str]) -> None:
    events, stderr = _import_sams(tmp_path, _sams_export(), _SAMS_CAST.format(*by))
    source = tmp_path / "sams.json"
    assert [e["actor"] for e in events if e["kind"] == "declaration_posted" and not e.get("ooc")] == [
        "brann", "ilse", "brann"]  # a user name names a speaker with a nickname too
    assert [e["roller"] for e in events if e["kind"] == "dice_rolled"] == ["brann", "ilse", "Sam"]
    assert stderr.splitlines() == [
        f"fightlog: warning: {source}: message 9005: Avrae's roll 1d20 + 2 is by 'Sam', a name the cast gives no one "
        "combatant: recorded as 'Sam', who is not in the fight (a display name two players share names neither: the "
        "cast names speakers by user name or id)",
        f"fightlog: warning: {source}: message 9006: the time goes back from 2026-11-20T21:05:00+00:00 to "
        "2026-11-20T21:04:00+00:00",
    ]


def test_a_roll_by_one_who_left_the_server_goes_to_the_user_it_mentions(tmp_path: Path) -> None:
    """DiscordChatExporter writes ``@Unknown`` for a mention of a user no longer a member (left
    before the export); the message's ``mentions`` still holds them. The roll went to a made-up
    'Unknown', and the audit said Brann never rolled (a tester)."""
    export = _sams_export()
    messages = export["messages"]
    assert isinstance(messages, list)
    brann = messages[0]["author"]
    roll = "@Unknown  :game_die:\n**Result**: 1d20 (14) + 2\n**Total**: 16"
    export["messages"] = [messages[0], {**messages[1], "content": roll, "mentions": [brann]},
                          {**messages[4], "content": roll}]
    export["messageCount"] = 3
    events, stderr = _import_sams(tmp_path, export, _SAMS_CAST.format("3001", "3002"))
    assert [e["roller"] for e in events if e["kind"] == "dice_rolled"] == ["brann", "Unknown"]  # the second: no one
    assert "message 9005: Avrae's roll 1d20 + 2 is by 'Unknown'" in stderr and "9002" not in stderr


def test_one_user_two_entries_name_is_warned_of_at_the_entry_that_gets_nothing(tmp_path: Path) -> None:
    """A cast that names Brann by id and gives Ilse his nickname too: every message of his went
    to Brann, silently (a tester)."""
    source = tmp_path / "sams.json"
    source.write_text(json.dumps(_sams_export()), encoding="utf-8")
    cast = tmp_path / "two.cast.toml"
    cast.write_text('[[combatants]]\nid = "brann"\nspeakers = ["3001"]\n[[combatants]]\nid = "ilse"\n'
                    'speakers = ["3002", "samwise_k"]\n[[dice]]\nspeakers = ["261302296103747584"]\nbot = "avrae"\n',
                    encoding="utf-8")
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(tmp_path / "log.jsonl"), "--ruleset",
                          "d20-evasion", "--cast", str(cast))
    assert code == 0, stderr
    assert f"fightlog: warning: {cast}:6: combatants[1] (ilse): 'samwise_k' is also Sam (3001), whom " \
           "combatants[0] (brann) names too: their messages go to combatants[0] (brann), none to combatants[1] (ilse)" \
           in stderr.splitlines()
    # the GM's entry, named by two of the speaker's names: one warning, at its line
    cast.write_text('[[combatants]]\nid = "brann"\nspeakers = ["3001"]\n[[combatants]]\nid = "ilse"\n'
                    'speakers = ["3002"]\n[gm]\nname = "Sam"\nspeakers = ["samwise_k", "Sam"]\n[[dice]]\n'
                    'speakers = ["261302296103747584"]\nbot = "avrae"\n', encoding="utf-8")
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(tmp_path / "log.jsonl"), "--force",
                          "--ruleset", "d20-evasion", "--cast", str(cast))
    assert code == 0, stderr
    assert [line for line in stderr.splitlines() if "names too" in line] == [
        f"fightlog: warning: {cast}:9: gm: 'samwise_k' and 'Sam' are also Sam (3001), whom combatants[0] (brann) names "
        "too: their messages go to combatants[0] (brann), none to gm",
        f"fightlog: warning: {cast}:9: gm: 'Sam' is also Sam (3002), whom combatants[1] (ilse) names too: their "
        "messages go to combatants[1] (ilse), none to gm"]  # both players are shown as Sam


def _armed_cast(tmp_path: Path, alice_weapon: str = "S_s_HPistol_Class_(Permanent)") -> Path:
    """The pump-house cast, saying what the transcript does not: who fights with what, at what range."""
    text = (IMPORT / "sl/pump-house.cast.toml").read_text()
    text = text.replace('speakers = ["alice.resident"]\n', 'speakers = ["alice.resident"]\n'
                        'weapons = { "M_a_Rifle_Class_(Permanent)" = [\'\\brifle\\b\'] }\n'
                        f'weapon = "{alice_weapon}"\nrange = "medium"\n')
    text = text.replace('speakers = ["bob.resident"]\n', 'speakers = ["bob.resident"]\n'
                        'weapons = { "L_s/b_Shafted_Class_(Permanent)" = [\'\\bpolearm\\b\'] }\nrange = "close"\n')
    cast = tmp_path / "cast.toml"
    cast.write_text(text)
    return cast


def test_a_cast_names_the_weapon_and_range_of_attacks_so_an_imported_fight_is_disputed(tmp_path: Path) -> None:
    """Each fighter of the roster carries two weapons: the rules cannot play an attack that
    names none, so an imported fight could not be disputed (docs/dispute.md promises it)."""
    roster = str(FIXTURES / "roe7/rosters/gate-skirmish.toml")
    out = tmp_path / "log.jsonl"
    plain = tmp_path / "plain.jsonl"
    args = ("import", "sl", str(IMPORT / "sl/pump-house.txt"), "--ruleset", "roe7", "--roster", roster)
    assert run(*args, "-o", str(plain), "--cast", str(IMPORT / "sl/pump-house.cast.toml"))[0] == 0
    assert run("dispute", str(plain), "--at", "11", "--set", "dice[0].face=5")[0] == 2  # name the weapon
    code, _, stderr = run(*args, "-o", str(out), "--cast", str(_armed_cast(tmp_path)))
    assert code == 0, stderr
    attacks = [(e["actor"], a.get("weapon"), a.get("range")) for e in map(json.loads, out.read_text().splitlines())
               if e["kind"] == "declaration_posted" for a in e.get("actions", []) if a["type"] == "attack"]
    assert attacks[:2] == [("bob", "L_s/b_Shafted_Class_(Permanent)", "close"),
                           ("alice", "M_a_Rifle_Class_(Permanent)", "medium")]  # "charges ... polearm", "fires her rifle"
    code, stdout, stderr = run("dispute", str(out), "--at", "11", "--set", "dice[0].face=5")
    assert code == 0, stderr
    assert "first consequence: seq 13 (attack_resolved): hit true -> false" in stdout


def test_a_cast_weapon_the_roster_does_not_give_is_refused_at_its_line(tmp_path: Path) -> None:
    cast = _armed_cast(tmp_path, alice_weapon="Banana")
    line = cast.read_text().splitlines().index('weapon = "Banana"') + 1
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "log.jsonl"),
                          "--ruleset", "roe7", "--cast", str(cast), "--roster", str(FIXTURES / "roe7/rosters/gate-skirmish.toml"))
    assert code == 2 and not (tmp_path / "log.jsonl").exists()
    assert stderr.startswith(f"fightlog: {cast}:{line}: combatants[0].weapon: alice carries no 'Banana' in the roster ")


def test_a_suggested_cast_writes_unseen_characters_as_escapes_and_imports(tmp_path: Path) -> None:
    """A nickname with an RTL override: the suggestion is a file, so it holds the name as a
    TOML escape (a reader sees it; the terminal's marks would have changed the name)."""
    export = _sams_export()
    for message in export["messages"]:  # type: ignore[attr-defined]
        if message["author"]["id"] == "3002":
            message["author"] = {**message["author"], "nickname": "Sam\u202eA"}
    source = tmp_path / "sams.json"
    source.write_text(json.dumps(export), encoding="utf-8")
    code, suggested, _ = run("import", "discord-json", str(source), "--suggest-cast", "--ruleset", "d20-evasion")
    assert code == 0 and "\u202e" not in suggested and "\u27e6" not in suggested
    assert 'name = "Sam\\u202EA"' in suggested and 'speakers = ["3002", "Sam\\u202EA"]' in suggested
    (tmp_path / "cast.toml").write_text(suggested, encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(out), "--ruleset", "d20-evasion",
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    joined = [e["name"] for e in map(json.loads, out.read_text().splitlines()) if e["kind"] == "combatant_joined"]
    assert "Sam\u202eA" in joined


def test_a_reply_naming_someone_else_is_not_the_answered_posters_roll(tmp_path: Path) -> None:
    export = _sams_export()
    messages: list[dict[str, object]] = export["messages"]  # type: ignore[assignment]
    messages[3] = {**messages[3], "content": "@Vex  :game_die:\n**Result**: 1d20 (14) + 2\n**Total**: 16"}
    source = tmp_path / "sams.json"
    source.write_text(json.dumps(export), encoding="utf-8")
    cast = tmp_path / "sams.cast.toml"
    cast.write_text('[[combatants]]\nid = "brann"\nspeakers = ["3001"]\n[[combatants]]\nid = "ilse"\nspeakers = ["3002"]\n'
                    '[[dice]]\nspeakers = ["261302296103747584"]\nbot = "avrae"\n', encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "discord-json", str(source), "-o", str(out), "--ruleset", "d20-evasion",
                          "--cast", str(cast))
    assert code == 0
    rollers = [e["roller"] for e in map(json.loads, out.read_text().splitlines()) if e["kind"] == "dice_rolled"]
    assert rollers == ["brann", "Vex", "Sam"]  # the reply answers Ilse's post, but names Vex
    assert "message 9004: Avrae's roll 1d20 + 2 is by 'Vex', a name the cast gives no one combatant" in stderr


def test_a_name_two_combatants_share_names_neither_as_a_target_or_in_a_status_line(tmp_path: Path) -> None:
    source = tmp_path / "yard.txt"
    source.write_text(
        "[2024/06/12 20:00]  Gemma (gemma.resident): Round 1\n"
        "[2024/06/12 20:01]  Alex Vance (alex.vance): /me attacks Alex.\n"
        "[2024/06/12 20:02]  Mira (mira.sol): /me attacks Alex.\n"
        "[2024/06/12 20:03]  Gemma (gemma.resident): Alex is down\n", encoding="utf-8")
    cast = tmp_path / "cast.toml"
    cast.write_text('[[combatants]]\nid = "vance"\nname = "Alex Vance"\nspeakers = ["alex.vance"]\n'
                    '[[combatants]]\nid = "kade"\nname = "Alex Kade"\nspeakers = ["alex.kade"]\n'
                    '[[combatants]]\nid = "mira"\nname = "Mira"\nspeakers = ["mira.sol"]\n'
                    '[gm]\nname = "Gemma"\nspeakers = ["gemma.resident"]\n'
                    "[hints.roe7]\nattack = ['\\battacks\\b']\n"
                    "[[status]]\npattern = '(?P<who>\\w+) is down'\nstatus = \"defeated\"\n", encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(source), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0, stderr
    events = list(map(json.loads, out.read_text().splitlines()))
    targets = [a.get("target") for e in events if e["kind"] == "declaration_posted" for a in e.get("actions", [])]
    assert targets == ["kade", None]  # Vance's "Alex" is the other one; Mira's, Vance or Kade? (nor one opponent)
    assert not [e for e in events if e["kind"] == "status_changed"]  # before, the first Alex went down


def test_two_attacks_in_one_post_are_two_attacks_each_on_its_target(tmp_path: Path) -> None:
    """``fires at Cara, then swings at Alice`` was one attack on Cara beside two attack
    rolls, and the audit was clean; now two attacks, each with the weapon its part names,
    and roe7's one action a turn is broken where it was. One target named, a second verb
    naming nobody, or another's action narrated (``Bob swings back``) is one attack as before."""
    source = tmp_path / "yard.txt"
    source.write_text(
        "[2024/06/12 20:00]  Gemma (gemma.resident): Round 1\n"
        "[2024/06/12 20:01]  Bob Kade (bob.resident): /me fires the rifle at Cara, then swings the axe at Alice.\n"
        "[2024/06/12 20:02]  Alice Vance (alice.resident): /me fires at Bob and fires again.\n"
        "[2024/06/12 20:03]  Cara Moss (cara.resident): /me fires at Bob. Bob swings back at Alice.\n", encoding="utf-8")
    cast = tmp_path / "cast.toml"
    cast.write_text(
        '[[combatants]]\nid = "bob"\nname = "Bob Kade"\nspeakers = ["bob.resident"]\nside = "r"\n'
        'weapon = "Rifle"\nweapons = { Axe = ["axe"] }\n'
        '[[combatants]]\nid = "alice"\nname = "Alice Vance"\nspeakers = ["alice.resident"]\nside = "c"\n'
        '[[combatants]]\nid = "cara"\nname = "Cara Moss"\nspeakers = ["cara.resident"]\nside = "c"\n'
        '[gm]\nname = "Gemma"\nspeakers = ["gemma.resident"]\n'
        "[hints.roe7]\nattack = ['\\b(fires|swings)\\b']\n", encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(source), "-o", str(out), "--ruleset", "roe7", "--cast", str(cast))
    assert code == 0, stderr
    events = list(map(json.loads, out.read_text().splitlines()))
    posts = [[(a.get("target"), a.get("weapon")) for a in e.get("actions", [])] for e in events
             if e["kind"] == "declaration_posted" and e["actor"] != "Gemma"]
    assert posts == [[("cara", "Rifle"), ("alice", "Axe")], [("bob", None)], [("bob", None)]]  # Bob's swing narrated
    code, stdout, _ = run("audit", str(out))
    assert code == 1 and "rules.allowance        bob: bob has no action left this turn" in stdout


def test_a_cast_giving_both_range_and_distance_is_refused_at_its_line(tmp_path: Path) -> None:
    cast = tmp_path / "cast.toml"
    cast.write_text('[[combatants]]\nid = "a"\nspeakers = ["x"]\nrange = "close"\ndistance = 5\n', encoding="utf-8")
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/pump-house.txt"), "-o", str(tmp_path / "log.jsonl"),
                          "--ruleset", "roe7", "--cast", str(cast))
    assert code == 2 and not (tmp_path / "log.jsonl").exists()
    assert stderr == f"fightlog: {cast}:5: combatants[0]: range and distance both given: give one (the range band, " \
                     "or the distance the rules find it from)\n"


_ASIDES = """[2024/08/15 23:00]  Rook Halloran (rook.halloran): ((sorry, lag)) /me fires at Vex.
[2024/08/15 23:01]  Vex Moreau (vex.moreau): ((brb))
[2024/08/15 23:02]  Vex Moreau (vex.moreau): ((is it my turn? /me fires
[2024/08/15 23:03]  Vex%3A the Quick (vex.moreau): /me fires at Rook.
[2024/08/15 23:03]  RoE combat HUD: Vex: the Quick rolled 1d100 (44) + [10 aim] = 54
"""

_ASIDES_CAST = """[[combatants]]
id = "rook"
name = "Rook Halloran"
side = "anchor"
speakers = ["rook.halloran"]
[[combatants]]
id = "vex"
name = "Vex Moreau"
side = "raiders"
speakers = ["vex.moreau"]
[[dice]]
speakers = ["RoE combat HUD"]
bot = "sl-hud"
[hints.roe7]
attack = ['\\bfires?\\b']
"""


def test_an_aside_opening_a_post_leaves_the_rest_in_character_and_a_hud_names_a_display_name(tmp_path: Path) -> None:
    """`((sorry, lag)) /me fires` was out of character as a whole (no attack: a false
    `order.skipped`); an unclosed or lone aside still is. A HUD naming a display name with a
    colon (`Vex: the Quick`, written `Vex%3A the Quick`) named someone not in the fight."""
    (tmp_path / "t.txt").write_text(_ASIDES, encoding="utf-8")
    (tmp_path / "cast.toml").write_text(_ASIDES_CAST, encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "t.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0 and "warning" not in stderr, stderr
    events = [json.loads(line) for line in out.read_text().splitlines()]
    posts = [(e.get("ooc", False), [a["type"] for a in e.get("actions", [])]) for e in events
             if e["kind"] == "declaration_posted"]
    assert posts == [(False, ["attack"]), (True, []), (True, []), (False, ["attack"])]
    assert [e["roller"] for e in events if e["kind"] == "dice_rolled"] == ["vex"]


_CAPPED = """[2024/08/15 23:01]  Rook Halloran (rook.halloran): /me fires at Vex.
[2024/08/15 23:01]  RoE combat HUD: Rook Halloran rolled 1d100 (60) + [40 scope] = 90
[2024/08/15 23:02]  Vex Moreau (vex.moreau): /me fires at Rook.
[2024/08/15 23:02]  RoE combat HUD: Vex Moreau rolled 1d100 (50) + [20 scope] + [15 racial] = 85
"""


@pytest.mark.parametrize(("cap", "found"), [
    ("", [(2, "dice.arithmetic"), (2, "rules.modifier-cap"), (4, "rules.modifier-cap")]),
    ("cap = 30\n", [(4, "dice.arithmetic")]),  # Vex's HUD line did not cap: 85 is past it
])
def test_a_hud_that_caps_modifiers_without_printing_it(tmp_path: Path, cap: str, found: list[tuple[int, str]]) -> None:
    """A HUD applying roe7's +30 cap (`(60) + [40 scope] = 90`) was two errors: its total did
    not add up, and +40 was past the cap. The cast says so (`cap = 30`)."""
    (tmp_path / "t.txt").write_text(_CAPPED, encoding="utf-8")
    cast = _ASIDES_CAST.replace('bot = "sl-hud"\n', f'bot = "sl-hud"\n{cap}')
    (tmp_path / "cast.toml").write_text(cast, encoding="utf-8")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "t.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    _, audit, _ = run("audit", str(out), "--format", "json")
    assert [(int(f["ref"].rsplit(":", 1)[1]), f["code"]) for f in json.loads(audit)["findings"]
            if f["severity"] == "error"] == found


def test_dice_maidens_reply_cut_to_the_character_limit_is_a_warning(tmp_path: Path) -> None:
    """Dice Maiden answers a roll too long for Discord with its total alone (``dice_maiden.rb``:
    ``#{@user} Roll #{@dice_result} Reason: `Simplified roll due to character limit```): no
    dice to record, so the import says so rather than keeping it as chatter without a word."""
    import json

    data = json.loads((IMPORT / "discord/dockside-rematch.json").read_text())
    said = dict(data["messages"][-1], id="1220000000000000999", content="Mara Roll Result: `412` Reason: `Simplified "
                "roll due to character limit`", embeds=[], reference=None, mentions=[],
                author={"id": "377701707943116800", "name": "Dice Maiden", "discriminator": "8137",
                        "nickname": "Dice Maiden", "isBot": True})
    data["messages"].append(said)
    data["messageCount"] += 1
    export = tmp_path / "cut.json"
    export.write_text(json.dumps(data))
    code, _, stderr = run("import", "discord-json", str(export), "-o", str(tmp_path / "log.jsonl"), "--ruleset",
                          "d20-evasion", "--cast", str(IMPORT / "discord/dockside-rematch.cast.toml"))
    assert code == 0
    assert (f"fightlog: warning: {export}: message 1220000000000000999: Dice Maiden's message names dice or a result "
            "but reads as no roll: kept as the object's chatter") in stderr.splitlines()


def test_an_imported_hud_roll_with_another_die_than_its_range_gives(tmp_path: Path) -> None:
    """Long Range: 1d10 for a pistol at 60 m. A HUD that always rolls 1d100 is the usual
    mistake in SL fights; an imported roll cites no post, so the audit reads the roller's
    latest post of the turn, and the range the cast gives (it never looked: no finding)."""
    cast = tmp_path / "cast.toml"
    text = (IMPORT / "sl/midnight-brawl.cast.toml").read_text()
    cast.write_text(text.replace('speakers = ["bob.resident"]\n', 'speakers = ["bob.resident"]\n'
                                 'weapon = "S_s_Pistol_Class_(Permanent)"\nrange = "long"\n', 1))
    assert 'range = "long"' in cast.read_text()
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(IMPORT / "sl/midnight-brawl.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(cast))
    assert code == 0, stderr
    code, stdout, _ = run("audit", str(out))
    found = [line for line in stdout.splitlines() if "rules.range-die" in line]
    assert found and found[0].endswith("rolls 1d100; the rules give 1d10 there [Close, Medium and Long Range] "
                                       "(transcript midnight-brawl.txt:3)")


YARD_CAST = """title = "Scrapyard"
order = ["alice", "bob"]
[[combatants]]
id = "alice"
name = "Alice Vance"
side = "colony"
speakers = ["alice.resident"]
[[combatants]]
id = "bob"
name = "Bob Kade"
side = "raiders"
speakers = ["bob.resident"]
[gm]
name = "Gemma"
speakers = ["gemma.resident"]
[hints.roe7]
attack = ['\\bfires?\\b']
"""
YARD = """[2024/07/04 20:00]  Gemma Sinclair (gemma.resident): ((Round 1. Alice then Bob.))
[2024/07/04 20:00]  Bob Kade (bob.resident): /me ducks behind a wreck.
[2024/07/04 20:01]  Alice Vance (alice.resident): Alice looks around.
[2024/07/04 20:03]  Bob Kade (bob.resident): /me waits for her.
[2024/07/04 20:04]  Gemma Sinclair (gemma.resident): ((Round 2))
[2024/07/04 20:05]  Alice Vance (alice.resident): Alice waits.
[2024/07/04 20:06]  Bob Kade (bob.resident): /me waits too.
[2024/07/04 20:07]  Gemma Sinclair (gemma.resident): ((Round 3))
[2024/07/04 20:08]  Alice Vance (alice.resident): Alice yawns.
[2024/07/04 20:09]  Bob Kade (bob.resident): /me yawns.
"""


def test_one_post_out_of_turn_does_not_shift_every_round_after_it(tmp_path: Path) -> None:
    """Bob posts before Alice in round 1; his own post then opened "round 2", the GM's
    "Round 2" was taken to confirm it, and every later post of his was out of turn (a tester:
    four errors for one break). Then the GM's call opened a round of its own, and Alice was
    "skipped" in the short round Bob's post had opened (another tester). A post after everyone
    has posted opens the next round only when it is the next round's first: Bob's second post
    is his double post of round 1, and the GM's calls open rounds 2 and 3."""
    (tmp_path / "yard.txt").write_text(YARD)
    (tmp_path / "yard.cast.toml").write_text(YARD_CAST)
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "yard.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "yard.cast.toml"))
    assert code == 0, stderr
    assert "the GM calls round" not in stderr, stderr
    code, stdout, _ = run("audit", str(out), "--format", "json")
    found = [(f["code"], f["ref"]) for f in json.loads(stdout)["findings"] if f["severity"] == "error"]
    assert found == [("order.out-of-turn", "yard.txt:2"), ("order.double-post", "yard.txt:4")]
    clean = tmp_path / "clean.txt"
    clean.write_text(YARD.replace("[2024/07/04 20:00]  Bob Kade (bob.resident): /me ducks behind a wreck.\n", ""))
    code, _, stderr = run("import", "sl", str(clean), "-o", str(tmp_path / "c.jsonl"), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "yard.cast.toml"))
    assert code == 0 and "GM calls" not in stderr
    assert run("audit", str(tmp_path / "c.jsonl"))[0] == 0


def test_an_interrupt_declared_in_the_fleers_turn_answers_the_flee(tmp_path: Path) -> None:
    """Fleeing: interrupters declare before the rolls, in the fleer's turn. An imported
    "Alice interrupts" was Alice's second post of the round: a double post (a tester)."""
    cast = YARD_CAST.replace("attack = ['\\bfires?\\b']", "attack = ['\\bfires?\\b']\n"
                             "flee = ['\\bflees?\\b']\ninterrupt = ['\\binterrupts?\\b']")
    (tmp_path / "yard.cast.toml").write_text(cast)
    (tmp_path / "flee.txt").write_text(
        "[2024/07/04 20:00]  Gemma Sinclair (gemma.resident): ((Round 1))\n"
        "[2024/07/04 20:01]  Alice Vance (alice.resident): Alice waits.\n"
        "[2024/07/04 20:02]  Bob Kade (bob.resident): /me flees for the gate.\n"
        "[2024/07/04 20:02]  Alice Vance (alice.resident): Alice interrupts, firing at his back.\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "flee.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "yard.cast.toml"))
    assert code == 0, stderr
    posts = [json.loads(line) for line in out.read_bytes().splitlines() if b'"declaration_posted"' in line]
    flee, interrupt = posts[-2], posts[-1]
    assert [a["type"] for a in interrupt["actions"]] == ["interrupt"] and interrupt["responds_to"] == flee["seq"]
    code, stdout, _ = run("audit", str(out), "--format", "json")
    assert not [f for f in json.loads(stdout)["findings"] if f["code"] == "order.double-post"]


def test_the_weapon_of_an_attack_is_the_one_named_from_the_attack_on(tmp_path: Path) -> None:
    """"Mara keeps the sword low and shoots Vex with her pistol" was an attack with the sword:
    the first of the cast's weapons whose pattern the post named anywhere."""
    cast = YARD_CAST.replace('speakers = ["alice.resident"]\n', 'speakers = ["alice.resident"]\n'
                             'weapons = { "M_s_Sword_Class_(Permanent)" = [\'\\bsword\\b\'], '
                             '"S_s_Pistol_Class_(Permanent)" = [\'\\bpistol\\b\'] }\n')
    (tmp_path / "yard.cast.toml").write_text(cast)
    (tmp_path / "two.txt").write_text(
        "[2024/07/04 20:00]  Gemma Sinclair (gemma.resident): ((Round 1))\n"
        "[2024/07/04 20:01]  Alice Vance (alice.resident): Alice keeps the sword low and fires at Bob with her pistol.\n"
        "[2024/07/04 20:02]  Alice Vance (alice.resident): ((and then)) Alice fires the pistol, the sword still out.\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "two.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "yard.cast.toml"))
    assert code == 0, stderr
    posts = [json.loads(line) for line in out.read_bytes().splitlines() if b'"declaration_posted"' in line]
    weapons = [a.get("weapon") for p in posts for a in p.get("actions", [])]
    assert weapons[0] == "S_s_Pistol_Class_(Permanent)"


def test_a_round_call_on_a_later_line_of_the_gms_message_opens_the_round(tmp_path: Path) -> None:
    """``Mara wins initiative.`` then ``**Round 1**`` on the next line of one message: the call
    was read only at the message's start, so the round never opened (a tester)."""
    (tmp_path / "yard.cast.toml").write_text(YARD_CAST)
    (tmp_path / "calls.txt").write_text(
        "[2024/07/04 20:00]  Gemma Sinclair (gemma.resident): Alice wins initiative.\n"
        " ((Round 1))\n"
        "[2024/07/04 20:01]  Alice Vance (alice.resident): Alice waits.\n"
        "[2024/07/04 20:02]  Bob Kade (bob.resident): /me waits too.\n"
        "[2024/07/04 20:03]  Gemma Sinclair (gemma.resident): Nobody moves.\n"
        " ((Round 2))\n"
        "[2024/07/04 20:04]  Alice Vance (alice.resident): Alice yawns.\n")
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "calls.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "yard.cast.toml"))
    assert code == 0, stderr
    rounds = [json.loads(line) for line in out.read_bytes().splitlines() if b'"round_started"' in line]
    assert [(r["round"], r["origin"]["ref"]) for r in rounds] == [(1, "calls.txt:1"), (2, "calls.txt:5")]


def test_an_imported_damage_roll_after_a_missed_attack(tmp_path: Path) -> None:
    """Basic Contested Roll: a dodge at or above the attack is a miss, and a miss deals no
    damage. An SL HUD's rolls say what they are for; a damage roll after a miss audited
    clean (an import has no outcome events to judge). A hit's damage is no finding."""
    cast = YARD_CAST + '[[dice]]\nspeakers = ["RoE combat HUD (*)"]\nbot = "sl-hud"\n'
    (tmp_path / "yard.cast.toml").write_text(cast)
    lines = ("[2024/07/04 20:00]  Gemma Sinclair (gemma.resident): ((Round 1))\n"
             "[2024/07/04 20:01]  Alice Vance (alice.resident): Alice fires at Bob.\n"
             "[2024/07/04 20:01]  RoE combat HUD (alice): Alice Vance rolls 1d100 for attack: {attack}\n"
             "[2024/07/04 20:01]  RoE combat HUD (bob): Bob Kade rolls 1d100 for dodge: 40\n"
             "[2024/07/04 20:02]  RoE combat HUD (alice): Alice Vance rolls 1d20 for damage: 9\n")
    found = {}
    for attack in (40, 58):
        (tmp_path / "hud.txt").write_text(lines.format(attack=attack))
        out = tmp_path / f"log{attack}.jsonl"
        code, _, stderr = run("import", "sl", str(tmp_path / "hud.txt"), "-o", str(out), "--ruleset", "roe7",
                              "--cast", str(tmp_path / "yard.cast.toml"))
        assert code == 0, stderr
        code, stdout, _ = run("audit", str(out), "--format", "json")
        found[attack] = [(f["message"], f["ref"]) for f in json.loads(stdout)["findings"] if f["code"] == "rules.damage"]
    assert found[40] == [("alice rolled damage after their attack missed: 40 (seq 9) against bob's dodge of 40 "
                          "(seq 10) (a tie goes to the defender)", "hud.txt:5")]
    assert found[58] == []


_TRIO_CAST = YARD_CAST.replace('[gm]', """[[combatants]]
id = "dan"
name = "Dan Reyes"
side = "raiders"
speakers = ["dan.resident"]
[gm]""")


def _posts(lines: list[str]) -> str:
    who = {"G": "Gemma Sinclair (gemma.resident)", "B": "Bob Kade (bob.resident)", "A": "Alice Vance (alice.resident)",
           "D": "Dan Reyes (dan.resident)"}
    return "".join(f"[2024/07/04 20:{n:02d}]  {who[line[0]]}: {line[2:]}\n" for n, line in enumerate(lines))


@pytest.mark.parametrize(("lines", "expected"), [
    # a post after everyone has posted, by another than the next round's first: a double post, not round 2
    (["G Round 1", "B /me r1.", "A r1", "D /me r1.", "A jumps the gun", "G Round 2", "B /me r2.", "A r2", "D /me r2."],
     [("order.double-post", "alice", "t.txt:5")]),
    # a GM's call of the round the log is in, after posts in it: the next round (a surprise round 0)
    (["G Round 0 (surprise)", "B /me r0.", "A r0", "G Round 1", "B /me r1.", "A r1", "D /me r1."],
     [("order.skipped", "dan", "t.txt:4")]),
    # no GM calling rounds: the order's first again after others opens the next round
    (["B /me r1.", "A r1", "B /me r2.", "A r2", "B /me r3.", "A r3"],
     [("order.skipped", "dan", "t.txt:3"), ("order.skipped", "dan", "t.txt:5")]),
])
def test_rounds_follow_the_gms_calls_and_the_order(tmp_path: Path, lines: list[str],
                                                   expected: list[tuple[str, str, str]]) -> None:
    """A tester: one early post had two players "skipped" and the poster never named; a
    surprise "Round 0" made the GM's "Round 1" a confirmation of the round the posts were in;
    one combatant never posting kept the fight in round 1 for good, with double posts."""
    (tmp_path / "t.txt").write_text(_posts(lines))
    (tmp_path / "cast.toml").write_text(_TRIO_CAST.replace('order = ["alice", "bob"]', 'order = ["bob", "alice", "dan"]'))
    out = tmp_path / "log.jsonl"
    code, _, stderr = run("import", "sl", str(tmp_path / "t.txt"), "-o", str(out), "--ruleset", "roe7",
                          "--cast", str(tmp_path / "cast.toml"))
    assert code == 0, stderr
    code, stdout, _ = run("audit", str(out), "--format", "json")
    found = [(f["code"], f["actor"], f["ref"]) for f in json.loads(stdout)["findings"] if f["code"].startswith("order.")]
    assert found == expected, found
