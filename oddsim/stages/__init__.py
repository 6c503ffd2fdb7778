"""Answers made of several battles, or of more than one plain battle: ``pipeline`` (one battle's
answer for either engine: ``oddsim.solve``, ``oddsim.simulate``) with its stages ``aa_split``
(the battle split by the AA outcome), ``crash`` (crashed fighters) and ``holding_units`` (units
that hold a territory without fighting); later waves (``waves``, ``wave_plan``), the
counter-attack (``counter``), the amphibious assault (``amphibious``), and ``runner``, the
``run(battle, share)`` protocol they all fight their battles through, so none of them knows
which engine ran; ``request``, which decides what a battle request means (one battle, later
waves, a counter-attack, an assault) for the CLI, the web server and ``oddsim.api``."""
