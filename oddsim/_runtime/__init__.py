"""oddsim's private plumbing: how kernels are compiled and cached, the first run's notice, frozen
dataclasses, names loaded on first use, random streams, reading users' files and JSON, Ctrl-C and
progress bars. Nothing here knows a battle; every layer above may use it."""
