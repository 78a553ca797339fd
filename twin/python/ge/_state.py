"""Process-wide GE state: initialized or not, and the options given to ge_initialize."""

import threading
from typing import Dict

lock = threading.RLock()
initialized = False
global_options: Dict[str, str] = {}
