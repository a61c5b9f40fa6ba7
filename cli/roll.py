"""``fightlog roll``: roll a dice expression once, to try the notation or make a quick roll."""

from __future__ import annotations

import click

from fightlog.cli.errors import reports_errors
from fightlog.cli.options import BoundedInt, format_option, seed_option
from fightlog.cli.output import echo_json
from fightlog.errors import DiceLimitError, DiceSeedError, DiceValueError
from fightlog.dice import FairGenerator, as_data, breakdown, new_seed, seed_bytes
from fightlog.dice.dialects import DEFAULT, DIALECTS, roll_all
from fightlog.dice.limits import MAX_MODIFIER, MAX_NUMBER_DIGITS, check_modifier


def _salt(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """``--salt``: hex, as ``play join --salt`` takes it (and as the log records it)."""
    try:
        return tuple(seed_bytes(text, what="a salt").hex() for text in value)
    except DiceSeedError as exc:
        raise click.BadParameter(exc.message, ctx, param) from None


def _modifier(text: str) -> tuple[int, str]:
    """``SOURCE=VALUE`` (``scope=+10``, ``cover=-5``) -> ``(value, source)``."""
    source, sep, value = text.rpartition("=")
    digits = value[1:] if value[:1] in "+-" else value
    if not sep or not source.strip() or not digits or not all(c in "0123456789" for c in digits):
        raise DiceValueError(f"--mod {text!r}: expected SOURCE=VALUE, e.g. scope=+10")
    if len(digits) > MAX_NUMBER_DIGITS:  # past any limit: not read as a number at all
        raise DiceLimitError(f"--mod {text!r}: modifiers are limited to +/-{MAX_MODIFIER}", limit="modifier",
                             value=MAX_MODIFIER + 1, maximum=MAX_MODIFIER)
    check_modifier(int(value), f"--mod {source.strip()}")
    return int(value), source.strip()


def _dialect_examples() -> str:
    width = max(len(d.example) for d in DIALECTS.values()) + 2
    return "\n".join(
        f"  fightlog roll --dialect {d.name} {repr(d.example):<{width}} # {d.description}"
        for d in DIALECTS.values()
        if d.name != DEFAULT
    )


@click.command(
    epilog=f"""\b
Examples:
  fightlog roll 1d100 --mod scope=+10 --mod racial=+5
  fightlog roll '3d20kh1+5 # attack'          # dropped dice in brackets: 3d20kh1 (17, [4], [9]) ...
  fightlog roll '3d20kh1+5' --markdown        # struck through (~~4~~), for pasting to Discord
  fightlog roll 4d6dl1
  fightlog roll '5d6>=5'
  fightlog roll 2D+1
  fightlog roll 4d6ro1
  fightlog roll '3d6!'
  fightlog roll BW
  fightlog roll --seed 01 -- -1d4+2           # an expression starting with "-" needs "--"
  fightlog roll 1d20 --seed 255 --scene duel-1 --index 3   # same seed, same faces

\b
Dialects (--dialect, one example each; docs/dice.md, "Dialects"):
{_dialect_examples()}

\b
Notation: NdM, kh/kl/dh/dl[N], ro[<=|>=|=]N, rr[<|<=|>|>=|=]N, ![<=|>=|=]N, miN, maN,
>=N, <=N or =N right after the dice (count successes), + - * // ( ), a trailing "# label";
forms other bots read differently are refused with both readings; see docs/dice.md.
An expression that asks for repeats (6#3d6 in rpg-sage) prints one line per roll, with
indexes --index, --index+1, ... (JSON: a list).

Exit codes: 0 rolled; 2 bad expression or option.
3 internal error (a bug: the error line names a crash report for the bug report).""",
)
@click.argument("expression", nargs=-1, required=True)
@seed_option("The seed to draw from (default: a fresh random one).")
@click.option("--scene", default="cli", show_default=True, help="Scene id mixed into the dice.")
@click.option(
    "--salt", "salts", multiple=True, metavar="HEX", callback=_salt,
    help="A participant salt (repeatable, in log order).",
)
@click.option(
    "--index", default=0, show_default=True, type=BoundedInt(0, 64),  # the generator packs it in 8 bytes
    help="Roll index in the scene.",
)
@click.option(
    "--mod", "mods", multiple=True, metavar="SOURCE=VALUE",
    help="A modifier and where it comes from (repeatable).",
)
@click.option(
    "--dialect", type=click.Choice(list(DIALECTS)), default=DEFAULT, show_default=True,
    help="Read EXPRESSION as this dice bot does.",
)
@click.option("--markdown", is_flag=True, help="The breakdown in Markdown, for pasting to Discord: dropped "
              "dice struck through (~~4~~) instead of bracketed ([4]).")
@format_option
@reports_errors
def roll(
    expression: tuple[str, ...],
    seed: str | None,
    scene: str,
    salts: tuple[str, ...],
    index: int,
    mods: tuple[str, ...],
    dialect: str,
    markdown: bool,
    fmt: str,
) -> None:
    """Roll EXPRESSION once and print its breakdown.

    Faces come from the provably fair generator: the same --seed, --scene, --salt and --index
    always give the same faces (as the scene's engine roll of that index would).
    """
    text = " ".join(expression)
    modifiers = [_modifier(m) for m in mods]
    raw = seed_bytes(seed, what="--seed") if seed is not None else new_seed()
    gen = FairGenerator(raw, scene, salts)
    results = roll_all(text, gen, index, modifiers, dialect=dialect)
    if fmt == "json":
        rolls: list[dict[str, object]] = []
        for result in results:
            data = as_data(result, markdown=markdown)
            data["scene"] = scene
            data["seed"] = gen.seed_hex
            data["commitment"] = gen.commitment
            rolls.append(data)
        echo_json(rolls[0] if len(rolls) == 1 else rolls)
    else:
        for result in results:
            line = breakdown(result, markdown=markdown)
            if result.passed is not None:
                line += f" ({'pass' if result.passed else 'fail'}: {result.expression.test})"
            click.echo(line)
