"""The report's data as one self-contained HTML page, through Jinja2 templates with
autoescaping (``templates/``, shipped as package data): the style, the script and the
charts inline, nothing fetched when the page is viewed (its Content-Security-Policy allows
no network at all, and only the page's own script, by its hash).

Every text of the page is escaped by the templates; bidirectional control characters (an
RTL override in a name) are shown as visible marks (``⟦U+202E⟧``), so that nobody's text
can turn the page's text around.
"""

from __future__ import annotations

import base64
import hashlib
import os
from functools import lru_cache
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fightlog import __version__
from fightlog.errors import MissingExtra
from fightlog.report.page.chart import colour, svg
from fightlog.report.page.model import ChartView, Page
from fightlog.report.visible import reveal

if TYPE_CHECKING:
    import jinja2

    from fightlog.report.page.dispute_page import DisputePage

TEMPLATES = Path(__file__).resolve().parent / "templates"

def require_jinja() -> None:
    """Raise ``MissingExtra`` (one line naming the extra) when Jinja2 is not installed."""
    try:
        import jinja2  # noqa: F401
    except ImportError:
        raise MissingExtra(
            "the HTML report needs Jinja2, which is not installed: install fightlog's report extra "
            "(python -m pip install '.[report]' in its checkout)"
        ) from None


def render_page(page: Page) -> str:
    """The report of one fight."""
    return _render("report.html.j2", page=page)


def render_dispute(page: DisputePage) -> str:
    """A dispute: the original and the fork side by side."""
    return _render("dispute.html.j2", page=page)


def render_sim(title: str, lines: Sequence[str], chart: str) -> str:
    """``fightlog sim``'s run as a page: its SVG chart (``fightlog.scale.chart``, every text
    in it escaped there) and its summary lines."""
    from markupsafe import Markup

    require_jinja()
    return _render("sim.html.j2", title=title, lines=list(lines), chart=Markup(chart))


def _render(name: str, **context: Any) -> str:
    env = _environment()
    from markupsafe import Markup

    script = (TEMPLATES / "page.js").read_text(encoding="utf-8")
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    html = env.get_template(name).render(
        **context,
        css=Markup((TEMPLATES / "page.css").read_text(encoding="utf-8")),
        script=Markup(script),
        script_hash=f"sha256-{digest}",
        version=__version__,
    )
    return reveal(html)  # the templates hold no bidirectional control: each one is a player's


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    require_jinja()
    import jinja2
    from markupsafe import Markup

    def chart_svg(chart: ChartView) -> Markup:
        return Markup(svg(chart))  # every text in it escaped by ``svg``

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        bytecode_cache=_bytecode_cache(),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,
    )
    env.globals.update(svg=chart_svg, colour=colour)
    return env


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """The templates compiled once and kept in the user's cache folder (beside the
    checkpoint key: ``$XDG_CACHE_HOME/fightlog/templates``), which saves a page about a
    tenth of its time; checked against each template's source. None when the folder cannot
    be made; a cache that cannot be written is skipped."""
    import jinja2

    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(root, "fightlog", "templates")
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
    except OSError:
        return None

    class Kept(jinja2.FileSystemBytecodeCache):
        def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass  # a read-only cache: the page is made all the same

    return Kept(folder)
