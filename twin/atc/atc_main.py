"""Entry point of the `atc` py_binary (the installed tree runs `python3 -m ascend_atc`)."""

from ascend_atc.main import entry

if __name__ == "__main__":
    entry()
