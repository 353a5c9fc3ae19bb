#!/usr/bin/env bash
# Runs the action's TypeScript sources with @github/local-action, as the README tells users to, against
# a fresh simulator: a device session (main, then the post step that stops it) and a workflow run.
# local-action exits 0 even when the step failed, so its output is checked, and the simulator is asked
# whether the session really was stopped. Stops the simulator it started, whatever happens.
set -uo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
sim_pid=''
cleanup() {
  if [ -n "$sim_pid" ]; then
    kill "$sim_pid" 2>/dev/null
    wait "$sim_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT

npm run -s build:tools || exit 1
node build/simulator/cli.js --port 0 --readiness-delay-ms 300 --job-duration-ms 200 >"$work/simulator.log" 2>&1 &
sim_pid=$!
for _ in $(seq 1 100); do
  grep -q 'project id:' "$work/simulator.log" && break
  sleep 0.1
done
url=$(sed -n 's/^Simulator listening on //p' "$work/simulator.log")
token=$(sed -n 's/^ *token ([a-z]*): *//p' "$work/simulator.log")
app_id=$(sed -n 's/^ *project id: *//p' "$work/simulator.log")
if [ -z "$url" ] || [ -z "$token" ] || [ -z "$app_id" ]; then
  echo "The simulator did not start:"
  cat "$work/simulator.log"
  exit 1
fi

failed=0
# run_local NAME EXPECTED-TEXT... : runs local-action with $work/NAME.env and checks its output.
# The runner's files are given as on a runner, so outputs and state go where a runner reads them.
run_local() {
  local name=$1
  shift
  for file in OUTPUT ENV STATE STEP_SUMMARY; do
    : >"$work/$name.runner-$file"
    echo "GITHUB_$file=$work/$name.runner-$file" >>"$work/$name.env"
  done
  local out="$work/$name.out"
  npx --no-install local-action run . src/main.ts "$work/$name.env" --post src/post.ts >"$out" 2>&1
  local status=$?
  local problems=()
  [ "$status" -eq 0 ] || problems+=("local-action exited with $status")
  grep -q '^::error::' "$out" && problems+=("the step reported an error")
  for expected in "$@"; do
    grep -qF -- "$expected" "$out" || problems+=("no '$expected' in the output")
  done
  grep -v '^::add-mask::' "$out" | grep -qF -- "$token" && problems+=("the access token appears in the output")
  grep -q '^session-id<<\|^run-id<<' "$work/$name.runner-OUTPUT" || problems+=("no output was written to GITHUB_OUTPUT")
  if [ ${#problems[@]} -gt 0 ]; then
    echo "local-action $name: FAILED (${problems[*]})"
    sed -n '/Running Action/,$p' "$out"
    failed=1
  else
    echo "local-action $name: ok"
  fi
}

common="INPUT_TOKEN=$token
INPUT_BASE-URL=$url
INPUT_APP-ID=$app_id
INPUT_POLL-INTERVAL-SECONDS=0.2"

printf '%s\n' "INPUT_COMMAND=start-device-session" "$common" "INPUT_PLATFORM=ios" "INPUT_TYPE=agent-device" \
  >"$work/start-device-session.env"
run_local start-device-session 'Running Post Step' 'Device session ready after' ' is stopped at '

printf '%s\n' "INPUT_COMMAND=run-workflow" "$common" "INPUT_WORKFLOW=e2e.yml" "INPUT_GIT-REF=main" \
  >"$work/run-workflow.env"
run_local run-workflow 'Workflow run succeeded'

state=$(curl --silent --show-error "$url/_sim/state" 2>&1 || true)
if ! node -e 'const s=JSON.parse(process.argv[1]).data; process.exit(s.sessions.length===1 && s.activeSessions.length===0 ? 0 : 1)' "$state" 2>/dev/null; then
  echo "local-action: the simulator does not have exactly one session, stopped: $state"
  failed=1
fi
exit "$failed"
