"""The CPU twin's ATC (offline model compiler) as a Python package; ``bin/atc`` runs ``main``."""
