"""DiscordChatExporter JSON exports, streamed: the ``messages`` array is split element by
element (``jsonsplit``) and each element decoded with one prebuilt msgspec decoder into the
exporter's message (``discord_model``). A message's ``ref`` is its id; ``raw`` is its
``content`` (the element's full JSON would triple the log for nothing the audit reads)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import BinaryIO, Final

import msgspec

from fightlog.errors import InputError
from fightlog.events.utf8 import not_utf8
from fightlog.importing.discord_model import DiscordMessage, neutral
from fightlog.importing.jsonsplit import Splitter
from fightlog.importing.message import Message
from fightlog.importing.source import Warn

DECODER: Final = msgspec.json.Decoder(DiscordMessage)


def read(handle: BinaryIO, name: str, warn: Warn) -> Iterator[Message]:
    """The messages of the export ``handle`` (shown as ``name``), in file order."""
    splitter = Splitter(handle, name)
    splitter.header()
    decode = DECODER.decode
    count = 0
    last = -1  # the previous message's id: Discord's ids grow with time, and the exporter writes them in order
    backwards = odd_id = False
    for index, offset, data in splitter:
        try:
            message = decode(data)
        except msgspec.ValidationError as exc:
            raise InputError(f"messages[{index}] (byte {offset}): {exc}", path=name,
                             line=splitter.line_at(offset)) from None
        except RecursionError:
            raise InputError(f"messages[{index}] (byte {offset}): nested too deeply (a message of "
                             "DiscordChatExporter's nests a few levels): the export is damaged", path=name,
                             line=splitter.line_at(offset)) from None
        except (msgspec.DecodeError, UnicodeDecodeError) as exc:
            bad = not_utf8(data)  # msgspec says "Invalid UTF-8 encoded string" of a string: which byte
            if bad is None:
                raise InputError(f"messages[{index}] (byte {offset}): not JSON ({exc})", path=name,
                                 line=splitter.line_at(offset)) from None
            # the exporter writes UTF-8: a file saved again in another encoding
            raise InputError(f"messages[{index}] (byte {offset}): not UTF-8 (byte 0x{data[bad.start]:02x}); "
                             "DiscordChatExporter writes UTF-8: export the channel again", path=name,
                             line=splitter.line_at(offset + bad.start)) from None
        snowflake = int(message.id) if message.id.isascii() and message.id.isdigit() else None
        if snowflake is None and not odd_id:  # said once, as below
            odd_id = True
            warn(f"{name}:{splitter.line_at(offset)}: messages[{index}]: its id {message.id!r} is not a Discord id "
                 "(digits): the export was edited by hand")
        if snowflake is not None and snowflake <= last and not backwards:  # said once: a file joined says it often
            backwards = True
            again = "repeats the id" if snowflake == last else "is lower than the id (ids grow with time)"
            warn(f"{name}:{splitter.line_at(offset)}: messages[{index}]: its id {message.id} {again} of the message "
                 "before it: a message repeated, or exports joined or edited by hand")
        last = snowflake if snowflake is not None else last
        yield neutral(message, message.id, 0, message.content)
        count = index + 1
    said = splitter.document.get("messageCount")
    if said is not None and (not isinstance(said, int) or isinstance(said, bool) or said < 0):
        warn(f"{name}:{splitter.count_line}: messageCount {msgspec.json.encode(said).decode()[:40]} is not a count "
             "of messages: the export was edited by hand")
    elif isinstance(said, int) and not isinstance(said, bool) and said != count:
        warn(f"{name}:{splitter.count_line}: messageCount says {said} message(s) were exported, the messages array "
             f"holds {count}: messages were removed or added by hand")

