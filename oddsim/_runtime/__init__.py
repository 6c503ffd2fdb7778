"""oddsim's private plumbing: how kernels are compiled, cached, warmed and interpreted, the first
run's notice, names loaded on first use, random streams, whole numbers as users type them, reading
users' files and JSON, Ctrl-C and progress bars. Nothing here knows a battle; every layer above
may use it."""
