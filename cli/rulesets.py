"""``fightlog rulesets``: the installed rulesets, each with its options and their defaults,
whether it can play a fight and simulate fights (``fightlog sim``: a policy that picks each
post), and the finding codes it declares."""

from __future__ import annotations

from typing import Any

import click

from fightlog.cli.options import format_option
from fightlog.cli.output import echo_json, json_text


@click.command(
    epilog="""\b
Examples:
  fightlog rulesets                    # each ruleset, whether it plays and simulates, its options
  fightlog rulesets --format json      # the same for scripts
  fightlog rulesets --actions          # and what each action type of a post reads (play post --do)
  fightlog rulesets --findings         # and what each finding code of its audit means

\b
Rulesets are plugins found through the fightlog.rulesets entry points, the
built-in ones too; docs/rulesets/HOWTO.md says how to add one. A house-rules file
(fightlog run --options, fightlog play start --options) sets the options listed."""
)
@click.option("--actions", "actions", is_flag=True,
              help="Also list each action type a post may declare (play post --do): the part of the turn it "
                   "spends, and the fields and params it reads.")
@click.option("--findings", "findings", is_flag=True,
              help="Also list each finding code the ruleset's audit reports: its severity, what it means and the "
                   "rulebook section it rests on (the json lists them always).")
@format_option
def rulesets(fmt: str, actions: bool, findings: bool) -> None:
    """List the installed rulesets: options, defaults, whether each can play and simulate.

    A ruleset that plays has a table: fightlog play and fightlog run can play it, and its
    options are what a house-rules file may set. One that also has a policy (who does what
    each turn) can be simulated: fightlog sim plays many fights of it. Every ruleset folds, replays and audits
    the logs that name it. An installed ruleset that does not load is listed as broken,
    with the reason, and the exit code is 1; so is another package's ruleset claiming
    the id of one of fightlog's own (listed as ignored: fightlog's own is used).
    """
    found = [_describe(ruleset_id, actions) for ruleset_id in _installed()]
    if fmt == "json":
        echo_json({"rulesets": found})
    else:
        for number, ruleset in enumerate(found):
            if number:
                click.echo()
            click.echo(_human(ruleset, findings))
    if any("broken" in ruleset or "ignored" in ruleset for ruleset in found):
        raise SystemExit(1)  # a finding: an installed ruleset that cannot be used, or a plugin ignored


def _installed() -> list[str]:
    from fightlog.kit.ruleset import GENERIC, installed

    return [r for r in installed() if r != GENERIC.id]


def _describe(ruleset_id: str, actions: bool = False) -> dict[str, Any]:
    """One ruleset as plain data: ``id``, ``plays``, ``simulates`` (it plays and has a policy
    for ``fightlog sim``), ``options`` (name, default, accepts), ``findings`` (its own codes:
    code, severity, meaning, section); with ``actions``, ``actions`` (type, spends, fields,
    params) of a ruleset that plays."""
    from fightlog.errors import RulesetError
    from fightlog.kit.options import allowed, as_data
    from fightlog.kit.ruleset import policy_for, ruleset_for
    from fightlog.reducers.fold_rules import clashes

    try:
        rules = ruleset_for(ruleset_id)
        table = rules.table()
        simulates = table is not None and policy_for(ruleset_id) is not None
    except RulesetError as exc:
        return {"id": ruleset_id, "plays": False, "simulates": False, "options": [], "findings": [],
                "broken": exc.message}
    options: list[dict[str, Any]] = []
    if table is not None:
        defaults = as_data(table.option_type())
        options = [
            {"name": name, "default": value, "accepts": allowed(table.option_type, name)}
            for name, value in defaults.items()
        ]
    findings = [
        {"code": code, "severity": found.severity, "meaning": found.meaning, "section": found.section}
        for code, found in sorted(rules.findings().items())
    ]
    described = {"id": ruleset_id, "plays": table is not None, "simulates": simulates, "options": options,
                 "findings": findings}
    if actions and table is not None:
        described["actions"] = _actions(table)
    ignored = clashes(ruleset_id)
    if ignored:
        described["ignored"] = [f"{claim} claims this id, fightlog's own: ignored" for claim in ignored]
    return described


def _actions(table: Any) -> list[dict[str, Any]]:
    """Each action type with the part of the turn it spends (``nothing``, not ``free``: a ruleset
    may have free actions that count, as Bleeding Sun's) and what it reads (``reads``, where
    the table says; a plugin's table that does not: its types and costs alone)."""
    reads = table.reads() if callable(getattr(table, "reads", None)) else {}
    return [{"type": kind, "spends": spends or "nothing", "fields": list(reads.get(kind, ((), ()))[0]),
             "params": list(reads.get(kind, ((), ()))[1])} for kind, spends in sorted(table.action_types.items())]


def _human(ruleset: dict[str, Any], findings: bool = False) -> str:
    if "broken" in ruleset:
        return f"{ruleset['id']}: broken: {ruleset['broken']}"
    if not ruleset["plays"]:
        plays = "folds and audits; cannot play"
    elif ruleset["simulates"]:
        plays = "plays fights (fightlog play, fightlog run) and simulates them (fightlog sim)"
    else:
        plays = "plays fights (fightlog play, fightlog run); no policy to simulate them (fightlog sim)"
    codes = len(ruleset["findings"])
    lines = [f"{ruleset['id']}: {plays}; {codes} finding code{'' if codes == 1 else 's'} of its own"
             + ("" if findings or not codes else " (--findings lists them)")]
    lines += [f"  ignored: {why}" for why in ruleset.get("ignored", ())]
    if ruleset["options"]:
        lines.append("  options (default; accepts):")
        width = max(len(option["name"]) for option in ruleset["options"])
        lines += [
            f"    {option['name']:<{width}} = {json_text(option['default'])}  ({option['accepts']})"
            for option in ruleset["options"]
        ]
    if ruleset.get("actions"):
        lines.append("  actions (spends: fields; params), as play post --do writes them (TYPE key=value ...):")
        width = max(len(action["type"]) for action in ruleset["actions"])
        for action in ruleset["actions"]:
            fields = ", ".join(action["fields"]) or "-"
            params = ", ".join(action["params"]) or "-"
            lines.append(f"    {action['type']:<{width}}  {action['spends']}: {fields}; {params}")
    if findings and ruleset["findings"]:
        lines.append("  findings (severity: what it means [rulebook section]):")
        lines += [f"    {f['code']}  {f['severity']}: {f['meaning']} [{f['section']}]" for f in ruleset["findings"]]
    return "\n".join(lines)
