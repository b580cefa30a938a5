"""``python -m engine.verify FILE``: the same as ``python -m engine verify FILE``."""

import sys

from engine.verify import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
