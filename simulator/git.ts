/**
 * A project linked to a real git repository (`--repo PATH`, `addProject({ repoPath })`): refs, commit
 * messages and workflow files read with `git` through execFile (no shell), on every dispatch.
 */
import { execFile } from 'node:child_process';
import type { WorkflowSource } from './workflow-source.js';

interface GitResult {
  code: number;
  stdout: string;
}

/** Runs git in `repo`; a non-zero exit is a result, a spawn failure (missing repo, no git) throws. */
function git(repo: string, args: string[]): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      args,
      {
        cwd: repo,
        timeout: 15_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      },
      (error, stdout) => {
        if (!error) return resolve({ code: 0, stdout });
        const code = (error as NodeJS.ErrnoException & { code?: unknown }).code;
        if (typeof code === 'number') return resolve({ code, stdout });
        reject(new Error(`git ${args[0]} failed in ${repo}: ${error.message}`));
      },
    );
  });
}

export class GitRepo implements WorkflowSource {
  constructor(readonly path: string) {}

  async commitOf(rev: string): Promise<string | null> {
    const result = await git(this.path, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
    const sha = result.stdout.trim();
    return result.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
  }

  async commitMessage(sha: string): Promise<string> {
    const result = await git(this.path, ['show', '-s', '--format=%B', sha]);
    return result.code === 0 ? result.stdout.replace(/\s+$/, '') : '';
  }

  /** `git cat-file blob` rather than `git show`, so that a directory of that name is "not found" too. */
  async workflowFile(sha: string, fileName: string): Promise<string | null> {
    const result = await git(this.path, ['cat-file', 'blob', `${sha}:.eas/workflows/${fileName}`]);
    return result.code === 0 ? result.stdout : null;
  }

  describe(): Record<string, unknown> {
    return { kind: 'git', path: this.path };
  }
}
