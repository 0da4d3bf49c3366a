import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os  # noqa: E402

# Output for people is PIPE_WIDTH wide when piped, unless COLUMNS says otherwise: the tests compare text made at
# that width, so a COLUMNS from the shell that runs them must not change it.
os.environ.pop("COLUMNS", None)
