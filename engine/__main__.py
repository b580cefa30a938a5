"""``python -m engine COMMAND``: the engine's command line, with no Django.

Commands: ``replay FILE`` (:mod:`engine.replay`, the spec's hand scenarios) and
``verify FILE`` (:mod:`engine.verify`, re-derive and check an exported game's deals).
Each command's module is imported only when it is asked for.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: python -m engine COMMAND ...

commands:
  replay FILE   play a hand scenario back (FILE may be - for standard input)
  verify FILE   check an exported game's deals and results"""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if not arguments or arguments[0] in ("-h", "--help", "help"):
        print(USAGE, file=sys.stdout if arguments else sys.stderr)
        return 0 if arguments else 2
    command, rest = arguments[0], arguments[1:]
    if command == "replay":
        from engine.replay import main as replay_main

        return replay_main(rest)
    if command == "verify":
        from engine.verify import main as verify_main

        return verify_main(rest)
    print(f"unknown command {command!r}\n{USAGE}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
