"""TripleA game files (a map's game XML, or a game in progress exported as XML) read as
oddsim rulesets and boards."""
