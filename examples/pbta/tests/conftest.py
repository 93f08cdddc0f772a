"""The properties run without Hypothesis's deadline: what they check is the rules,
not speed, and on a busy machine (CI's, beside other jobs) one example can take longer
than the default 200 ms."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("pbta", deadline=None)
settings.load_profile("pbta")
