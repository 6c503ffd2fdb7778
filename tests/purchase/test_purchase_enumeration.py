"""Purchase enumeration: the documented order, caps, the quick count and the unit bound."""

import itertools

from oddsim.purchase.enumeration import count_purchases, iter_purchases, most_units


def brute_force(costs, caps, budget):
    """Every count vector within budget and caps, by trying all of them."""
    ranges = [range((budget // c if cap is None else min(cap, budget // c)) + 1)
              for c, cap in zip(costs, caps, strict=True)]
    return [p for p in itertools.product(*ranges)
            if sum(n * c for n, c in zip(p, costs, strict=True)) <= budget]


def test_order_is_nested_loops_first_unit_outermost():
    # the example in the module docstring: inf (3), arm (6), budget 6
    assert list(iter_purchases([3, 6], [None, None], 6)) == [(0, 0), (0, 1), (1, 0), (2, 0)]


def test_every_purchase_once_in_lexicographic_order():
    costs, caps = [3, 4, 6, 10], [None, 2, None, 1]
    purchases = list(iter_purchases(costs, caps, 25))
    assert purchases == brute_force(costs, caps, 25)  # product() is lexicographic too
    assert count_purchases(costs, caps, 25) == len(purchases)


def test_zero_budget_buys_nothing():
    assert list(iter_purchases([3, 4], [None, None], 0)) == [(0, 0)]


def test_count_stops_early_on_absurd_budgets():
    # 10,000 IPCs over five units is ~10^15 purchases; the count must give up quickly
    count = count_purchases([3, 4, 6, 10, 12], [None] * 5, 10_000, stop_after=1000)
    assert 1000 < count < 1000 + 10_000


def test_most_units_buys_cheapest_first_within_caps():
    assert most_units([3, 6], [None, None], 20) == 6  # 6 infantry
    assert most_units([3, 6], [2, None], 20) == 4  # 2 infantry (6), then 2 armor (12)
