"""``fightlog sim``: many fights played by the rulesets' policies on Dask, counted (win
rates with 95% Wilson intervals, fight length, damage, effects), house rules compared over
the same seeds, any fight written out again (``fightlog.scale``; docs/scale.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import click

from fightlog.cli.errors import EXIT_FINDINGS, reports_errors
from fightlog.cli.options import BoundedInt, check_new_chart, check_new_log, format_option, house_option, seed_option
from fightlog.cli.output import echo_json
from fightlog.cli.progress import Progress
from fightlog.cli.scale_options import check_cluster, cluster_options
from fightlog.errors import InputError
from fightlog.kit.options import NUMBER_CAP
from fightlog.report.wording import plural

if TYPE_CHECKING:
    from fightlog.scale.setup import Setup
    from fightlog.scale.tally import Tally


@click.command(
    epilog="""\b
Examples:
  fightlog fixtures                # once: copies the bundled files to fixtures/
  fightlog sim fixtures/roe7/scenarios/alley-duel.toml --fights 200 --seed 7
  fightlog sim fixtures/en51/rosters/tavern.toml --fights 200 --seed 7 --format json
  fightlog sim fixtures/en51/rosters/tavern.toml --fights 200 --seed 7 --chart tavern.png   # to post
  touch base.toml                  # the rulebook's options, against a house-rules file:
  fightlog sim fixtures/roe7/scenarios/alley-duel.toml --fights 200 --seed 7 --options base.toml \\
      --compare fixtures/roe7/house-rules.toml --chart runs.svg
  fightlog sim fixtures/bleeding-sun/rosters/ash-market.toml --fights 100 --seed 7 --chart ash.html   # a page
  fightlog sim fixtures/roe7/scenarios/alley-duel.toml --seed 7 --replay 41 -o fight41.jsonl
  fightlog audit fight41.jsonl     # fight 41 of the run, audited

On a Dask cluster: --scheduler tcp://HOST:8786 (docs/scale.md).

\b
Exit codes: 0 done; 1 a sampled fight audited with findings (a bug in the ruleset: each is
listed with its fight's index, to replay it); 2 bad input (the file, the options, a ruleset
with no policy, sides that cannot fight, --fights below 1, a scheduler that does not answer)
or usage. 3 internal error (a bug: the error line names a crash report)."""
)
@click.argument("source", metavar="ROSTER_OR_SCENARIO")
@click.option("--fights", type=BoundedInt(1, most=NUMBER_CAP), default=None, help="How many fights to play.")
@seed_option("The master seed: fight I plays with a seed derived from it and I (default: a fresh one, printed).")
@house_option
@click.option("--compare", "compare_with", metavar="B.toml",
              help="Play the same seeds again under these house rules and report each difference.")
@click.option("--audit-every", type=BoundedInt(0, most=NUMBER_CAP), default=1000, show_default=True,
              help="Audit every N-th fight (0: none); a finding is a bug in the ruleset.")
@click.option("--policy", metavar="MODULE[:NAME]",
              help="The policy fighters decide by (a module's POLICY), instead of the scenario's or the ruleset's.")
@click.option("--max-rounds", type=click.IntRange(min=1, max=10_000), default=100, show_default=True,
              help="A fight undecided after this many rounds is a draw.")
@click.option("--replay", type=BoundedInt(0, 64), default=None, metavar="I",  # a fight index is 8 bytes (scale.seeds)
              help="Instead: write fight I of the run (with --seed) to -o LOG.")
@click.option("-o", "--output", "log", metavar="LOG", help="With --replay: the log to write.")
@click.option("--force", is_flag=True, help="Replace LOG (with --replay) or the --chart if it exists.")
@click.option("--chart", metavar="FILE.svg|FILE.png|FILE.html",
              help="Also draw the win rates and fight lengths: an SVG or PNG chart, or an HTML page with the summary.")
@cluster_options
@format_option
@reports_errors
def sim(source: str, fights: int | None, seed: str | None, house: str | None, compare_with: str | None,
        audit_every: int, policy: str | None, max_rounds: int, replay: int | None, log: str | None, force: bool,
        chart: str | None, scheduler: str | None, workers: int | None, fmt: str) -> None:
    """Play many fights of ROSTER_OR_SCENARIO (a roster file: everyone joins; a scenario
    file: its roster, options, joins and positions, not its steps), each fighter deciding by
    its ruleset's policy, and report each side's win rate with its 95% Wilson interval, the
    fight length in rounds, damage dealt and taken per fighter, and how often each effect
    occurs. Fight I's seed is derived from the master seed and I, so any fight can be
    written out again (--replay I -o LOG) and audited.
    """
    from fightlog.dice import new_seed
    from fightlog.kit.house import read_house_rules
    from fightlog.scale.cluster import client, require
    from fightlog.scale.jobs import simulate
    from fightlog.scale.seeds import master_seed
    from fightlog.scale.setup import load_setup

    check_cluster(scheduler, workers)
    if chart is not None and not chart.endswith((".svg", ".png", ".html")):
        raise click.UsageError("--chart: FILE.svg or FILE.png (the chart) or FILE.html (a page: the chart and the summary)")
    if replay is not None and (chart is not None or compare_with is not None):
        given = " and ".join(o for o, v in (("--chart", chart), ("--compare", compare_with)) if v is not None)
        raise click.UsageError(f"{given}: for a run of fights; --replay writes one fight, under --options alone")
    if chart is not None:
        check_new_chart(chart, force)  # before any fight is played
    if chart is not None and chart.endswith(".html"):
        from fightlog.report.page.render import require_jinja

        require_jinja()  # before any fight is played: one line naming the extra to install
    if chart is not None and chart.endswith(".png"):
        from fightlog.scale.chart_png import require as require_matplotlib

        require_matplotlib(chart)
    setup = load_setup(source, read_house_rules(house) if house is not None else None, max_rounds=max_rounds,
                       policy=policy)
    if replay is not None:
        return _replay(setup, seed, replay, fights, log, force)
    if log is not None:
        raise click.UsageError("-o LOG goes with --replay I")
    if fights is None:
        raise click.UsageError("give --fights N (1 or more)")
    other = load_setup(source, read_house_rules(compare_with), max_rounds=max_rounds,
                       policy=policy) if compare_with else None
    require("fightlog sim")
    master = master_seed(seed if seed is not None else new_seed())
    progress = Progress("fights")
    with client(scheduler, workers) as runner:
        try:
            first = simulate(runner, setup, master, fights, audit_every=audit_every, done=progress)
            second = simulate(runner, other, master, fights, audit_every=audit_every, done=progress) if other else None
        finally:
            progress.close()
    doc = _document(source, setup, master, first, second, house, compare_with)
    if chart is not None:
        from fightlog.cli.run import write_atomically
        from fightlog.scale.chart import svg

        runs = [(f"A: {house or 'the file options'}", doc["a"])]
        if "b" in doc:
            runs.append((f"B: {compare_with}", doc["b"]))
        if chart.endswith(".png"):
            from fightlog.scale.chart_png import png

            write_atomically(chart, png(runs, source))
        else:
            drawn = svg(runs, source)
            if chart.endswith(".html"):
                from fightlog.report.page.render import render_sim

                drawn = render_sim(source, _lines(doc), drawn)
            write_atomically(chart, drawn.encode())
    if fmt == "json":
        echo_json(doc)
    else:
        for line in _lines(doc):
            click.echo(line)
        if chart is not None:
            what = "a page: the chart and the summary" if chart.endswith(".html") else "the chart"
            click.echo(f"wrote {chart}: {what}")
    if doc["a"]["audit"]["findings"] or (second is not None and doc["b"]["audit"]["findings"]):
        raise SystemExit(EXIT_FINDINGS)


def _replay(setup: Setup, seed: str | None, index: int, fights: int | None, log: str | None, force: bool) -> None:
    from fightlog.cli.run import write_atomically
    from fightlog.events.store import MemoryStore
    from fightlog.scale.fights import fight_events
    from fightlog.scale.seeds import master_seed

    if seed is None or log is None:
        raise click.UsageError("--replay I needs the run's --seed and -o LOG")
    if fights is not None and index >= fights:
        raise click.UsageError(f"--replay {index}: the run has fights 0 to {fights - 1}")
    check_new_log(log, force)
    store = MemoryStore(log)
    store.append(fight_events(setup, master_seed(seed), index))
    write_atomically(log, store.to_bytes())
    click.echo(f"wrote {log}: fight {index} of the run with master seed {master_seed(seed)}")


def _document(source: str, setup: Setup, master: str, a: Tally, b: Tally | None, house: str | None,
              compare_with: str | None) -> dict[str, Any]:
    from fightlog.scale.tally import compare, report

    doc: dict[str, Any] = {"source": source, "ruleset": setup.ruleset, "master_seed": master,
                           "options": house, "a": report(a, setup.sides)}
    if b is not None:
        doc["compare"] = compare_with
        doc["b"] = report(b, setup.sides)
        doc["differences"] = compare(a, b, setup.sides)
    return doc


def _lines(doc: dict[str, Any]) -> list[str]:
    a = doc["a"]
    lines = [f"{doc['source']}: {a['fights']} fights, ruleset {doc['ruleset']}, master seed {doc['master_seed']}"]
    lines += _run_lines(a, doc["options"])
    if "b" in doc:
        lines.append("")
        lines += _run_lines(doc["b"], doc["compare"])
        lines.append("")
        lines.append("differences (B - A, 95% interval):")
        for row in doc["differences"]:
            mark = "significant" if row["significant"] else "not significant"
            lines.append(f"  {row['what']:<32} {row['a']:>9.3f} -> {row['b']:>9.3f}  {row['difference']:+.3f} "
                         f"[{row['low']:+.3f}, {row['high']:+.3f}]  {mark}")
    return lines


def _run_lines(run: dict[str, Any], options: str | None) -> list[str]:
    lines = [f"under {options or 'the file options'}:", "  win rate (95% Wilson interval):"]
    for side, row in run["wins"].items():
        lines.append(f"    {side:<20} {row['rate']:.3f} [{row['low']:.3f}, {row['high']:.3f}]  ({row['wins']} wins)")
    r = run["rounds"]
    lines.append(f"  fight length: {r['mean']:.2f} rounds (+/- {r['half_width']:.2f}), from {r['min']} to {r['max']}")
    for title, key in (("damage dealt per fight", "damage_dealt"), ("damage taken per fight", "damage_taken"),
                       ("effects per fight", "effects")):
        if run[key]:
            lines.append(f"  {title} (+/- its 95% interval): "
                         + ", ".join(f"{k} {v['mean']:.2f} (+/- {v['half_width']:.2f})" for k, v in run[key].items()))
    audit = run["audit"]
    if not audit["findings"]:
        lines.append(f"  audit: {plural(audit['audited'], 'fight')} audited, no findings")
    else:
        lines.append(f"  audit: {plural(audit['audited'], 'fight')} audited: FINDINGS (a bug in the ruleset):")
        lines += [f"    fight {f['fight']} seq {f['seq']} {f['code']}: {f['message']} (--replay {f['fight']})"
                  for f in audit["findings"]]
    return lines
