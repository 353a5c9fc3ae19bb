// Adds to package-lock.json the platform-specific optional packages that npm left out of it.
//
// Why: the registry reachable from this project's machines serves only the Linux builds of some
// native packages (for example @unrs/resolver-binding-darwin-arm64, used by Jest 30, answers 404).
// `npm install` then silently drops them from the lock file, and `npm ci` refuses that lock file
// ("Missing: ... from lock file"). Each missing package gets the os/cpu/libc that its name encodes,
// so `npm ci` sees it, finds it is for another platform, and skips it without fetching it.
// Run after `npm install` whenever dependencies change: node scripts/build/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'android',
  'openharmony',
  'sunos',
  'aix',
  'netbsd',
  'openbsd',
];
const CPU = ['arm64', 'x64', 'ia32', 'arm', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el', 'wasm32'];

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const added = [];
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ''}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.find((part) => OS.includes(part));
    const cpu = parts.find((part) => CPU.includes(part));
    if (!os && !cpu) throw new Error(`${name}: cannot tell its platform from its name; add it by hand`);
    const libc = parts.some((part) => part.startsWith('musl'))
      ? 'musl'
      : parts.some((part) => part.startsWith('gnu'))
        ? 'glibc'
        : undefined;
    packages[`node_modules/${name}`] = {
      version: String(version).replace(/^[\^~]/, ''),
      ...(os && { os: [os] }),
      ...(cpu && { cpu: [cpu] }),
      ...(libc && { libc: [libc] }),
      ...(entry.dev && { dev: true }),
      optional: true,
    };
    added.push(name);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(
  added.length ? `added ${added.length} platform packages: ${added.join(', ')}` : 'lock file complete',
);
