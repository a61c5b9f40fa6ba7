"""What an import shows a cast file got wrong, said as warnings once the transcript has been
read (``fightlog import``): an entry no message matched where that looks like a slip
(``unheard``), and a speaker two entries name under two of their names (``ambiguous``)."""

from __future__ import annotations

from fightlog.importing.cast import NEAR_SPEAKER, Cast
from fightlog.kit.spelling import closest


def unheard(cast: Cast) -> list[str]:
    """A warning for each entry none of whose speakers any message matched, where that
    looks like a slip (a cast may name someone a fight does not hear): a speaker close to
    one the cast does not name (``kaito.ronnin``), or a pattern with ``[`` (a set of
    characters in a pattern: ``[RoE] HUD*`` matches no ``[RoE] HUD v4``)."""
    said = []
    for where, line, speakers in cast.entries:
        if not cast.heard.isdisjoint(speakers):
            continue
        near = next(filter(None, (closest(s, cast.strangers, NEAR_SPEAKER) for s in speakers)), None)
        if near is not None:
            hint = f": did you mean {near!r} (who speaks, and whom the cast does not name)?"
        elif any("[" in s for s in speakers):
            hint = " (in a pattern, [...] is one character of a set: write [[] for a [)"
        else:
            continue
        at = f"{cast.path}:{line}" if line is not None else f"{cast.path}"
        said.append(f"{at}: {where}: no message is by {' or '.join(map(repr, speakers))}{hint}")
    return said

def ambiguous(cast: Cast) -> list[str]:
    """A warning for each entry naming a speaker whose messages went to another entry that
    names them too, under another of their names (a user's id in one, their nickname in
    another): matched by id or user name before the name shown, silently."""
    said = []
    order = {speaker: n for n, speaker in enumerate(cast.labels)}  # the cast's own order
    for (taken, losing), (speaker, found) in cast.clashes.items():
        keys = sorted(found, key=order.__getitem__)
        line = cast.labels[keys[0]][1]
        at = f"{cast.path}:{line}" if line is not None else f"{cast.path}"
        said.append(f"{at}: {losing}: {' and '.join(map(repr, keys))} {'is' if len(keys) == 1 else 'are'} also "
                    f"{speaker}, whom {taken} names too: their messages go to {taken}, none to {losing}")
    return said
