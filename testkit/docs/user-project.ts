/**
 * The user's project that the README recipes' `run:` steps start in (their `actions/checkout`): what
 * "your project, with agent-device in its devDependencies" stands for, so those steps run as written.
 *
 * - `npm ci` installs agent-device from the lock file, offline (`.npmrc`): the lock's entry is this
 *   repository's own (the same version and integrity), so npm takes it from the cache that this
 *   repository's `npm ci` filled, and no network is needed.
 * - Its scripts are the ones the recipes run: `test` (unit tests), `build:e2e`, `test:e2e:ios` and
 *   `test:e2e` (the agent-device CLI against the session's daemon: AGENT_DEVICE_DAEMON_BASE_URL and
 *   _AUTH_TOKEN, exported by the action), `test:e2e:argent` (argent's tool server: ARGENT_TOOLS_URL).
 * - `e2e/appium.mjs` is the Android recipe's file, copied from start-device-session/README.md as
 *   written. It imports webdriverio, which this repository has: the project lives under this
 *   repository's node_modules/.cache, so Node finds webdriverio in the repository's node_modules
 *   when it walks up, and the project's own lock stays one package long.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findScript } from './recipes.js';
import { ROOT } from '../runner/step.js';

/** What `npm run test:e2e:argent` does: list argent's tools and the device, take a screenshot, tap. */
const ARGENT_SCRIPT = `const base = process.env.ARGENT_TOOLS_URL;
const headers = { 'content-type': 'application/json' };
if (process.env.ARGENT_AUTH_TOKEN) headers.authorization = \`Bearer \${process.env.ARGENT_AUTH_TOKEN}\`;
const call = async (path, body) => {
  const reply = await fetch(\`\${base}\${path}\`, body ? { method: 'POST', headers, body: JSON.stringify(body) } : { headers });
  if (!reply.ok) throw new Error(\`\${path}: \${reply.status} \${await reply.text()}\`);
  return reply.json();
};
const { tools } = await call('/tools');
console.log(\`argent tools: \${tools.map((tool) => tool.name).join(', ')}\`);
const { data: devices } = await call('/tools/list-devices', {});
const udid = devices.devices[0].udid;
await call('/tools/screenshot', { udid });
await call('/tools/gesture-tap', { udid, x: 0.5, y: 0.5 });
console.log(\`argent e2e: screenshot of \${udid} taken, tapped\`);
`;

/** A new copy of the project; remove it with `rmSync(dir, { recursive: true })`. */
export function createUserProject(): string {
  const parent = join(ROOT, 'node_modules', '.cache', 'svc-recipe-projects');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'user-app-'));
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const agentDevice = lock.packages['node_modules/agent-device'];
  const pkg = {
    name: 'user-app',
    version: '1.0.0',
    private: true,
    scripts: {
      test: 'echo "unit tests: 3 passed"',
      'build:e2e': 'echo "e2e build: done"',
      'test:e2e:ios': 'agent-device devices && agent-device screenshot e2e-ios.png',
      'test:e2e': 'agent-device devices && echo "e2e passed on $DEVICE"',
      'test:e2e:argent': 'node e2e/argent.mjs',
    },
    devDependencies: { 'agent-device': agentDevice.version },
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  writeFileSync(
    join(dir, 'package-lock.json'),
    JSON.stringify(
      {
        name: pkg.name,
        version: pkg.version,
        lockfileVersion: 3,
        requires: true,
        packages: {
          '': { name: pkg.name, version: pkg.version, devDependencies: pkg.devDependencies },
          'node_modules/agent-device': agentDevice,
        },
      },
      null,
      2,
    ),
  );
  // Offline: what npm needs is in the cache; a step that would fetch anything else fails at once.
  writeFileSync(join(dir, '.npmrc'), 'offline=true\naudit=false\nfund=false\n');
  mkdirSync(join(dir, 'e2e'));
  writeFileSync(
    join(dir, 'e2e', 'appium.mjs'),
    findScript('start-device-session/README.md', "import { remote } from 'webdriverio';"),
  );
  writeFileSync(join(dir, 'e2e', 'argent.mjs'), ARGENT_SCRIPT);
  return dir;
}

export function removeUserProject(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
