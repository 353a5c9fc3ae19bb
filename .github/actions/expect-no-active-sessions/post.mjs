// Post step: asks the simulator (GET /_sim/state) whether every device session the job created is stopped.
const url = process.env['INPUT_SIMULATOR-URL'];
const expected = Number(process.env['INPUT_EXPECTED-SESSIONS']);

const response = await globalThis.fetch(`${url}/_sim/state`);
const { data } = await response.json();
const problems = [];
for (const session of data.sessions)
  console.log(`session ${session.id} (${session.type} on ${session.platform}): ${session.status}`);
if (data.sessions.length !== expected)
  problems.push(`expected ${expected} device sessions, the simulator has ${data.sessions.length}`);
if (data.activeSessions.length > 0)
  problems.push(
    `sessions still active after the post steps: ${data.activeSessions.map((s) => s.id ?? s).join(', ')}`,
  );
const notStopped = data.sessions.filter((session) => session.status !== 'stopped');
if (notStopped.length > 0)
  problems.push(`sessions not stopped: ${notStopped.map((s) => `${s.id} (${s.status})`).join(', ')}`);
if (problems.length > 0) {
  for (const problem of problems) console.log(`::error::${problem}`);
  process.exitCode = 1;
} else {
  console.log(`All ${expected} device sessions were stopped.`);
}
