"""What a battle's answer is: ``BattleResult`` (``battle_result``), the text the command line prints
(``text``) and Monte Carlo estimates as players read them (``estimates``). Plots, the command line
and the web server only read these."""
