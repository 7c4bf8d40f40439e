#!/bin/sh
# Records each deployment the session made.
echo "deployed" >> "${CLAUDE_PROJECT_DIR:-.}/.deployments.log"
