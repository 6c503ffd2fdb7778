"""The engines: one plain battle in, one ``BattleResult`` out.

``exact/`` (a DP over casualty states) and ``montecarlo/`` (a Numba kernel rolling dice) share no
transition code; that independence is what the cross-check between them tests. What they do share
lives beside them here, so the folder shows what the cross-check cannot see: ``lowering`` (the
arrays both read), ``dice`` (hit distributions), ``aa_casualties`` (the battle split by the AA
outcome when AA picks its casualties), ``crash`` (crashed fighters) and ``holding_units`` (units that
hold a territory without fighting). The last three are applied around each engine's battle today;
they belong with ``oddsim.stages`` once one pipeline runs them for both engines.
"""
