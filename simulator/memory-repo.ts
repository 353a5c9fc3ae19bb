/**
 * A project's repository held in memory: commits with their message and workflow files, branches and
 * tags. Tests, the demo and the CLI without `--repo` use it, so a world spawns no git and writes no
 * file. A commit's SHA is 40 hex digits derived from its parent, message and files, as git's is.
 */
import { createHash } from 'node:crypto';
import type { WorkflowSource } from './workflow-source.js';

interface Commit {
  message: string;
  /** File name under `.eas/workflows/` → content. */
  files: ReadonlyMap<string, string>;
}

export class MemoryRepo implements WorkflowSource {
  private readonly commits = new Map<string, Commit>();
  private readonly refs = new Map<string, string>();

  /** A first commit with `files` (names under `.eas/workflows/`) on branch `main`, tagged `v1`. */
  constructor(files: Record<string, string> = {}, message = 'Add workflows') {
    this.tag('v1', this.commit(files, message));
  }

  /** The commit `main` points to. */
  get headSha(): string {
    return this.refs.get('refs/heads/main')!;
  }

  /**
   * A new commit on `branch` (made if it does not exist) whose files are the branch's files with
   * `files` written over them. Returns its SHA.
   */
  commit(files: Record<string, string>, message = 'Update workflows', branch = 'main'): string {
    const parent = this.refs.get(`refs/heads/${branch}`);
    const tree = new Map(parent ? this.commits.get(parent)!.files : []);
    for (const [name, content] of Object.entries(files)) tree.set(name, content);
    const sha = createHash('sha1')
      .update(JSON.stringify([parent ?? null, this.commits.size, message, [...tree].sort()]))
      .digest('hex');
    this.commits.set(sha, { message, files: tree });
    this.refs.set(`refs/heads/${branch}`, sha);
    return sha;
  }

  /**
   * The merge queue's commit (simulator/github/merge-queue.ts): a new commit on `branch` whose parents
   * are `base` and `head`, with `base`'s files and `head`'s written over them. Returns its SHA.
   */
  mergeCommit(options: { base: string; head: string; branch: string; message: string }): Promise<string> {
    const { base, head, branch, message } = options;
    const [ours, theirs] = [this.commits.get(base), this.commits.get(head)];
    if (!ours || !theirs)
      return Promise.reject(new Error(`No commit ${ours ? head : base} in this repository`));
    const tree = new Map([...ours.files, ...theirs.files]);
    const sha = createHash('sha1')
      .update(JSON.stringify([base, head, this.commits.size, message, [...tree].sort()]))
      .digest('hex');
    this.commits.set(sha, { message, files: tree });
    this.refs.set(`refs/heads/${branch}`, sha);
    return Promise.resolve(sha);
  }

  /** Points branch `name` at an existing commit. */
  branch(name: string, sha: string): void {
    this.point(`refs/heads/${name}`, sha);
  }

  /** Points tag `name` at an existing commit. */
  tag(name: string, sha: string): void {
    this.point(`refs/tags/${name}`, sha);
  }

  private point(ref: string, sha: string): void {
    if (!this.commits.has(sha)) throw new Error(`No commit ${sha} in this repository`);
    this.refs.set(ref, sha);
  }

  commitOf(rev: string): Promise<string | null> {
    if (rev.startsWith('refs/')) return Promise.resolve(this.refs.get(rev) ?? null);
    const matches = [...this.commits.keys()].filter((sha) => sha.startsWith(rev));
    return Promise.resolve(matches.length === 1 ? matches[0] : null);
  }

  commitMessage(sha: string): Promise<string> {
    return Promise.resolve(this.commits.get(sha)?.message.replace(/\s+$/, '') ?? '');
  }

  workflowFile(sha: string, fileName: string): Promise<string | null> {
    return Promise.resolve(this.commits.get(sha)?.files.get(fileName) ?? null);
  }

  describe(): Record<string, unknown> {
    const named = (prefix: string) =>
      Object.fromEntries(
        [...this.refs]
          .filter(([ref]) => ref.startsWith(prefix))
          .map(([ref, sha]) => [ref.slice(prefix.length), sha]),
      );
    return {
      kind: 'memory',
      branches: named('refs/heads/'),
      tags: named('refs/tags/'),
      workflowFiles: [...(this.commits.get(this.headSha)?.files.keys() ?? [])].sort(),
    };
  }
}
