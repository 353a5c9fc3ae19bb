#!/usr/bin/env bash
# dist/ is what src/ builds to: builds, then fails naming every file of dist/ that the build changed
# or added. `git status` (not `git diff`) also reports new, untracked files such as a new chunk.
set -uo pipefail
cd "$(dirname "$0")/../.."
npm run -s build || exit 1
drift=$(git status --porcelain -- dist/)
if [ -n "$drift" ]; then
  echo "::error::dist/ is not what src/ builds to; run 'npm run build' and commit dist/."
  echo "$drift"
  git diff --stat -- dist/
  exit 1
fi
echo "dist/ is what src/ builds to."
