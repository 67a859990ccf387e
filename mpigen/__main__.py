import sys

from .fastcli import main

sys.exit(main())
