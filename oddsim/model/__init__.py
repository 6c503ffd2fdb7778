"""The battle as players write it, checked once: rulesets as data (``rules``), armies (``forces``),
unit names (``names``), the order of loss (``order_of_loss``) and the ``Battle`` value (``battle``).
No NumPy here: everything above reads this layer, and it reads nothing above it."""
