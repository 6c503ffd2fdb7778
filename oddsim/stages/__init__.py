"""Answers made of several battles: later waves (``waves``, ``wave_plan``), the counter-attack
(``counter``), the amphibious assault (``amphibious``), and ``runner``, the ``run(battle, share)``
protocol they all fight their battles through, so none of them knows which engine ran."""
