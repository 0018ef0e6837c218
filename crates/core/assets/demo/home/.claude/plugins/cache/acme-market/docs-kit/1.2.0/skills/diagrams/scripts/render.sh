#!/bin/sh
# Check that a Mermaid file parses (demo: prints what it would render).
echo "rendering $1"
