"""The engines: one plain battle in, one ``BattleResult`` out.

``exact/`` (a DP over casualty states) and ``montecarlo/`` (a Numba kernel rolling dice) share no
transition code; that independence is what the cross-check between them tests. What they do share
lives beside them here, so the folder shows what the cross-check cannot see: ``lowering`` (the
arrays both read, and the refusal of a battle that is not plain), ``dice`` (hit distributions)
and ``carriers`` (the crash-fighters rule on arrays of units, which the exact engine's best
retreat reads per state). Beyond them the engines share the order of loss (``oddsim.model``)
and, for the retreat rules that need exact odds, the exact engine's decisions. What a battle's
answer takes besides one plain battle (the AA-outcome split, crashed fighters, units that hold a
territory without fighting, the best retreat's objective) is ``oddsim.stages.pipeline``'s, the
same for both engines; no engine imports a stage.
"""
