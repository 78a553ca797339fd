"""What other tools may use of the driver (ascendc_jit's kernel cache and build): the depfile
parser and the cache rules, so that both read one depfile format, hash cache keys one way and
trust a cache directory by one rule. Nothing else in this package is an interface."""

from .cache_support import hash_fields, untrusted_reason
from .depfile import parse_deps

__all__ = ["hash_fields", "parse_deps", "untrusted_reason"]
