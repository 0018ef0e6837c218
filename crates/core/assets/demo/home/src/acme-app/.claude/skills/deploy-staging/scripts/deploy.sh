#!/bin/sh
set -eu
# Demo: a real script would build and push here.
echo "deploying $(git rev-parse --short HEAD 2>/dev/null || echo HEAD) to staging"
