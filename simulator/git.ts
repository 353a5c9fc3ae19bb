/** Git ref resolution and file reads in a project's linked repository, via `git` with execFile (no shell). */
import { execFile } from 'node:child_process';

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

async function revParseCommit(repo: string, rev: string): Promise<string | null> {
  const result = await git(repo, ['rev-parse', '--verify', '--quiet', `${rev}^{commit}`]);
  const sha = result.stdout.trim();
  return result.code === 0 && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
}

/**
 * Characters git forbids in ref names (plus `@{`, `..`, whitespace, control characters). A gitRef
 * containing them cannot be a branch, tag or SHA, so it is never handed to rev-parse (where `main~1`
 * or `main^` would otherwise resolve to something that is not what the spec allows).
 */
const FORBIDDEN_REF = /[\s~^:?*[\\\x00-\x1f\x7f]|\.\.|@\{|\/\/|\/$|\.lock$|\.$/;

export interface ResolvedRef {
  sha: string;
  /** `refs/heads/<b>`, `refs/tags/<t>`, the given fully qualified ref, or the full SHA for a SHA. */
  requestedGitRef: string;
}

/**
 * Resolves a branch name, tag, full or abbreviated commit SHA, or fully qualified `refs/...` ref.
 * Branches win over tags, and both over SHAs (as in git's own precedence). Returns null if none exists.
 * The caller must already have rejected refs that start with `-`.
 */
export async function resolveGitRef(repo: string, ref: string): Promise<ResolvedRef | null> {
  if (ref.startsWith('-') || ref === '' || FORBIDDEN_REF.test(ref)) return null;
  if (ref.startsWith('refs/')) {
    const sha = await revParseCommit(repo, ref);
    return sha ? { sha, requestedGitRef: ref } : null;
  }
  for (const prefix of ['refs/heads/', 'refs/tags/']) {
    const sha = await revParseCommit(repo, prefix + ref);
    if (sha) return { sha, requestedGitRef: prefix + ref };
  }
  if (/^[0-9a-f]{4,64}$/i.test(ref)) {
    const sha = await revParseCommit(repo, ref.toLowerCase());
    if (sha) return { sha, requestedGitRef: sha };
  }
  return null;
}

/** Commit subject and body, without the trailing newline. */
export async function readCommitMessage(repo: string, sha: string): Promise<string> {
  const result = await git(repo, ['show', '-s', '--format=%B', sha]);
  return result.code === 0 ? result.stdout.replace(/\s+$/, '') : '';
}

/**
 * Contents of `.eas/workflows/<fileName>` at `sha`, or null when there is no such file. Uses
 * `git cat-file blob` rather than `git show` so that a directory of that name is "not found" too.
 */
export async function readWorkflowFile(repo: string, sha: string, fileName: string): Promise<string | null> {
  const result = await git(repo, ['cat-file', 'blob', `${sha}:.eas/workflows/${fileName}`]);
  return result.code === 0 ? result.stdout : null;
}
