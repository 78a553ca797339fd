"""What the ACL runtime (libascendcl) calls when it loads an OM that runs through Python; see
python_model.py. Not a public API."""
