from ascend_atc.main import entry

entry()
