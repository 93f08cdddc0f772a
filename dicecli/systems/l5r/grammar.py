"""The grammar of an ``l5r`` line (pyparsing), building :mod:`dicecli.systems.l5r.checks`.

::

    line = keyword XkY [ "unskilled" ] [ "vs" TN [ "raises" N | N "raises" ] ]

Rule numbers (L1, L2 ...) cite ``docs/rules.md``.
"""

from __future__ import annotations

from functools import cache

import pyparsing as pp

from dicecli.game import integer, keyword, parse_failure, whole_line
from dicecli.systems.l5r.checks import RollAndKeep
from dicecli.systems.l5r.rules import MOST_TYPED
from dicecli.systems.l5r.settings import KEYWORDS


def _pool(text: str, loc: int, tokens: pp.ParseResults) -> tuple[int, int]:
    rolled, kept = int(tokens["rolled"]), int(tokens["kept"])
    where = len(text) - len(text[loc:].lstrip())
    if not 1 <= rolled <= MOST_TYPED or not 1 <= kept <= MOST_TYPED:
        raise parse_failure(text, where, f"roll and keep 1 to {MOST_TYPED} dice")
    if kept > rolled and rolled < 10:
        raise parse_failure(text, where, "keep no more dice than are rolled (rule L2)")
    return rolled, kept


@cache
def line_grammar() -> pp.ParserElement:
    """A whole ``l5r`` line."""
    pool = pp.Regex(r"(?i)(?P<rolled>\d+)k(?P<kept>\d+)(?!\w)").set_name("a roll such as 6k3")
    pool.set_parse_action(lambda s, loc, t: [_pool(s, loc, t)])
    unskilled = pp.Opt(keyword("unskilled")).set_parse_action(lambda t: [bool(t)])
    raises = (pp.Suppress(keyword("raises", "raise")) - integer) | (
        integer + pp.Suppress(keyword("raises", "raise"))
    )
    target = (
        pp.Suppress(keyword("vs", "tn")) - integer.copy().set_name("a TN (20)") + pp.Opt(raises)
    )
    form = pp.Suppress(keyword(*KEYWORDS)) - pool + unskilled + pp.Opt(target)

    def action(text: str, loc: int, tokens: pp.ParseResults) -> RollAndKeep:
        (rolled, kept), unskilled_roll, *rest = list(tokens)
        tn = rest[0] if rest else None
        raised = rest[1] if len(rest) > 1 else 0
        if unskilled_roll and raised:  # rule L4: an unskilled roll calls none
            where = text.casefold().rfind("raise")
            raise parse_failure(text, max(where, loc), "an unskilled roll calls no raises")
        return RollAndKeep(rolled, kept, tn, raised, unskilled_roll)

    form.set_parse_action(action)
    return whole_line(form)
