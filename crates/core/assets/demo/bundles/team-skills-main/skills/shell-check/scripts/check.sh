#!/bin/sh
# Run ShellCheck on the files given (demo: prints what it would check).
for file in "$@"; do echo "checking $file"; done
