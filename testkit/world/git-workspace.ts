/**
 * A job's workspace as actions/checkout leaves it: a real git repository with the project's
 * `.eas/workflows/` files, for the tests of run-workflow's check before the dispatch (which reads
 * the workspace). The simulator's worlds need no git; only these tests make one, and remove it.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitWorkspace {
  path: string;
  /** The commit `main` points to (checked out). */
  headSha: string;
  /** Commits `files` (names under `.eas/workflows/`) on a new branch, returns to main; the new commit's SHA. */
  commitOnBranch(branch: string, files: Record<string, string>, message: string): string;
  remove(): void;
}

export function createGitWorkspace(files: Record<string, string>): GitWorkspace {
  const path = mkdtempSync(join(tmpdir(), 'svc-e2e-workspace-'));
  const git = (...args: string[]): string =>
    execFileSync('git', ['-C', path, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_TERMINAL_PROMPT: '0',
        GIT_AUTHOR_NAME: 'test',
        GIT_AUTHOR_EMAIL: 'test@example.com',
        GIT_COMMITTER_NAME: 'test',
        GIT_COMMITTER_EMAIL: 'test@example.com',
      },
    }).trim();
  const write = (entries: Record<string, string>): void => {
    for (const [name, text] of Object.entries(entries)) {
      const file = join(path, '.eas', 'workflows', name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, text);
    }
    git('add', '-A');
  };
  git('init', '-q', '-b', 'main');
  write(files);
  git('commit', '-q', '-m', 'Add workflows');
  return {
    path,
    headSha: git('rev-parse', 'HEAD'),
    commitOnBranch(branch, changed, message) {
      git('checkout', '-q', '-b', branch);
      write(changed);
      git('commit', '-q', '-m', message);
      const sha = git('rev-parse', 'HEAD');
      git('checkout', '-q', 'main');
      return sha;
    },
    remove: () => rmSync(path, { recursive: true, force: true }),
  };
}
