#!/usr/bin/env bash
# Runs the action's TypeScript sources with @github/local-action, as the README tells users to, against
# a fresh simulator, and checks what local-action reports: the outputs in its "Action Outputs" table
# (not only its exit code), the job summary, the post step, and the simulator's own record (the run
# succeeded, the session was stopped). Then a failing step: exit 1, the ::error:: line, no outputs.
# Stops the simulator it started, whatever happens.
set -uo pipefail
cd "$(dirname "$0")/../.."

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

# The simulator's TypeScript source through tsx's loader, in one process that `kill $sim_pid` reaches.
node --import tsx simulator/cli.ts --port 0 --readiness-delay-ms 300 --job-duration-ms 200 >"$work/simulator.log" 2>&1 &
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

# The id pattern of the contract (src/service/contract.ts), not a copy of it.
uuid=$(npx --no-install tsx -e "import { UUID } from './src/service/contract.ts'; console.log(UUID.source)")
failed=0
problems=()

# output NAME: the value of output NAME in the "Action Outputs" table local-action printed to $out
# (console.table rows: │ index │ 'name' │ 'value' │); empty when the table does not list it.
output() {
  sed -n '/Action Outputs/,$p' "$out" | awk -F'│' -v name="'$1'" '
    { gsub(/^ +| +$/, "", $3); gsub(/^ +| +$/, "", $4) }
    $3 == name { sub(/^'\''/, "", $4); sub(/'\''$/, "", $4); print $4; exit }'
}
# expect_output NAME REGEX: the output is listed and matches.
expect_output() {
  local value
  value=$(output "$1")
  [[ "$value" =~ $2 ]] || problems+=("output $1 is '${value}', expected /$2/")
}
expect_text() { grep -qF -- "$1" "$out" || problems+=("no '$1' in the output"); }

# run_local NAME EXPECTED-EXIT-CODE: runs local-action with $work/NAME.env; leaves its output in $out.
run_local() {
  local name=$1 expected_status=$2
  echo "GITHUB_STEP_SUMMARY=$work/$name.summary.md" >>"$work/$name.env"
  : >"$work/$name.summary.md"
  out="$work/$name.out"
  problems=()
  npx --no-install local-action run . src/main.ts "$work/$name.env" --post src/post.ts >"$out" 2>&1
  local status=$?
  [ "$status" -eq "$expected_status" ] || problems+=("local-action exited with $status, expected $expected_status")
  grep -v '^::add-mask::' "$out" | grep -qF -- "$token" && problems+=("the access token appears in the output")
}
report() {
  if [ ${#problems[@]} -gt 0 ]; then
    printf 'local-action %s: FAILED\n' "$1"
    printf '  - %s\n' "${problems[@]}"
    sed -n '/Running Action/,$p' "$out"
    failed=1
  else
    echo "local-action $1: ok"
  fi
}

# A minimal environment: local-action fills github-token with its unevaluated `${{ github.token }}`
# default, which an unused input never fails on.
common="INPUT_TOKEN=$token
INPUT_BASE-URL=$url
INPUT_APP-ID=$app_id
INPUT_POLL-INTERVAL-SECONDS=0.2"

# A device session: ready in the main step, stopped by the post step.
printf '%s\n' "$common" "INPUT_COMMAND=start-device-session" "INPUT_PLATFORM=ios" "INPUT_TYPE=agent-device" \
  >"$work/session.env"
run_local session 0
grep -q '^::error::' "$out" && problems+=("the step reported an error")
session_id=$(output session-id)
expect_output session-id "$uuid"
expect_output status '^in-progress$'
expect_output session-url "^$url/"
expect_output agent-device-remote-session-url "^$url/"
expect_output web-preview-url '^http'
# Masked outputs are left out of the table (with a warning), as the runner drops them across jobs.
[ -z "$(output agent-device-remote-session-token)" ] || problems+=("the daemon token is listed as an output")
expect_text 'Running Post Step'
expect_text "Device session $session_id is stopped at "
grep -q 'ready' "$work/session.summary.md" || problems+=("no job summary of the ready session")
report start-device-session

# A workflow run of the simulator's sample workflow.
printf '%s\n' "$common" "INPUT_COMMAND=run-workflow" "INPUT_WORKFLOW=e2e.yml" "INPUT_GIT-REF=main" \
  "INPUT_INPUTS=profile: production" >"$work/run.env"
run_local run 0
grep -q '^::error::' "$out" && problems+=("the step reported an error")
run_id=$(output run-id)
expect_output run-id "$uuid"
expect_output run-url "^$url/"
expect_output status '^success$'
expect_output git-commit-hash '^[0-9a-f]{40}$'
expect_output build-ids '^\["[0-9a-f-]{36}"\]$'
expect_output job-outputs '"profile":"production"'
grep -q 'succeeded' "$work/run.summary.md" || problems+=("no job summary of the run")
report run-workflow

# A step that fails: local-action 7.0.1 exits 1 (with a stack of its own), the ::error:: line says why,
# and the table lists only what was set before the failure (wait-for-run sets run-id first).
printf '%s\n' "$common" "INPUT_COMMAND=wait-for-run" "INPUT_RUN-ID=$run_id" >"$work/failing.env"
sed -i -e 's/^INPUT_TOKEN=.*/INPUT_TOKEN=svc_not_a_valid_token/' -e '/^INPUT_APP-ID=/d' "$work/failing.env"
run_local failing 1
grep -q '^::error::.*401 Unauthorized' "$out" || problems+=("no ::error:: line naming the 401")
expect_output run-id "^$run_id\$"
[ -z "$(output status)" ] || problems+=("a status output was set by the failing step")
report 'failing step'

# The simulator's record: the run succeeded and the one session was stopped.
state=$(curl --silent --show-error "$url/_sim/state" 2>&1 || true)
if ! node -e '
  const s = JSON.parse(process.argv[1]).data;
  const run = s.runs.find((r) => r.id === process.argv[2]);
  const ok = run?.status === "success" && s.sessions.length === 1 && s.sessions[0].id === process.argv[3] &&
    s.sessions[0].status === "stopped" && s.activeSessions.length === 0;
  process.exit(ok ? 0 : 1);' "$state" "$run_id" "$session_id" 2>/dev/null; then
  echo "local-action: the simulator does not have the run succeeded and the one session stopped: $state"
  failed=1
fi
exit "$failed"
