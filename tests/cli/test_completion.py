"""Shell completion (docs/cli.md): driven as the shell drives it, through the environment."""

from __future__ import annotations

from click.testing import CliRunner

from fightlog.cli.main import COMMANDS, cli


def complete(words: str, shell: str = "bash") -> list[str]:
    """What ``fightlog`` answers the shell for the command line ``words`` (cursor at its end)."""
    env = {
        "_FIGHTLOG_COMPLETE": f"{shell}_complete",
        "COMP_WORDS": words,
        "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1)),
    }
    result = CliRunner().invoke(cli, [], env=env, prog_name="fightlog", catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return [line.partition(",")[2] for line in result.stdout.splitlines()]


def test_rulesets_complete_after_ruleset() -> None:
    assert complete("fightlog play start fight.jsonl --ruleset ") == ["bleeding-sun", "d20-evasion", "en51", "roe7",
                                                                                   "traveller"]
    assert complete("fightlog play start fight.jsonl --ruleset d2") == ["d20-evasion"]
    assert complete("fightlog import sl chat.txt --ruleset r") == ["roe7"]  # docs/cli.md: every --ruleset


def test_commands_and_subcommands_complete() -> None:
    assert complete("fightlog ") == sorted(COMMANDS)
    assert complete("fightlog au") == ["audit"]
    assert complete("fightlog play e") == ["end", "end-turn"]


def test_options_and_choices_complete() -> None:
    assert "--head" in complete("fightlog verify --")
    assert complete("fightlog audit fight.jsonl --format ") == ["human", "json"]


def test_the_bash_script_is_printed() -> None:
    result = CliRunner().invoke(cli, [], env={"_FIGHTLOG_COMPLETE": "bash_source"}, prog_name="fightlog")
    assert result.exit_code == 0 and "_fightlog_completion()" in result.stdout
