"""`python -m msze COMMAND ...`: the same as the `msze` console script (msze/cli)."""

import sys

from msze.cli import main

if __name__ == "__main__":
    sys.exit(main())
