"""A plan's battles solved on a local Dask cluster give the same answer as in this process."""

import pytest

import oddsim.plan as plan
from oddsim.errors import OddsimError

pytest.importorskip("distributed")

PLAN = dict(rules="1942-2e", pool="3 inf, 1 arm, 1 ftr", targets=["A=2 inf", "B=1 inf, 1 art"],
            values=["A=3", "B=2"], reach=["ftr=A"])


@pytest.mark.slow
def test_two_workers_give_the_same_plan():
    here = plan.attack(**PLAN)
    there = plan.attack(**PLAN, workers=2)
    assert there.to_dict() == here.to_dict()


def test_workers_and_scheduler_together_are_refused():
    with pytest.raises(OddsimError, match="not both"):
        plan.attack(**PLAN, workers=2, scheduler="tcp://127.0.0.1:1")
